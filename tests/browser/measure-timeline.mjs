import { launch, serve, pick, timelineSettled } from './support.mjs';
const file = process.argv[2];
const browser = await launch();
const server = await serve();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(server.url);
const t0 = Date.now();
console.log(await pick(page, [file]), 'open+first graph', await page.evaluate(() => document.body.dataset.firstGraphMs), 'ms; wasm', await page.evaluate(() => document.body.dataset.wasmBytes));
let t = Date.now();
await page.click('#tab-button-timeline');
await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
console.log('timeline first drawn', Date.now() - t, 'ms');
// A redraw at a new zoom from already fetched boxes (what each wheel frame does before the worker answers).
const draw = await page.evaluate(async () => {
  const c = document.getElementById('timeline-canvas');
  const times = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    c.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 100 : -100, clientX: 600, clientY: 300, bubbles: true, cancelable: true }));
    times.push(performance.now() - s);
    await new Promise((r) => requestAnimationFrame(r));
  }
  times.sort((a, b) => a - b);
  return times[10];
});
console.log('zoom frame (draw) median', draw.toFixed(1), 'ms');
// A pan: the frame drawn at once from fetched boxes, then the worker's boxes for the new
// window drawn (timed in the page, from the key to the drawn detail).
const pan = await page.evaluate(async () => {
  const c = document.getElementById('timeline-canvas');
  const frames = [];
  const details = [];
  for (let i = 0; i < 10; i++) {
    document.body.dataset.timeline = 'x';
    const s = performance.now();
    c.dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'a' : 'd', bubbles: true, cancelable: true }));
    frames.push(performance.now() - s);
    while (document.body.dataset.timeline !== 'drawn') await new Promise((r) => setTimeout(r, 1));
    details.push(performance.now() - s);
  }
  const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
  return { frame: median(frames), detail: median(details) };
});
console.log('pan frame (draw) median', pan.frame.toFixed(1), 'ms; new boxes drawn after', pan.detail.toFixed(1), 'ms');
// Zoomed in to 1/10,000 of the trace: full detail from the calls kept.
await page.evaluate(() => {
  const c = document.getElementById('timeline-canvas');
  for (let i = 0; i < 14; i++) c.dispatchEvent(new KeyboardEvent('keydown', { key: 'w', bubbles: true, cancelable: true }));
});
await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
t = Date.now();
// Past the call limit the window's short calls are read again: until they are drawn.
const settled = () => timelineSettled(page, 600000);
await settled();
const detail = async () => (await page.locator('#timeline-detail').textContent()) + ' [' + await page.evaluate(() => document.body.dataset.timelineDetail) + ']';
console.log('zoomed to', await page.locator('#timeline-span').textContent(), '·', await detail(), 'after', Date.now() - t, 'ms');
await page.focus('#timeline-canvas');
for (const [key, what] of [['d', 'pan inside the window read'], ['d', 'pan past it'], ['d', 'pan past it']]) {
  t = Date.now();
  await page.keyboard.press(key);
  await settled();
  console.log(what + ':', await detail(), 'drawn after', Date.now() - t, 'ms');
}
await settled();
await page.screenshot({ path: 'screenshots/measure-timeline-zoomed.png' });
const note = await page.locator('#timeline-note').textContent();
console.log('note:', note || '(none)', '; wasm', await page.evaluate(() => document.body.dataset.wasmBytes));
if (note) {
  await browser.close(); await server.close();
  process.exit(0);
}
const box = await page.locator('#timeline-canvas').boundingBox();
await page.keyboard.press('0');
await page.waitForFunction(() => document.getElementById('timeline-canvas').dataset.from === '0');
await settled();
await page.mouse.move(box.x + 300, box.y + 100);
await page.mouse.down();
await page.mouse.move(box.x + 900, box.y + 100, { steps: 3 });
t = Date.now();
await page.mouse.up();
await page.waitForSelector('#range-bar:not([hidden])');
console.log('range shown', Date.now() - t, 'ms');
// The engine re-aggregates the range when the first graph or table of it is asked for.
await page.click('#tab-button-flame');
t = Date.now();
await page.waitForFunction(() => / in /.test(document.getElementById('graph-title').textContent) && document.body.dataset.graph === 'ready');
console.log('range re-aggregation and its flame graph drawn', Date.now() - t, 'ms');
await browser.close(); await server.close();
