// Names in traces are chosen by whoever made the trace: they must never run as script in
// the page or break out of their place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { checkedPage, corpus, dist, pick, shot, shownSvg, tempFile, writeTrace, watchRequests, foreignRequests, useBrowser } from './support.mjs';

const context = useBrowser();

const hostile = writeTrace({
  threads: [[1, '<script>parent.pwned = "thread"</script>'], [2, '"><img src=x onerror="parent.pwned=\'img\'">']],
  methods: [
    [4, '<script>parent.pwned="class"</script>', 'm', '()V', 'A.java'],
    [8, 'B', '"><img src=x onerror="parent.pwned=\'method\'">', '()V', 'B.java'],
    [12, 'javascript:parent.pwned=1//', "it's \"quoted\" & <b>bold</b>", '()V', '(null)'],
    [16, 'x'.repeat(3000), 'long', '()V', 'L.java'],
  ],
  records: [
    [1, 4, 0, 10], [1, 8, 0, 20], [1, 8, 1, 30], [1, 12, 0, 31], [1, 12, 1, 35], [1, 4, 1, 40],
    [2, 16, 0, 10], [2, 16, 1, 90],
  ],
});

// Once every view has drawn the names (the graph's frame has run its script and said it is
// ready, the selected method's detail is complete), nothing that could run a script later
// is in the page's views: no element of the names' making, no event-handler attribute.
async function everyViewShown(page) {
  await page.waitForFunction(() => document.body.dataset.graph === 'ready' && document.body.dataset.methodDetail === 'shown');
  const runnable = await page.evaluate(() => Array.from(document.querySelectorAll('#report *')).filter((e) =>
    ['SCRIPT', 'IMG', 'OBJECT', 'EMBED', 'svg', 'LINK', 'STYLE'].includes(e.tagName) ||
    (e.tagName === 'IFRAME' && !['flame', 'compare-flame'].includes(e.id)) ||
    Array.from(e.attributes).some((a) => a.name.toLowerCase().startsWith('on'))).map((e) => e.outerHTML.slice(0, 120)));
  assert.deepEqual(runnable, [], 'nothing in the views can run a script');
}

test('hostile names run no script and stay text', async (t) => {
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const requests = watchRequests(page);
  const dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss();
  });
  t.after(() => page.close());
  await page.goto(context.server.url);
  assert.equal(await pick(page, tempFile('hostile.trace', hostile)), 'done');
  for (const thread of [1, 2, 0]) {
    await page.locator('#thread-rows tr').nth(thread).click();
    await page.frameLocator('#flame').locator('svg').first().waitFor();
  }
  await page.click('#tab-button-methods');
  await page.locator('#method-rows tr').first().click();
  await page.click('#tab-button-trace');
  await page.click('#tab-button-flame');
  await everyViewShown(page);
  assert.equal(await page.evaluate(() => window.pwned), undefined, 'no injected script ran in the page');
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('#thread-rows img, #method-rows img, #thread-rows script').count(), 0);
  assert.match(await page.locator('#thread-rows').textContent(), /<script>parent\.pwned = "thread"<\/script>/);
  // Inside the graph the names are escaped text too.
  const svg = await shownSvg(page);
  assert.doesNotMatch(svg, /<img/);
  assert.match(svg, /&lt;script&gt;|&lt;img/);
  // A 3000-character name does not widen the page.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  assert.deepEqual(foreignRequests(requests, context.server.origin), [], 'no request leaves the page');
  await shot(page, 'hostile-names');
});

// The same attack through a system trace: task, process and slice names.
const capture = [
  '# tracer: nop',
  '<script>parent.pwned="task"</script>-10 (   10) [000] ...1 1.000000: tracing_mark_write: B|10|"><img src=x onerror="parent.pwned=\'slice\'">',
  '<script>parent.pwned="task"</script>-10 (   10) [000] ...1 1.000100: tracing_mark_write: S|10|<svg onload="parent.pwned=1">|1',
  '<script>parent.pwned="task"</script>-10 (   10) [000] ...1 1.000200: tracing_mark_write: F|10|<svg onload="parent.pwned=1">|1',
  '<script>parent.pwned="task"</script>-10 (   10) [000] ...1 1.000300: tracing_mark_write: E|10',
  '',
].join('\n');

test('hostile names in a system trace run no script either', async (t) => {
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const requests = watchRequests(page);
  t.after(() => page.close());
  await page.goto(context.server.url);
  assert.equal(await pick(page, tempFile('hostile.txt', Buffer.from(capture))), 'done');
  for (const row of await page.locator('#thread-rows tr[data-thread]').all()) {
    await row.click();
    await page.frameLocator('#flame').locator('svg').first().waitFor();
  }
  await page.click('#tab-button-methods');
  await page.locator('#method-rows tr').first().click();
  await everyViewShown(page);
  assert.equal(await page.evaluate(() => window.pwned), undefined, 'no injected script ran in the page');
  assert.equal(await page.locator('#thread-rows img, #thread-rows script, #thread-rows svg, #method-rows img').count(), 0);
  assert.match(await page.locator('#thread-rows tr.process').textContent(), /<script>parent\.pwned="task"<\/script> \(pid 10\)/);
  assert.deepEqual(foreignRequests(requests, context.server.origin), [], 'no request leaves the page');
});

// A trap in the wasm engine (a Rust panic aborts as `unreachable`; running out of memory
// throws a RangeError) must not take the page down. The worker is served with a hook
// that traps on inputs starting with "!!", as a panic would, and is dead afterwards.
test('a crash in the analysis worker shows the error, and the next file works without a reload', async (t) => {
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
  t.after(() => page.close());
  await page.context().route('**/worker.js', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()) + `
;(function () {
  // Like a real trap, it leaves this worker's instance unusable: only a new worker helps.
  let dead = false;
  const push = wasm_bindgen.Session.prototype.push;
  wasm_bindgen.Session.prototype.push = function (chunk) {
    if (dead) throw new Error('this instance trapped before');
    if (chunk[0] === 0x21 && chunk[1] === 0x21) {
      dead = true;
      throw new WebAssembly.RuntimeError('unreachable executed');
    }
    return push.call(this, chunk);
  };
})();`;
    await route.fulfill({ response, body });
  });
  await page.goto(context.server.url);
  assert.equal(await pick(page, tempFile('crash.trace', Buffer.from('!!crash'))), 'error');
  assert.match(await page.locator('#error-text').textContent(), /unreachable/);
  assert.equal(await pick(page, corpus('perflib-exception.trace')), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 2);
  assert.equal(await pick(page, tempFile('crash2.trace', Buffer.from('!!again'))), 'error');
  assert.equal(await pick(page, corpus('perflib-basic.trace')), 'done');
});

// Both builds carry a strict policy: no remote origin anywhere, scripts only from the page
// itself or by hash. The graph's own script still runs (its hash is in the policy).
test('a strict Content-Security-Policy, and nothing violates it', async (t) => {
  for (const html of [fs.readFileSync(path.join(dist, 'index.html'), 'utf8'), fs.readFileSync(path.join(dist, 'droidflame.html'), 'utf8')]) {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    assert.ok(policy, 'the page has a policy');
    assert.match(policy[1], /default-src 'none'/);
    assert.doesNotMatch(policy[1], /https?:|'unsafe-inline'[^;]*script|script-src[^;]*'unsafe-inline'|'unsafe-eval'/);
  }
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
  t.after(() => page.close());
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
  });
  await page.goto(context.server.url);
  assert.equal(await pick(page, corpus('perflib-exception.trace')), 'done');
  const frame = page.frameLocator('#flame');
  // The frame's own script (allowed by its hash) says the graph is ready.
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  assert.equal(await frame.locator('svg').first().getAttribute('width'), null, "the graph's script ran");
  assert.deepEqual(await page.evaluate(() => window.violations), []);
});

// A stack a million frames deep (2,000,000 records, 28 MB): the page draws it, with the
// frames below depth 1024 merged into one, and says so.
test('a million-deep stack is drawn, its deeper frames merged', async (t) => {
  const depth = 1_000_000;
  const records = {
    length: 2 * depth,
    forEach(visit) {
      for (let i = 0; i < depth; i++) visit([1, (i % 1000) * 4, 0, i + 1], i);
      for (let i = depth - 1; i >= 0; i--) visit([1, (i % 1000) * 4, 1, 2 * depth - i], 2 * depth - 1 - i);
    },
  };
  const methods = Array.from({ length: 1000 }, (_, i) => [i * 4, 'com.example.Deep', 'level' + i, '()V', 'Deep.java']);
  const bytes = writeTrace({ threads: [[1, 'main']], methods, records });
  const page = await checkedPage(context, t);
  assert.equal(await pick(page, tempFile('deep.trace', bytes)), 'done');
  assert.match(await page.locator('#warnings').textContent(), /Stacks deeper than 1,024 frames \(threads affected: 1\) are merged/);
  await page.frameLocator('#flame').locator('svg').first().waitFor();
  assert.match(await shownSvg(page), /\[frames below depth 1024, merged\]/);
});

// Folded text past the in-memory limit (512 MiB) is refused by the engine; the page says
// so and keeps the report. The worker is served with a hook that refuses every download.
test('a refused download is explained and the report stays', async (t) => {
  const page = await checkedPage(context, t);
  await page.context().route('**/worker.js', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()) + `
;wasm_bindgen.Session.prototype.folded = function () {
  throw new Error('limit reached: the folded stacks are larger than 512 MiB');
};`;
    await route.fulfill({ response, body });
  });
  await page.reload();
  assert.equal(await pick(page, corpus('perflib-exception.trace')), 'done');
  await page.frameLocator('#flame').locator('svg').first().waitFor();
  await page.click('#save-folded');
  await page.locator('#graph-error').waitFor();
  assert.match(await page.locator('#graph-error').textContent(), /Nothing was saved: limit reached: the folded stacks are larger than 512 MiB/);
  assert.equal(await page.locator('#flame').isVisible(), true, 'the graph stays');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'done');
});
