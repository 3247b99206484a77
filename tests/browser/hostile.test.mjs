// Names in traces are chosen by whoever made the trace: they must never run as script in
// the page or break out of their place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pick, shot, shownSvg, tempFile, writeTrace, watchRequests, foreignRequests, useBrowser } from './support.mjs';

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
  await page.waitForTimeout(300);
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
