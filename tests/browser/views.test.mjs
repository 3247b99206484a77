// The views a person uses after opening a trace, at 1440x900 as in the issue that asked for
// them: search in the graph, methods that follow the thread, callers and callees that line
// up, the thread the page opens on, controls in sight, dark graphs, the keyboard, the
// layout, the empty state, and the smaller fixes. Each test failed on the page before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { corpus, pick, shot, shownSvg, tempFile, useBrowser, checkedPage, assertGraphDrawn } from './support.mjs';

const context = useBrowser();
const VIEWPORT = { width: 1440, height: 900 };

async function open(t, trace, options = {}) {
  const page = await checkedPage(context, t, Object.assign({ viewport: VIEWPORT }, options));
  assert.equal(await pick(page, corpus(trace)), 'done');
  await graphReady(page);
  return page;
}

function graphReady(page) {
  return page.waitForFunction(() => ['ready', 'empty'].includes(document.body.dataset.graph), null, { timeout: 30000 });
}

async function selectThread(page, name) {
  await page.locator('#thread-rows tr[data-thread]').filter({ has: page.locator('td.name[title^="' + name + ' ["]') }).first().click();
  await page.waitForFunction((n) => document.querySelector('#thread-rows tr[aria-selected=true] td.name').title.startsWith(n + ' ['), name);
  if (await page.isVisible('#tab-flame')) await graphReady(page);
}

// The names the methods table lists for a filter, once the table has settled.
async function methodNames(page, filter = '') {
  await page.waitForFunction(() => / shown\.|^Showing|^No .* matches the filter/.test(document.getElementById('method-note').textContent));
  await page.fill('#method-filter', filter);
  return page.locator('#method-rows td.name').evaluateAll((cells) => cells.map((c) => c.title.split(' ')[0]));
}

test('1. the search box finds frames in the graph, and Ctrl+F in the graph reaches it', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  // Click the root frame (a click zooms, and search looks inside the zoomed frame).
  await page.frameLocator('#flame').locator('#frames g').filter({ has: page.frameLocator('#flame').locator('title', { hasText: /^all \(/ }) }).click();
  await page.keyboard.press('Control+f');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'graph-search');
  await page.keyboard.type('looper.loop');
  await page.waitForFunction(() => /frames? ·/.test(document.getElementById('graph-matched').textContent));
  const highlighted = await page.frameLocator('#flame').locator('#frames rect[fill="rgb(230,0,230)"]').count();
  assert.ok(highlighted > 0, 'matching frames are highlighted');
  const titles = await page.frameLocator('#flame').locator('#frames rect[fill="rgb(230,0,230)"]')
    .evaluateAll((rects) => rects.map((r) => r.parentElement.querySelector('title').textContent));
  assert.ok(titles.every((title) => /Looper\.loop/.test(title)), titles.join('\n'));
  assert.deepEqual(dialogs, [], 'no prompt');
  await shot(page, 'views-search');
  // A term no frame has says so; Escape clears the highlight.
  await page.fill('#graph-search', 'no-such-frame-anywhere');
  await page.waitForFunction(() => document.getElementById('graph-matched').textContent === 'No frame matches');
  await page.press('#graph-search', 'Escape');
  await page.waitForFunction(() => document.getElementById('graph-matched').textContent === '');
  assert.equal(await page.frameLocator('#flame').locator('#frames rect[fill="rgb(230,0,230)"]').count(), 0);
});

test('2. methods follow the selected thread and say what they cover', async (t) => {
  const page = await open(t, 'tracereader-test1.trace');
  await page.click('#tab-button-methods');
  const lua = 'com.fuzhu8.inspector.advisor.AbstractInspector.evalLuaScript';
  assert.ok((await methodNames(page, 'Handler.dispatchMessage')).includes('android.os.Handler.dispatchMessage'));
  assert.deepEqual(await methodNames(page, 'evalLuaScript'), [], 'only Thread-147 runs it');
  assert.match(await page.locator('#method-scope').textContent(), /^main \[1\]: .* Percentages are of this thread's wall time \([\d.]+ s\)\./);
  await selectThread(page, 'Thread-147');
  await page.waitForFunction(() => /^Thread-147/.test(document.getElementById('method-scope').textContent));
  assert.deepEqual(await methodNames(page, 'evalLuaScript'), [lua]);
  await page.locator('#thread-rows tr[data-thread="-1"]').click();
  await page.waitForFunction(() => /^All threads/.test(document.getElementById('method-scope').textContent));
  // All threads' wall times add up to more than the trace lasted: shares are of its duration.
  assert.match(await page.locator('#method-scope').textContent(), /Percentages are of the trace's duration \([\d.]+ s\); threads run side by side, so a method's can pass 100%\./);
});

test('3. callers and callees line up under their headers, and a recursive edge shows its cost', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  await page.click('#tab-button-methods');
  await page.fill('#method-filter', 'ContentFrameLayout.onMeasure');
  await page.locator('#method-rows tr').first().click();
  await page.waitForFunction(() => document.querySelectorAll('#callees tr').length > 0);
  assert.equal(await page.locator('#callers tbody, #callees tbody').count(), 0, 'no table section inside another');
  for (const side of ['#callers', '#callees']) {
    const columns = await page.locator(side).evaluate((body) => {
      const head = Array.from(body.parentElement.tHead.rows[0].cells).map((c) => Math.round(c.getBoundingClientRect().left));
      const row = Array.from(body.rows[0].cells).map((c) => Math.round(c.getBoundingClientRect().left));
      return { head, row };
    });
    assert.deepEqual(columns.row, columns.head, side + ' cells start where their headers do');
  }
  const edge = page.locator('#callees tr', { hasText: 'android.widget.FrameLayout.onMeasure' });
  await edge.first().waitFor();
  const cells = await edge.first().locator('td').allTextContents();
  assert.match(cells[0], /recursive ×\d+/, 'the edge is marked recursive');
  assert.ok(Number(cells[2].replace(/,/g, '')) > 0, 'and shows what it cost: ' + cells.join(' | '));
  await shot(page, 'views-callees');
});

test('4. each trace opens on the app\'s main thread, not on the idle thread with the most wall time', async (t) => {
  const page = await checkedPage(context, t, { viewport: VIEWPORT });
  for (const [trace, label] of [
    ['tracereader-test1.trace', 'main [1]'],
    ['toolsbase-streaming.trace', 'main [15362]'],
    ['ffprof-art-streaming.trace.gz', 'main [15983]'],
  ]) {
    assert.equal(await pick(page, corpus(trace)), 'done');
    await graphReady(page);
    assert.match(await page.locator('#graph-title').textContent(), new RegExp('^' + label.replace(/[[\]]/g, '\\$&')), trace);
    // Each trace opened after another draws its graph where it can be seen.
    await assertGraphDrawn(page);
    assert.equal(await page.locator('#thread-rows tr[aria-selected=true] td.name').getAttribute('title'), label);
  }
});

test('5. the graph opens with its controls in sight and says how many levels of deeper frames are above', async (t) => {
  const page = await open(t, 'tracereader-test1.trace');
  for (const id of ['#graph-search', '#graph-reset-zoom', '#clock-wall', '#save-svg']) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 900, id + ' is in sight');
  }
  // main's graph is taller than its pane: it opens at its roots, saying how many rows of
  // frames are out of sight above (counted here from the rows' boxes on the screen).
  await page.waitForFunction(() => !document.getElementById('graph-hint').hidden);
  const paneTop = (await page.locator('.graph-scroll').boundingBox()).y;
  const rowTops = await page.frameLocator('#flame').locator('#frames rect').evaluateAll((rects) =>
    [...new Set(rects.map((r) => Math.round(r.getBoundingClientRect().top)))]);
  const frameTop = (await page.locator('#flame').boundingBox()).y;
  const above = rowTops.filter((top) => frameTop + top < paneTop).length;
  assert.ok(above > 3, above + ' rows above');
  assert.equal(await page.textContent('#graph-hint'), '▲ ' + above + ' levels of deeper frames above: scroll up');
  // The wheel reaches them; the hint takes no clicks from the graph under it.
  const pane = await page.locator('.graph-scroll').boundingBox();
  await page.mouse.move(pane.x + pane.width / 2, pane.y + 40);
  await page.mouse.wheel(0, -100000);
  await page.waitForFunction(() => document.querySelector('.graph-scroll').scrollTop === 0);
  await page.waitForFunction(() => document.getElementById('graph-hint').hidden);
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('graph-hint')).pointerEvents), 'none');
  // Reset zoom from the page undoes a zoom made in the graph.
  await page.frameLocator('#flame').locator('#frames g').nth(5).click();
  await page.frameLocator('#flame').locator('#unzoom:not(.hide)').waitFor();
  await page.click('#graph-reset-zoom');
  await page.frameLocator('#flame').locator('#unzoom.hide').waitFor({ state: 'attached' });
});

test('6. in dark mode the graph is dark too', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace', { colorScheme: 'dark' });
  const svg = await shownSvg(page);
  assert.match(svg, /stop-color="#16191D"|stop-color="#16191d"/i, 'a dark background');
  assert.match(svg, /background:#16191d/, 'the frame around it too');
  const fill = await page.frameLocator('#flame').locator('#title').getAttribute('fill');
  assert.match(fill, /#E4E7EA|rgb\(228,231,234\)/i, 'light text');
  await shot(page, 'views-dark');
});

test('7. lists are one Tab stop with arrow keys inside, and the graph works from the keyboard', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  assert.equal(await page.locator('#thread-rows tr[tabindex="0"]').count(), 1, 'one Tab stop among 41 threads');
  await page.focus('#thread-filter');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('#thread-rows') !== null), true);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#thread-rows tr[aria-selected=true]').dataset.thread !== '-1');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('#thread-rows')), null, 'Tab leaves the list');
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr').length > 1);
  assert.equal(await page.locator('#method-rows tr[tabindex="0"]').count(), 1, 'one Tab stop among the methods');
  await page.click('#tab-button-flame');
  await graphReady(page);
  await page.locator('#flame').focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.getElementById('graph-cursor').textContent !== '');
  await page.keyboard.press('Enter');
  await page.frameLocator('#flame').locator('#unzoom:not(.hide)').waitFor();
  await page.keyboard.press('Escape');
  await page.frameLocator('#flame').locator('#unzoom.hide').waitFor({ state: 'attached' });
  // + zooms to the cursor's frame, - a level out (to its caller), then all the way.
  const shownFrames = () => page.frameLocator('#flame').locator('#frames > g:not(.hide)').count();
  const all = await shownFrames();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('+');
  await page.frameLocator('#flame').locator('#unzoom:not(.hide)').waitFor();
  const zoomed = await shownFrames();
  assert.ok(zoomed < all, zoomed + ' of ' + all + ' frames in the zoomed graph');
  await page.keyboard.press('-');
  const out = await shownFrames();
  assert.ok(out >= zoomed, 'a level out shows as many frames or more: ' + out);
  await page.keyboard.press('0');
  await page.frameLocator('#flame').locator('#unzoom.hide').waitFor({ state: 'attached' });
  assert.equal(await shownFrames(), all);
  // Ctrl+wheel over a frame zooms to it; Ctrl+wheel down zooms back out.
  const frame = page.frameLocator('#flame').locator('#frames > g').nth(Math.floor(all / 2));
  await frame.hover();
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Control');
  await page.frameLocator('#flame').locator('#unzoom:not(.hide)').waitFor();
  await page.keyboard.down('Control');
  for (let i = 0; i < 40 && !(await page.frameLocator('#flame').locator('#unzoom.hide').count()); i++) await page.mouse.wheel(0, 200);
  await page.keyboard.up('Control');
  await page.frameLocator('#flame').locator('#unzoom.hide').waitFor({ state: 'attached' });
  // A label too long for its frame keeps the start of its name.
  const cut = await page.frameLocator('#flame').locator('#frames > g').evaluateAll((gs) => gs.map((g) => [g.querySelector('title').textContent, g.querySelector('text').textContent])
    .filter(([, label]) => label.endsWith('..') && label.length > 4));
  assert.ok(cut.length > 0, 'some labels are cut');
  for (const [title, label] of cut) assert.ok(title.startsWith(label.slice(0, -2)), label + ' is the start of ' + title);
});

test('8. long thread names keep their distinguishing end; narrow windows keep lists usable; notes fit', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  const tails = await page.locator('#thread-rows .tail').allTextContents();
  assert.ok(tails.includes('-worker-12') || tails.some((x) => /worker-\d+$/.test(x)), tails.join(', '));
  const visible = await page.locator('#thread-rows .tail').evaluateAll((spans) => spans.filter((s) => {
    const b = s.getBoundingClientRect();
    return b.width > 0 && /worker-\d+$/.test(s.textContent);
  }).length);
  assert.ok(visible >= 10, 'the worker numbers are on screen: ' + visible);
  const notes = await page.locator('#warnings').evaluate((box) => [box.scrollHeight, box.clientHeight]);
  assert.ok(notes[0] <= notes[1] + 1, 'no note is cut off: ' + notes);
  await page.setViewportSize({ width: 900, height: 900 });
  await page.waitForFunction(() => window.innerWidth === 900 && window.innerHeight === 900);
  const rows = await page.locator('#thread-rows tr[data-thread]').evaluateAll((trs) =>
    trs.filter((tr) => { const b = tr.getBoundingClientRect(); return b.top >= 0 && b.bottom <= window.innerHeight; }).length);
  assert.ok(rows >= 12, 'threads in sight at 900 px: ' + rows);
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr').length > 1);
  const methods = await page.locator('#method-rows tr').evaluateAll((trs) =>
    trs.filter((tr) => { const b = tr.getBoundingClientRect(); return b.top >= 0 && b.bottom <= window.innerHeight; }).length);
  assert.ok(methods >= 10, 'methods in sight at 900 px: ' + methods);
  await shot(page, 'views-900');
});

test('9. a capture with nothing to draw says so, with nothing to save', async (t) => {
  const page = await open(t, 'petra-systrace-example-2.html');
  assert.equal(await page.isVisible('#graph-empty'), true);
  assert.equal(await page.isVisible('#flame'), false);
  assert.match(await page.locator('#graph-empty').textContent(), /no frames to draw/);
  assert.equal(await page.isDisabled('#save-svg'), true);
  assert.equal(await page.isDisabled('#save-folded'), true);
  assert.match(await page.locator('#warnings').textContent(), /no slices .* and no scheduler events: there is nothing to draw/);
  await shot(page, 'views-empty');
});

test('10. smaller: the error names the file, tracks have no CPU time, no console noise, no favicon request', async (t) => {
  const page = await checkedPage(context, t, { viewport: VIEWPORT });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error' || /negative/.test(m.text())) consoleErrors.push(m.text()); });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  // The .data half alone: the error names the file and tells a web user what to do.
  const bytes = fs.readFileSync(corpus('perflib-exception.trace'));
  const data = tempFile('app.data', bytes.subarray(bytes.indexOf('*end\n') + 5));
  assert.equal(await pick(page, data), 'error');
  assert.match(await page.locator('#error-title').textContent(), /^app\.data could not be read$/);
  assert.match(await page.locator('#error-text').textContent(), /open it together with its matching \.key file/);
  assert.doesNotMatch(await page.locator('#error-text').textContent(), /droidflame summary/);
  assert.equal(await pick(page, corpus('toolsbase-atrace.ctrace')), 'done');
  await graphReady(page);
  const track = page.locator('#thread-rows tr[data-thread]').filter({ has: page.locator('.badge') }).first();
  assert.equal((await track.locator('td').nth(3).textContent()).trim(), '—', 'a track has no CPU time');
  const summary = await page.evaluate(() => document.body.dataset.state);
  assert.equal(summary, 'done');
  const all = await page.locator('#thread-rows tr[data-thread="-1"] td').nth(2).textContent();
  const threads = await page.locator('#thread-rows tr[data-thread]').count();
  assert.ok(threads > 100 && all.length > 0);
  await selectThread(page, 'HeapTaskDaemon');
  assert.deepEqual(consoleErrors, [], 'no console errors (inferno logged a negative width before)');
  assert.deepEqual(requests.filter((u) => /favicon/.test(u)), []);
});

test('done when: the single file opens tracereader-test1 on main [1], follows the thread, searches, and is dark in dark mode', async (t) => {
  const page = await context.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  t.after(() => page.close());
  const { pathToFileURL } = await import('node:url');
  const path = await import('node:path');
  const { dist } = await import('./support.mjs');
  await page.goto(pathToFileURL(path.join(dist, 'droidflame.html')).href);
  assert.equal(await pick(page, corpus('tracereader-test1.trace')), 'done');
  await graphReady(page);
  assert.match(await page.locator('#graph-title').textContent(), /^main \[1\]/);
  await selectThread(page, 'Thread-147');
  await selectThread(page, 'main');
  assert.match(await shownSvg(page), /main \[1\] — wall clock/);
  await page.click('#tab-button-methods');
  assert.deepEqual(await methodNames(page, 'evalLuaScript'), []);
  assert.ok((await methodNames(page, 'Handler.dispatchMessage')).length > 0);
  await page.click('#tab-button-flame');
  await graphReady(page);
  await page.fill('#graph-search', 'Handler.dispatchMessage');
  await page.waitForFunction(() => /frames? ·/.test(document.getElementById('graph-matched').textContent));
  assert.ok(await page.frameLocator('#flame').locator('#frames rect[fill="rgb(230,0,230)"]').count() > 0);
  assert.match(await shownSvg(page), /stop-color="#16191D"/i);
  await shot(page, 'done-when-single-file-dark');
});

test('Tab reaches the flame graph from its controls, one stop per group, and its keys work there', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  await page.focus('#tab-button-flame');
  // One stop per group of controls: the stack view's buttons (Undo is disabled, the Hide
  // buttons hidden for a method trace), the clock, the Save buttons, search, Reset zoom.
  const stops = [];
  const focused = () => document.activeElement.id || document.activeElement.tagName;
  for (let i = 0; i < 8 && stops[stops.length - 1] !== 'flame'; i++) {
    const from = await page.evaluate(focused);
    await page.keyboard.press('Tab');
    // Focus moves on after the key; into the graph's frame, across frames. On its way it
    // leaves the page's body focused for a moment: wait until it lands on an element.
    await page.waitForFunction((f) => {
      const at = document.activeElement;
      return at && at !== document.body && (at.id || at.tagName) !== f;
    }, from);
    stops.push(await page.evaluate(focused));
  }
  assert.deepEqual(stops, ['view-invert', 'clock-wall', 'save-svg', 'graph-search', 'graph-reset-zoom', 'flame']);
  const graph = await (await page.$('#flame')).contentFrame();
  await graph.waitForFunction(() => document.activeElement === document.querySelector('svg'));
  assert.equal(await page.frameLocator('#flame').locator('svg').first().evaluate((svg) => document.activeElement === svg), true);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /^all \(/.test(document.getElementById('graph-cursor').textContent));
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => /^com\.android\.internal\.os\.ZygoteInit\.main \(/.test(document.getElementById('graph-cursor').textContent));
});

test('arrows move inside a group of buttons, and Tab comes back to the one last used', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  const at = () => page.evaluate(() => document.activeElement.id || document.activeElement.tagName);
  await page.focus('#save-svg');
  await page.keyboard.press('ArrowRight');
  assert.equal(await at(), 'save-folded');
  await page.keyboard.press('End');
  assert.equal(await at(), 'SUMMARY');
  await page.keyboard.press('ArrowRight');
  assert.equal(await at(), 'save-svg', 'round from the last to the first');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await at(), 'save-summary');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await at(), 'clock-wall');
  await page.keyboard.press('Tab');
  assert.equal(await at(), 'save-summary', "the group's stop is the button last used");
  assert.deepEqual(await page.locator('#save-tools [tabindex="0"]').evaluateAll((all) => all.map((b) => b.id)), ['save-summary']);
  // The header's buttons are one stop too: those on show, from the first.
  await page.focus('#compare-open');
  assert.equal(await page.locator('#bar-tools [tabindex="0"]').count(), 1);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Open trace…');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await at(), 'mapping-open');
});

test('the tabs are the list of views: Left and Right move between those on show', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace');
  assert.deepEqual(await page.locator('#tabs [role=tab]:not([hidden])').allTextContents(), ['Flame graph', 'Call tree', 'Timeline', 'Methods', 'Trace']);
  await page.focus('#tab-button-flame');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-button-tree');
  assert.equal(await page.getAttribute('#tab-button-tree', 'aria-selected'), 'true');
  assert.equal(await page.isHidden('#tab-tree'), false);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-button-trace', 'round from the first to the last on show');
  assert.equal(await page.getAttribute('#tab-button-trace', 'aria-selected'), 'true');
  assert.equal(await page.isHidden('#tab-trace'), false);
  assert.equal(await page.isHidden('#tab-flame'), true);
});

test('another method\'s detail opens at its top, not where the last one was scrolled to', async (t) => {
  const page = await open(t, 'ffprof-art-regular.trace', { viewport: { width: 1280, height: 700 } });
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr[data-method]').length > 5);
  await page.locator('#method-rows tr[data-method]').first().click();
  await page.waitForFunction(() => document.body.dataset.methodDetail === 'shown');
  const scrolled = await page.evaluate(() => {
    const box = document.getElementById('method-detail');
    box.scrollTop = box.scrollHeight;
    return box.scrollTop;
  });
  assert.ok(scrolled > 0, 'the detail is taller than its pane');
  await page.locator('#method-rows tr[data-method]').nth(1).click();
  await page.waitForFunction(() => document.body.dataset.methodDetail === 'shown');
  assert.equal(await page.evaluate(() => document.getElementById('method-detail').scrollTop), 0);
});

test('a narrow window shows the graph in its first screen, under a header of one line', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 } });
  assert.equal(await pick(page, [corpus('ffprof-art-regular.trace')]), 'done');
  await graphReady(page);
  const header = await page.locator('header.bar').boundingBox();
  assert.ok(header.height < 50, 'one line of header: ' + header.height + ' px');
  for (const button of ['#copy-link', 'header [data-open]']) {
    const box = await page.locator(button).boundingBox();
    assert.ok(box.y + box.height <= header.y + header.height, button + ' in the header\'s line');
  }
  const graph = await page.locator('#flame').boundingBox();
  assert.ok(graph.y < 900 - 200, 'the graph starts at ' + graph.y + ' px, with 200 px of it in the first screen');
  // The keyboard went on from the view opened, not from the open button.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-button-flame');
  await shot(page, 'views-narrow-first-screen');
});
