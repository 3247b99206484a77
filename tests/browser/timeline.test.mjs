// The timeline as a person uses it: it draws the calls of a real trace, the wheel zooms,
// a drag selects a range that the flame graph and the methods table then cover, and a
// slowest call of a method jumps to its place in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, checkedPage, pick, corpus, hoverAt, rowPoint, shot, timelineSettled } from './support.mjs';

const context = useBrowser();

async function openTimeline(t, file = 'tracereader-test1.trace') {
  const page = await checkedPage(context, t);
  assert.equal(await pick(page, [corpus(file)]), 'done');
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  return page;
}

const span = (page) => page.evaluate(() => {
  const c = document.getElementById('timeline-canvas');
  return { from: Number(c.dataset.from), to: Number(c.dataset.to) };
});

// Share of the canvas's pixels that are not its background: something was drawn.
const inked = (page) => page.evaluate(() => {
  const c = document.getElementById('timeline-canvas');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) ink++;
  return ink / (data.length / 4);
});

test('the timeline draws the main thread, hover names a call, and Ctrl+wheel zooms', async (t) => {
  const page = await openTimeline(t);
  const whole = await span(page);
  assert.equal(whole.from, 0);
  assert.ok(Math.abs(whole.to - 17_781_079) < 1, 'the whole timeline: ' + whole.to);
  assert.ok(await inked(page) > 0.05, 'calls are drawn');
  assert.match(await page.textContent('#timeline-span'), /of 17\.8 s/);
  // Depth 0 of main is the message loop, all the way across.
  const loop = await rowPoint(page, 0);
  await page.mouse.move(loop.x, loop.y);
  await page.waitForSelector('#timeline-tip:not([hidden])');
  const tip = await page.textContent('#timeline-tip');
  assert.match(tip, /android\.os\.|dalvik|java\./);
  // Each clock in the core's words for a method trace.
  assert.match(tip, /wall time .* · thread CPU time /);
  // The wheel scrolls the tracks; with Ctrl it zooms, around the pointer.
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -500);
  await page.keyboard.up('Control');
  await page.waitForFunction((before) => Number(document.getElementById('timeline-canvas').dataset.to) < before, whole.to);
  const zoomed = await span(page);
  assert.ok(zoomed.to - zoomed.from < whole.to / 1.5, 'Ctrl+wheel zooms in');
  // Keys pan and reset.
  await page.focus('#timeline-canvas');
  await page.keyboard.press('d');
  await page.waitForFunction((from) => Number(document.getElementById('timeline-canvas').dataset.from) > from, zoomed.from);
  await page.keyboard.press('0');
  await page.waitForFunction(() => Number(document.getElementById('timeline-canvas').dataset.from) === 0);
  await shot(page, 'timeline-main');
});

test('a dragged range re-aggregates the flame graph and the methods, and clears back', async (t) => {
  const page = await openTimeline(t);
  await page.click('#tab-button-methods');
  await page.waitForSelector('#method-rows tr[data-method]');
  const wholeScope = await page.textContent('#method-scope');
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  const wholeGraph = await page.evaluate(() => document.getElementById('flame').srcdoc.length);
  await page.click('#tab-button-timeline');
  const box = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + 80);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + 80, { steps: 4 });
  await page.mouse.up();
  await page.waitForSelector('#range-bar:not([hidden])');
  const range = await page.textContent('#range-text');
  assert.match(range, /cover 5\.\d\d–7\.\d\d s of the trace/);
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => / in 5\.\d\d–7\.\d\d s$/.test(document.getElementById('graph-title').textContent));
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  const rangeGraph = await page.evaluate(() => document.getElementById('flame').srcdoc);
  assert.notEqual(rangeGraph.length, wholeGraph, 'the graph changed');
  // The total in the graph's root tooltip is the range's, at most its length.
  await page.click('#tab-button-methods');
  await page.waitForFunction((before) => document.getElementById('method-scope').textContent !== before, wholeScope);
  const scope = await page.textContent('#method-scope');
  const parts = /^main \[1\] in (\d\.\d\d)–(\d\.\d\d) s: [\d,]+ methods, (\d\.\d\d) s of wall time/.exec(scope);
  assert.ok(parts, scope);
  // Main is inside some call all the time: its time in the range is the range's length.
  const [from, to, wall] = parts.slice(1).map(Number);
  assert.ok(Math.abs(to - from - wall) <= 0.011, scope);
  assert.match(wholeScope, /17\.8 s of wall time/);
  await shot(page, 'timeline-range-methods');
  await page.click('#range-clear');
  await page.waitForSelector('#range-bar', { state: 'hidden' });
  await page.waitForFunction((before) => document.getElementById('method-scope').textContent === before, wholeScope);
});

test('a slowest call of the selected method shows it in the timeline', async (t) => {
  const page = await openTimeline(t);
  await page.click('#tab-button-methods');
  await page.fill('#method-filter', 'Handler.handleCallback');
  await page.click('#method-rows tr[data-method] >> nth=0');
  await page.waitForSelector('#slowest tr[data-call]');
  const rows = await page.locator('#slowest tr[data-call]').count();
  assert.ok(rows >= 2 && rows <= 10, rows + ' slowest calls');
  const walls = await page.locator('#slowest tr[data-call] td:nth-child(3)').allTextContents();
  assert.ok(walls.length === rows);
  await page.click('#slowest tr[data-call] >> nth=0');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn' &&
    document.querySelector('[data-tab=timeline]').getAttribute('aria-selected') === 'true');
  const shown = await span(page);
  assert.ok(shown.to - shown.from < 2_000_000, 'zoomed to the call: ' + JSON.stringify(shown));
  assert.match(await page.textContent("#timeline-span"), /^5\.\d{2,3} s – 5\.\d{2,3} s/);
  await shot(page, 'timeline-slowest-call');
});

test('every thread in its own lane, and a system trace in nanoseconds', async (t) => {
  const page = await openTimeline(t, 'toolsbase-atrace.ctrace');
  await page.click('#thread-rows tr >> nth=0');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  const height = await page.evaluate(() => document.getElementById('timeline-canvas').clientHeight);
  assert.ok(height > 300, 'lanes for many threads: ' + height + ' px');
  assert.ok(await inked(page) > 0.02);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => document.getElementById('timeline-canvas').dataset.theme === 'dark');
  await shot(page, 'timeline-all-threads-dark');
});

// The canvas's pixels, hashed: two pages drew the same thing when these agree.
// The canvas is as tall as its pane, which a note above it shortens: its first 500 rows.
const drawing = (page) => page.evaluate(() => {
  const c = document.getElementById('timeline-canvas');
  const rows = Math.min(c.height, 500);
  const data = c.getContext('2d').getImageData(0, 0, c.width, rows).data;
  let hash = 2166136261;
  for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 16777619);
  return c.width + 'x' + rows + ':' + (hash >>> 0);
});

// Keys from the whole trace to 5.72-6.28 s of main, where most of its short calls are.
async function zoomIntoBusyPart(page, after) {
  await page.focus('#timeline-canvas');
  for (const key of 'wawwwaaaaaw') {
    await page.keyboard.press(key);
    await after();
  }
}

test('past the call limit, one thread zoomed in is read again and drawn as a page that kept every call', async (t) => {
  // Tall enough that neither page scrolls, so both canvases have the same width.
  const size = { viewport: { width: 1280, height: 1100 } };
  const limited = await checkedPage(context, t, Object.assign({ query: '?calls=2000' }, size));
  const full = await checkedPage(context, t, size);
  for (const page of [limited, full]) {
    assert.equal(await pick(page, [corpus('tracereader-test1.trace')]), 'done');
    await page.click('#tab-button-timeline');
    await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  }
  assert.match(await limited.textContent('#timeline-note'),
    /more than 2,000 calls.*shorter than 6,144 µs.*read again from the file/);
  assert.equal(await limited.isVisible('#timeline-range-keys'), false, 'no range hint where ranges are off');
  assert.equal(await full.isVisible('#timeline-range-keys'), true);
  assert.equal(await full.textContent('#timeline-detail'), '');
  // The whole trace: only the long calls, so less is drawn than on the full page.
  assert.equal(await limited.textContent('#timeline-detail'), 'Calls under 6.14 ms show when zoomed in');
  assert.notEqual(await drawing(limited), await drawing(full));
  // A key draws at once and asks for the new window's boxes: the page says `drawing` until they are drawn.
  const settled = (page) => () => timelineSettled(page);
  await zoomIntoBusyPart(full, settled(full));
  await zoomIntoBusyPart(limited, settled(limited));
  await limited.waitForFunction(() => document.body.dataset.timelineDetail === 'exact');
  assert.equal(await limited.textContent('#timeline-detail'), 'Every call shown');
  const view = await span(limited);
  assert.deepEqual(view, await span(full));
  assert.ok(Math.abs(view.from - 5_723_000) < 1000 && Math.abs(view.to - 6_279_000) < 1000, JSON.stringify(view));
  // Every answer drawn on both, then compare pixels.
  await timelineSettled(limited);
  await timelineSettled(full);
  assert.equal(await drawing(limited), await drawing(full), 'the same calls are drawn');
  await shot(limited, 'timeline-reread');
  // A call shorter than the limit, found by hovering, is named on both pages alike.
  const tipAt = async (page, fx, depth) => {
    const point = await rowPoint(page, depth, fx);
    await hoverAt(page, point.x, point.y);
    return (await page.isVisible('#timeline-tip')) ? page.textContent('#timeline-tip') : null;
  };
  let found = null;
  for (let depth = 3; depth < 12 && !found; depth++) {
    for (let fx = 0.05; fx < 1 && !found; fx += 0.05) {
      const tip = await tipAt(limited, fx, depth);
      const wall = tip && /wall time ([\d.]+) (µs|ms)/.exec(tip);
      if (wall && (wall[2] === 'µs' || Number(wall[1]) < 6.144)) found = { fx, depth, tip };
    }
  }
  assert.ok(found, 'a short call is drawn and hovered');
  assert.equal(await tipAt(full, found.fx, found.depth), found.tip);
});

// The box at a depth of the single-thread timeline, at a share of its width (rows are
// 17 px under a 22 px axis).
const at = (page, depth, share = 0.5) => rowPoint(page, depth, share);

const chosen = (page) => page.evaluate(() => document.body.dataset.timelineCall || '');

test('a click shows a call in detail with its path; its menu merges it and the timeline follows the view', async (t) => {
  const page = await openTimeline(t);
  // Near 5.6 s the main thread runs deep stacks (elsewhere it waits in nativePollOnce).
  const DEEP = 0.316;
  let point = await at(page, 2, DEEP);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction(() => Boolean(document.body.dataset.timelineCall));
  const path = await page.locator('#timeline-call .call-path li').allTextContents();
  assert.equal(path.length, 3, 'a call at depth 2 has two callers above it: ' + path);
  assert.equal(path[2], await chosen(page));
  const panel = await page.textContent('#timeline-call');
  assert.match(panel, /starts at .* · depth 2/);
  assert.match(panel, /wall time .* · thread CPU time \d/, 'a whole call keeps its CPU time');
  await shot(page, 'timeline-call');
  // The outermost frame's menu: Merge takes it out of every stack, so what it called is
  // now the outermost row, and the crumbs say so.
  const outer = path[0];
  point = await at(page, 0, DEEP);
  await page.mouse.click(point.x, point.y, { button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  assert.equal(await page.textContent('.frame-menu-name'), outer);
  await page.locator('.frame-menu [role=menuitem]').first().press('Enter');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn' && document.getElementById('view-crumbs').textContent.includes('Merge'));
  assert.ok(await page.isVisible('#view-bar'), 'the view bar shows on the timeline');
  assert.equal(await page.isVisible('#view-invert'), false, 'a timeline is never bottom-up');
  // The view's note above the timeline moved it down.
  point = await at(page, 0, DEEP);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction((o) => Boolean(document.body.dataset.timelineCall) && document.body.dataset.timelineCall !== o, outer);
  const merged = await page.locator('#timeline-call .call-path li').allTextContents();
  assert.equal(merged.length, 1);
  assert.equal(merged[0], path.find((name) => name !== outer), 'what the merged frame called is outermost now');
  // Undo gives the calls back as they ran.
  await page.click('#view-undo');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn' && !document.getElementById('view-crumbs').textContent.includes('Merge'));
  point = await at(page, 0, DEEP);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction((o) => document.body.dataset.timelineCall === o, outer);
  // The panel takes the person to the call elsewhere.
  await page.click('text=Show in call tree');
  await page.waitForFunction(() => !document.getElementById('tab-tree').hidden);
  await page.setViewportSize({ width: 760, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn' && document.getElementById('timeline-canvas').dataset.theme === 'dark');
  assert.ok(await page.isVisible('#timeline-call'), 'the call stays in detail when its tab shows again');
  await shot(page, 'timeline-call-narrow');
});

test('a chosen call comes back with its link after a reload; Show in flame graph zooms the graph to it', async (t) => {
  const page = await openTimeline(t);
  const DEEP = 0.316;
  const point = await at(page, 2, DEEP);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction(() => Boolean(document.body.dataset.timelineCall));
  const name = await chosen(page);
  const path = await page.locator('#timeline-call .call-path li').allTextContents();
  const panel = await page.textContent('#timeline-call h3 + p');
  await page.waitForFunction(() => new URL(location.href).hash.includes('call='), null, { timeout: 5000 });

  // The same address and the same file: the timeline again, the call chosen and in detail.
  await page.reload();
  assert.equal(await page.isVisible('#link-welcome'), true);
  assert.equal(await pick(page, [corpus('tracereader-test1.trace')]), 'done');
  await page.waitForFunction((n) => document.body.dataset.timeline === 'drawn' && document.body.dataset.timelineCall === n, name, { timeout: 30000 });
  assert.equal(await page.textContent('#timeline-call h3 + p'), panel, 'the same call: its start, end and depth');
  assert.deepEqual(await page.locator('#timeline-call .call-path li').allTextContents(), path);
  assert.equal(await page.isHidden('#link-note'), true, 'nothing left out');

  // In the flame graph, zoomed to that call's frame: its callers stay below it, the rest goes.
  await page.click('text=Show in flame graph');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready' && document.body.dataset.graphZoomed === 'found', null, { timeout: 30000 });
  assert.ok((await page.textContent('#graph-cursor')).includes(name), 'the graph\'s cursor is on the call\'s frame');
  const zoomed = await page.frameLocator('#flame').locator('#frames').evaluate((frames, names) => {
    const all = Array.from(frames.children);
    const title = (g) => g.querySelector('title').textContent.replace(/ \([^()]*%\)$/, '');
    return {
      callers: all.filter((g) => g.classList.contains('parent'))
        .sort((a, b) => Number(b.querySelector('rect').getAttribute('y')) - Number(a.querySelector('rect').getAttribute('y'))).map(title),
      hidden: all.filter((g) => g.classList.contains('hide')).length,
      widest: Math.max(...all.filter((g) => title(g) === names[names.length - 1] && !g.classList.contains('hide'))
        .map((g) => g.querySelector('rect').getBoundingClientRect().width)),
      root: Math.max(...all.map((g) => g.querySelector('rect').getBoundingClientRect().width)),
    };
  }, path);
  assert.deepEqual(zoomed.callers.slice(1), path.slice(0, -1), 'below it, its path from the root');
  assert.ok(zoomed.hidden > 0, 'frames beside the path are out of the zoom');
  assert.ok(zoomed.widest > 0.99 * zoomed.root, 'the call\'s frame fills the graph: ' + zoomed.widest + ' of ' + zoomed.root);
  await shot(page, 'timeline-call-in-graph');
  // Reset zoom lets the path go: the graph drawn again (dark) is not zoomed.
  await page.click('#graph-reset-zoom');
  const before = await page.evaluate(() => document.body.dataset.graphReadyAt);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction((b) => document.body.dataset.graph === 'ready' && document.body.dataset.graphReadyAt !== b, before);
  const hidden = await page.frameLocator('#flame').locator('#frames > g.hide').count();
  assert.equal(hidden, 0, 'the graph drawn after Reset zoom shows every frame');
});

test('Show in methods selects the call\'s method, with its callers, callees and slowest calls; Whole profile is top-down again', async (t) => {
  const page = await openTimeline(t);
  const point = await at(page, 2, 0.316);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction(() => Boolean(document.body.dataset.timelineCall));
  const name = await chosen(page);
  await page.click('text=Show in methods');
  await page.waitForFunction((n) => !document.getElementById('method-detail').hidden &&
    document.getElementById('method-detail-name').textContent.startsWith(n), name, { timeout: 30000 });
  assert.equal(await page.inputValue('#method-filter'), name);
  assert.ok(await page.locator('#slowest tr[data-call]').count() > 0, 'its slowest calls are listed');
  // Callers of a method turns Invert on; Whole profile takes the steps out and Invert off.
  await page.locator('#method-rows tr[data-method]').first().click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.locator('.frame-menu [role=menuitem]', { hasText: 'Callers of' }).click();
  await page.waitForFunction(() => document.getElementById('view-invert').getAttribute('aria-pressed') === 'true');
  await page.click('#view-crumbs .crumb-whole button');
  await page.waitForFunction(() => document.getElementById('view-invert').getAttribute('aria-pressed') === 'false');
  assert.equal(await page.isHidden('#view-note'), true, 'no steps: nothing to say about what they reach');
  assert.equal(await page.isDisabled('#view-undo'), false, 'Undo brings the steps back');
});
