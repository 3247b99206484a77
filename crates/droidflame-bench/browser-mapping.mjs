// The hosted build in headless Chromium: opens TRACE, then applies MAPPING with "Apply
// mapping…", and prints one JSON line: time from the pick of the mapping to the graph
// drawn again with the original names, the longest main-thread task meanwhile, and the
// worker's wasm heap before and after.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const [trace, mapping] = process.argv.slice(2);

const browser = await support.launch();
const server = await support.serve();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(server.url);
  await page.setInputFiles('#picker', trace);
  if (await support.waitForResult(page, 10 * 60 * 1000) !== 'done') throw new Error(await page.textContent('#error-text'));
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 10 * 60 * 1000 });
  const wasmBefore = Number(await page.evaluate(() => document.body.dataset.wasmBytes));
  await support.watchMainThread(page);
  await page.setInputFiles('#mapping-picker', mapping);
  await page.waitForFunction(() => document.body.dataset.mappingMs || document.getElementById('mapping-bar').classList.contains('error'),
    null, { timeout: 10 * 60 * 1000 });
  const result = await page.evaluate(() => ({
    mapping_ms: Number(document.body.dataset.mappingMs),
    longest_task_ms: window.benchLongest,
    text: document.getElementById('mapping-text').textContent,
    renamed: /com\.example\.original\./.test(document.getElementById('flame').srcdoc),
  }));
  result.wasm_bytes_before = wasmBefore;
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  await server.close();
}
