// Two traces compared, as a person does it: open one, "Compare with…" the other (or drop
// both at once), read the facts side by side and the warnings, choose a thread, the clock,
// the widths and scaling, search and zoom the differential graph, sort and filter the
// methods table; and what happens with a file that is not a trace, or the same file twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, drop, pick, shot, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();
const VIEWPORT = { width: 1440, height: 900 };

function compareReady(page) {
  return page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.compareGraph) ||
    !document.getElementById('compare-error').hidden, null, { timeout: 30000 });
}

// The differential SVG on show, waiting for the one drawn after a change.
async function shownDiff(page, pattern) {
  await page.waitForFunction((source) => new RegExp(source).test(document.getElementById('compare-flame').srcdoc) &&
    document.body.dataset.compareGraph === 'ready', pattern.source, { timeout: 30000 });
  return page.evaluate(() => document.getElementById('compare-flame').srcdoc);
}

async function compareWith(page, before, after) {
  assert.equal(await pick(page, corpus(before)), 'done');
  await page.click('#compare-open');
  await page.setInputFiles('#compare-picker', corpus(after));
  await compareReady(page);
}

// The method rows as [name, Δ inclusive text] once the table has settled.
async function methodRows(page) {
  await page.waitForFunction(() => / shown\.|^Showing|^No .* matches the filter/.test(document.getElementById('compare-method-note').textContent));
  return page.locator('#compare-method-rows tr').evaluateAll((rows) => rows.map((r) =>
    [r.querySelector('td.name').title.split(' ')[0], r.children[5].textContent]));
}

test('compare with a second run: facts side by side, the main thread\'s graph, methods by growth', async (t) => {
  const page = await checkedPage(context, t, { viewport: VIEWPORT });
  await compareWith(page, 'ffprof-art-regular.trace', 'ffprof-art-streaming.trace');
  assert.equal(await page.getAttribute('#tab-button-compare', 'aria-selected'), 'true');
  const facts = await page.locator('#compare-facts tr').evaluateAll((rows) =>
    rows.map((r) => Array.from(r.children).map((c) => c.textContent)));
  assert.deepEqual(facts.map((r) => r.slice(0, 3)), [
    ['Before', 'ffprof-art-regular.trace', 'Method trace, regular v3'],
    ['After', 'ffprof-art-streaming.trace', 'Method trace, streaming v3'],
  ]);
  assert.equal(await page.inputValue('#compare-thread'), 'main', 'the thread the before trace opens on');
  const svg = await shownDiff(page, /main — wall clock, before → after/);
  assert.match(svg, /Widths: after, 9,431,101 µs\. Colour: self time change against before \(6,224,530 µs\), deeper with its share of the whole: red grew, blue shrank/);
  assert.match(await page.textContent('#compare-legend'), /^Thread main, wall time\. Widths: after\./);
  // Red frames: stacks whose own time grew.
  const reds = await page.frameLocator('#compare-flame').locator('#frames rect').evaluateAll((rects) =>
    rects.filter((r) => /^rgb\(255,/.test(r.getAttribute('fill'))).length);
  assert.ok(reds > 0, 'some stacks grew');
  await shot(page, 'compare-main');
  // Colour by total: a caller whose time below it grew is red too, and says by how much.
  await page.selectOption('#compare-colour', 'total');
  const total = await shownDiff(page, /Colour: total time change/);
  assert.match(await page.textContent('#compare-legend'), /Colour: how a frame's total time \(itself and what it calls\) changed/);
  const loop = /<g><title>android\.os\.Looper\.loop \(([\d,]+) µs, [\d.]+%; total ([\d,]+) → ([\d,]+) µs, \+([\d.]+)%\)<\/title><rect [^>]*fill="rgb\((\d+),(\d+),(\d+)\)"/.exec(total);
  assert.ok(loop, 'Looper.loop tells its total before and after');
  assert.equal(loop[1], loop[3], 'as wide as its total after');
  assert.equal(loop[5], '255', 'it grew: red');
  await page.selectOption('#compare-colour', 'self');
  await shownDiff(page, /Colour: self time change/);

  // The methods table starts with the largest growth of inclusive time.
  const rows = await methodRows(page);
  assert.equal(rows[0][0], 'android.app.ActivityThread.main');
  assert.equal(rows[0][1], '+3.21 s');
  await page.locator('#compare-method-subhead th', { hasText: 'Δ' }).first().locator('button').click();
  const shrinkFirst = await methodRows(page);
  assert.match(shrinkFirst[0][1], /^−/, 'again: largest shrink first');
  await page.fill('#compare-filter', 'MessageQueue.next');
  const filtered = await methodRows(page);
  assert.deepEqual(filtered.map((r) => r[0]), ['android.os.MessageQueue.next']);

  // Search and zoom in the differential graph.
  await page.fill('#compare-search', 'nativePollOnce');
  await page.waitForFunction(() => /frames? ·/.test(document.getElementById('compare-matched').textContent));
  const root = page.frameLocator('#compare-flame').locator('#frames g')
    .filter({ has: page.frameLocator('#compare-flame').locator('title', { hasText: /^android\.os\.MessageQueue\.next \(/ }) }).first();
  await root.click();
  // Zoomed: the frames below it become its parents, frames beside it are hidden.
  const zoomed = page.frameLocator('#compare-flame');
  await zoomed.locator('#frames g.parent').first().waitFor();
  assert.ok(await zoomed.locator('#frames g.hide').count() > 0);

  // Widths from before, scaled to the same total, on the CPU clock.
  await page.check('#compare-widths-before');
  await shownDiff(page, /Widths: before, 6,224,530 µs\./);
  await page.check('#compare-normalize');
  await shownDiff(page, /scaled to the same total\)/);
  assert.match(await page.textContent('#compare-legend'), /from before to after \(after scaled to the same total\), deeper/);
  await page.check('#compare-clock-cpu');
  await shownDiff(page, /main — cpu clock, before → after/);
  // The clock in the core's words for method traces.
  assert.match(await page.textContent('#compare-method-note'), /Times: thread CPU time \(hover for µs\)/);

  // Another thread by name, from the list or the thread list on the left.
  await page.selectOption('#compare-thread', 'GleanAPIPool');
  await shownDiff(page, /GleanAPIPool — cpu clock/);
  await page.locator('#thread-rows tr[data-thread]').filter({ has: page.locator('td.name[title^="Gecko ["]') }).first().click();
  await shownDiff(page, /Gecko — cpu clock/);
  assert.equal(await page.inputValue('#compare-thread'), 'Gecko');
  await shot(page, 'compare-gecko-cpu-before-normalized');

  // Stop comparing: the tab goes, the flame graph is back.
  await page.click('#compare-close');
  await page.waitForFunction(() => document.getElementById('tab-button-compare').hidden);
  assert.equal(await page.getAttribute('#tab-button-flame', 'aria-selected'), 'true');
});

test('two traces dropped together are compared, in the order given', async (t) => {
  const page = await checkedPage(context, t, { viewport: VIEWPORT, colorScheme: 'dark' });
  // A slow machine: the before trace's graph is still loading when the Compare tab takes over.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  assert.equal(await drop(page, [corpus('ffprof-art-streaming.trace'), corpus('ffprof-art-regular.trace')]), 'done');
  await compareReady(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  assert.equal(await page.textContent('#file-name'), 'ffprof-art-streaming.trace');
  const svg = await shownDiff(page, /main — wall clock/);
  assert.match(svg, /against before \(9,431,101 µs\)/);
  await shot(page, 'compare-dropped-dark');
  // The before trace's own graph loaded while the Compare tab took over: back on its tab it
  // is laid out at its width, its labels whole.
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  const loop = page.frameLocator('#flame').locator('#frames g')
    .filter({ has: page.frameLocator('#flame').locator('title', { hasText: /^android\.os\.Looper\.loop \(/ }) }).first();
  assert.equal((await loop.locator('text').textContent()).trim(), 'android.os.Looper.loop');
  // ... and opens at its roots, at the bottom of its pane.
  const view = await page.evaluate(() => {
    const frame = document.getElementById('flame');
    const scroller = frame.parentElement;
    return { top: scroller.scrollTop, bottom: scroller.scrollTop + scroller.clientHeight, graph: frame.offsetTop + frame.offsetHeight };
  });
  assert.ok(view.top > 0 && view.bottom >= view.graph - 16, JSON.stringify(view));
});

test('the same file twice, a method trace against a system trace, and a file that is no trace', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 700, height: 900 } });
  await compareWith(page, 'perflib-exception.trace', 'perflib-exception.trace');
  assert.match(await page.textContent('#compare-warnings'), /the two traces have the same stacks and times: nothing changed \(the same trace twice\?\)/);
  await shot(page, 'compare-same-narrow');

  await page.click('#compare-open');
  await page.setInputFiles('#compare-picker', corpus('tracecompass-atrace-test.txt'));
  await page.waitForFunction(() => /system trace/.test(document.getElementById('compare-warnings').textContent));
  assert.match(await page.textContent('#compare-warnings'),
    /before is a method trace and after a system trace: their frames name different things, so few stacks match/);

  await page.click('#compare-open');
  await page.setInputFiles('#compare-picker', corpus('SOURCES.md'));
  await page.waitForFunction(() => !document.getElementById('compare-error').hidden);
  assert.match(await page.textContent('#compare-error'), /^SOURCES\.md could not be compared: not an Android trace at byte 0/);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', 'the trace on show stays');
});
