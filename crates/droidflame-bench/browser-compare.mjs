// The hosted build in headless Chromium: picks BEFORE and AFTER together (two traces are
// compared), waits for the differential graph, and prints one JSON line: time from the
// pick to the comparison's graph, the longest main-thread task meanwhile, peak JS heap of
// the page, and the worker's wasm heap after both analyses and the comparison.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const [before, after] = process.argv.slice(2);

const browser = await support.launch();
const server = await support.serve();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(server.url);
  await support.watchMainThread(page);
  await page.setInputFiles('#picker', [before, after]);
  await page.waitForFunction(() => document.body.dataset.compareMs || !document.getElementById('compare-error').hidden ||
    document.body.dataset.state === 'error', null, { timeout: 10 * 60 * 1000 });
  const result = await page.evaluate(() => ({
    compare_ms: Number(document.body.dataset.compareMs),
    first_graph_ms: Number(document.body.dataset.firstGraphMs),
    longest_task_ms: window.benchLongest,
    peak_js_heap: window.benchPeakHeap,
    wasm_bytes: Number(document.body.dataset.wasmBytes),
    error: document.getElementById('compare-error').textContent || document.getElementById('error-text').textContent,
  }));
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  await server.close();
}
