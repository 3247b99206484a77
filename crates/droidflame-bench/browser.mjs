// The hosted build in headless Chromium: once the page's engine has started (as it has by
// the time a person has chosen a file), picks FILE, waits for the first flame graph, and
// prints one JSON line: time from choosing the file to its first graph handed to its frame
// (`first_graph_ms`) and drawn there, labels and all (`graph_drawn_ms`), the longest
// main-thread task while parsing, peak JS heap of the page, and the worker's wasm heap. A
// second argument is added to the page's address (`?calls=N`: the timeline's call limit).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const file = process.argv[2];

const browser = await support.launch();
const server = await support.serve();
try {
  const page = await support.startedPage(browser, { url: server.url + (process.argv[3] || '') });
  await support.watchMainThread(page);
  await page.setInputFiles('#picker', file);
  const state = await support.waitForResult(page, 20 * 60 * 1000);
  // The result shows before its first graph is drawn; the time is set once it is handed
  // to its frame, and the frame says when it is drawn, labels and all.
  if (state === 'done') {
    await page.waitForFunction(() => document.body.dataset.firstGraphMs && document.body.dataset.graph === 'ready',
      null, { timeout: 60000 });
  }
  const result = await page.evaluate(() => ({
    first_graph_ms: Number(document.body.dataset.firstGraphMs),
    graph_drawn_ms: Math.round(Number(document.body.dataset.graphReadyAt) - Number(document.body.dataset.openedAt)),
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
