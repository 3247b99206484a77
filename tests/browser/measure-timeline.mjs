import { launch, serve, pick } from './support.mjs';
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
const box = await page.locator('#timeline-canvas').boundingBox();
await page.waitForTimeout(500);
t = Date.now();
await page.evaluate(() => { document.body.dataset.timeline = 'x'; });
await page.keyboard.press('Tab');
await page.focus('#timeline-canvas');
t = Date.now();
await page.keyboard.press('d');
await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
console.log('pan: worker boxes + draw', Date.now() - t, 'ms');
await page.mouse.move(box.x + 300, box.y + 100);
await page.mouse.down();
await page.mouse.move(box.x + 900, box.y + 100, { steps: 3 });
t = Date.now();
await page.mouse.up();
await page.waitForSelector('#range-bar:not([hidden])');
console.log('range re-aggregation (worker)', Date.now() - t, 'ms');
await page.click('#tab-button-flame');
t = Date.now();
await page.waitForFunction(() => / in /.test(document.getElementById('graph-title').textContent) && document.body.dataset.graph === 'ready');
console.log('range flame graph drawn', Date.now() - t, 'ms');
await browser.close(); await server.close();
