// The hosted build in headless Chromium: picks FILE, waits for the first flame graph, and
// prints one JSON line: time to first graph, the longest main-thread task while parsing,
// peak JS heap of the page, and the worker's wasm heap. A second argument is added to the
// page's address (`?calls=N`: the timeline's call limit).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const file = process.argv[2];

const browser = await support.launch();
const server = await support.serve();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(server.url + (process.argv[3] || ""));
  await support.watchMainThread(page);
  await page.setInputFiles('#picker', file);
  const state = await support.waitForResult(page, 20 * 60 * 1000);
  // The result shows before its first graph is drawn; the time is set once it is.
  if (state === 'done') await page.waitForFunction(() => document.body.dataset.firstGraphMs, null, { timeout: 60000 });
  const result = await page.evaluate(() => ({
    first_graph_ms: Number(document.body.dataset.firstGraphMs),
    longest_task_ms: window.benchLongest,
    peak_js_heap: window.benchPeakHeap,
    wasm_bytes: Number(document.body.dataset.wasmBytes),
    error: document.getElementById('error-text').textContent,
  }));
  console.log(JSON.stringify({ state, ...result }));
} finally {
  await browser.close();
  await server.close();
}
