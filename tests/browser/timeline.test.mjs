// The timeline as a person uses it: it draws the calls of a real trace, the wheel zooms,
// a drag selects a range that the flame graph and the methods table then cover, and a
// slowest call of a method jumps to its place in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, checkedPage, pick, corpus, shot } from './support.mjs';

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

test('the timeline draws the main thread, hover names a call, and the wheel zooms', async (t) => {
  const page = await openTimeline(t);
  const whole = await span(page);
  assert.equal(whole.from, 0);
  assert.ok(Math.abs(whole.to - 17_781_079) < 1, 'the whole timeline: ' + whole.to);
  assert.ok(await inked(page) > 0.05, 'calls are drawn');
  assert.match(await page.textContent('#timeline-span'), /of 17\.8 s/);
  const box = await page.locator('#timeline-canvas').boundingBox();
  // Depth 0 of main is the message loop, all the way across.
  await page.mouse.move(box.x + box.width / 2, box.y + 30);
  await page.waitForSelector('#timeline-tip:not([hidden])');
  const tip = await page.textContent('#timeline-tip');
  assert.match(tip, /android\.os\.|dalvik|java\./);
  assert.match(tip, /wall .* · CPU /);
  await page.mouse.wheel(0, -500);
  await page.waitForFunction((before) => Number(document.getElementById('timeline-canvas').dataset.to) < before, whole.to);
  const zoomed = await span(page);
  assert.ok(zoomed.to - zoomed.from < whole.to / 1.5, 'the wheel zooms in');
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
  assert.match(await page.textContent('#timeline-span'), /^5\.\d\d s – 5\.\d\d s/);
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
  await page.waitForTimeout(100);
  await shot(page, 'timeline-all-threads-dark');
});
