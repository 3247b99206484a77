// Measures a heap dump in the page: from choosing the file to its overview (the analysis
// done), to the classes table, and to the leaks and copies found; the wasm heap then; and
// the longest main-thread task meanwhile. The wasm heap is the worker's, as the page last
// heard of it (once read, and at the end). `node measure-heap.mjs FILE`.
import { launch, serve, watchMainThread } from './support.mjs';

const file = process.argv[2];
const browser = await launch();
const server = await serve();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on('pageerror', (e) => console.log('page error:', e.message));
await page.goto(server.url);
await watchMainThread(page);
const start = Date.now();
await page.setInputFiles('#picker', [file]);
const at = async (test) => {
  await page.waitForFunction(test, null, { timeout: 600000 });
  return (Date.now() - start) / 1000;
};
const overview = await at(() => ['done', 'error'].includes(document.body.dataset.state));
const wasmOf = () => page.evaluate(() => Number(document.body.dataset.wasmHeap || document.body.dataset.wasmBytes) / 2 ** 20);
const wasmRead = await wasmOf();
const classes = await at(() => document.querySelectorAll('#heap-class-rows tr').length > 0);
// Both notes say what was found (not "Looking for…").
const leaks = await at(() => ['heap-leaks-note', 'heap-copies-note']
  .every((id) => !/^(Looking|$)/.test(document.getElementById(id).textContent)));
const wasm = await wasmOf();
console.log(JSON.stringify({
  state: await page.evaluate(() => document.body.dataset.state),
  overview_s: overview, classes_s: classes, leaks_and_copies_s: leaks,
  wasm_heap_read_mib: Math.round(wasmRead), wasm_heap_mib: Math.round(wasm), longest_task_ms: Math.round(await page.evaluate(() => window.benchLongest)),
}));
await browser.close();
process.exit(0);
