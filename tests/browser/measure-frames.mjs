// Measures a jank capture in the page: the wasm heap once it is read (its threads' states
// and frames kept), the Frames tab from the click to its table, a re-sort of that table,
// and a timeline redraw with its frame lanes and state strips (from boxes already fetched).
// `node measure-frames.mjs FILE`.
import { launch, serve, pick, timelineSettled } from './support.mjs';

const file = process.argv[2];
const browser = await launch();
const server = await serve();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
const state = await pick(page, [file]);
const wasm = () => page.evaluate(() => Number(document.body.dataset.wasmHeap || document.body.dataset.wasmBytes) / 2 ** 20);
console.log(state, '· open and first graph', await page.evaluate(() => document.body.dataset.firstGraphMs), 'ms · wasm heap', (await wasm()).toFixed(0), 'MiB');
// A person looks at the first graph a moment before choosing the tab.
await page.waitForTimeout(1000);
let t = Date.now();
await page.click('#tab-button-frames');
await page.waitForFunction(() => document.body.dataset.frames === 'shown', null, { timeout: 600000 });
console.log('Frames tab shown', Date.now() - t, 'ms after a click a second after the first graph:', await page.locator('#frame-note').textContent());
console.log('Frames view drawn from its data in', await page.evaluate(() => document.body.dataset.framesDrawMs), 'ms');
// A re-sort: every frame ordered again and the table's rows made (timed in the page).
const sort = await page.evaluate(async () => {
  const times = [];
  for (let i = 0; i < 6; i++) {
    const button = document.querySelector('#frame-head th:nth-child(' + (2 + (i % 2)) + ') button');
    const s = performance.now();
    button.click();
    times.push(performance.now() - s);
    await new Promise((r) => requestAnimationFrame(r));
  }
  return times.sort((a, b) => a - b)[3];
});
console.log('frames table re-sorted and drawn, median', sort.toFixed(1), 'ms');
await page.click('#thread-rows tr[data-thread] >> nth=0');
t = Date.now();
await page.click('#tab-button-timeline');
await timelineSettled(page, 600000);
console.log('timeline (all threads, frame lanes, CPU lanes, state strips) first drawn', Date.now() - t, 'ms');
const draw = await page.evaluate(async () => {
  const c = document.getElementById('timeline-canvas');
  const times = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    c.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 100 : -100, ctrlKey: true, clientX: 600, clientY: 300, bubbles: true, cancelable: true }));
    times.push(performance.now() - s);
    await new Promise((r) => requestAnimationFrame(r));
  }
  return times.sort((a, b) => a - b)[10];
});
console.log('timeline redraw at a new zoom, median', draw.toFixed(1), 'ms · wasm heap', (await wasm()).toFixed(0), 'MiB');
// A zoom step until the new window's data is drawn (every track in view asked again).
const settled = [];
for (let i = 0; i < 6; i++) {
  await timelineSettled(page, 600000);
  const s = Date.now();
  await page.evaluate((i) => document.getElementById('timeline-canvas').dispatchEvent(new WheelEvent('wheel',
    { deltaY: i % 2 ? 300 : -300, ctrlKey: true, clientX: 600, clientY: 300, bubbles: true, cancelable: true })), i);
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawing');
  await timelineSettled(page, 600000);
  settled.push(Date.now() - s);
}
console.log('a zoom step to its window drawn with its own data, median of', settled.length, settled.sort((a, b) => a - b)[3], 'ms:', settled.join(' '));
const layout = await page.evaluate(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout));
console.log('frame lanes', layout.frames.layers.length, '· CPU lanes', layout.system.cpus.length, '· state strips', layout.strips.length, '· tracks in view', layout.tracks.length);
await page.screenshot({ path: 'screenshots/measure-frames-timeline.png' });
await browser.close();
await server.close();
