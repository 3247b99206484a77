// Measures many runs in the page: RUNS runs a side of one trace (hard links of FILE named
// before-NN/after-NN), each read, reduced and let go in the worker: the time from "Compare
// the groups" to the methods table, the wasm heap after, and the time of a group's call
// tree. `node measure-runs.mjs FILE [RUNS]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, serve } from './support.mjs';

const file = path.resolve(process.argv[2]);
const runs = Number(process.argv[3] || 20);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-measure-runs-'));
const files = [];
for (const side of ['before', 'after']) {
  for (let i = 0; i < runs; i++) {
    const link = path.join(dir, side + '-' + String(i).padStart(2, '0') + path.extname(file));
    fs.linkSync(file, link);
    files.push(link);
  }
}
const browser = await launch();
const server = await serve();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(server.url);
await page.waitForFunction(() => document.body.dataset.engine === 'ready', null, { timeout: 60000 });
await page.setInputFiles('#picker', files);
await page.waitForSelector('#runs-choose:not([hidden])');
const start = Date.now();
await page.click('#runs-start');
await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state) && document.body.dataset.runsMethods,
  null, { timeout: 3600000, polling: 500 });
const seconds = (Date.now() - start) / 1000;
const heap = await page.evaluate(() => Number(document.body.dataset.wasmHeap) / 2 ** 20);
const state = await page.evaluate(() => document.body.dataset.state);
console.log(state, '·', 2 * runs, 'runs of', (fs.statSync(file).size / 2 ** 20).toFixed(0), 'MiB:', seconds.toFixed(1), 's to the methods table,',
  (seconds / (2 * runs)).toFixed(2), 's a run · wasm heap', heap.toFixed(0), 'MiB ·', await page.textContent('#runs-facts'));
// A group's call tree: the other group's, asked for once the first is shown.
await page.waitForFunction(() => document.body.dataset.runsTree === 'ready', null, { timeout: 600000, polling: 100 });
await page.evaluate(() => { delete document.body.dataset.runsTree; });
const treeStart = Date.now();
await page.selectOption('#runs-tree-group', 'before');
await page.waitForFunction(() => document.body.dataset.runsTree === 'ready', null, { timeout: 600000, polling: 50 });
console.log('the before group\'s call tree:', ((Date.now() - treeStart) / 1000).toFixed(2), 's,',
  await page.locator('#runs-tree tbody tr').count(), 'rows shown');
await page.screenshot({ path: path.join(path.dirname(new URL(import.meta.url).pathname), 'screenshots/measure-runs.png') });
await browser.close();
await server.close();
fs.rmSync(dir, { recursive: true });
