// The Call tree tab in headless Chromium (hosted build): picks FILE, waits for the first
// graph, then times, as a person meets them: the default thread's tree opening on its tab
// (`thread_tree_ms`), every thread's tree bottom-up (`all_bottom_up_ms`), a transform
// chosen from a row's menu drawing the tree again (`transform_tree_ms`), then the flame
// graph (`transform_graph_ms`), the methods table of every thread (`transform_methods_ms`)
// and the timeline (`transform_timeline_ms`: every thread's lane, each moment's stack made
// in the view) in that view, and the longest main-thread task meanwhile.
// Prints one JSON line. Each time runs from the action to the page saying it is ready
// (the timeline: drawn, or saying why it has nothing to draw).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const file = process.argv[2];

const browser = await support.launch();
const server = await support.serve();

async function timed(page, key, action, done = ['ready']) {
  await page.evaluate((k) => { document.body.dataset[k] = 'asked'; window.benchLongest = 0; }, key);
  const started = await page.evaluate(() => performance.now());
  await action();
  await page.waitForFunction(([k, d]) => d.includes(document.body.dataset[k]), [key, done], { timeout: 10 * 60 * 1000 });
  return Math.round((await page.evaluate(() => performance.now())) - started);
}

try {
  const page = await support.startedPage(browser, { url: server.url });
  await support.watchMainThread(page);
  await page.setInputFiles('#picker', file);
  await support.waitForResult(page, 20 * 60 * 1000);
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 10 * 60 * 1000 });
  const result = {};
  result.thread_tree_ms = await timed(page, 'tree', () => page.click('#tab-button-tree'));
  result.thread_tree_longest_task_ms = await page.evaluate(() => window.benchLongest);
  await page.check('#tree-bottom-up');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready');
  result.all_bottom_up_ms = await timed(page, 'tree', () => page.locator('#thread-rows tr[data-thread="-1"]').click());
  result.all_bottom_up_longest_task_ms = await page.evaluate(() => window.benchLongest);
  await page.check('#tree-top-down');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready');
  // Merge the second row's frame, from its menu.
  const row = page.locator('#tree-grid tbody tr[data-node]').nth(1);
  await row.click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  result.transform_tree_ms = await timed(page, 'tree', () => page.keyboard.press('Enter'));
  result.transform_graph_ms = await timed(page, 'graph', () => page.click('#tab-button-flame'));
  result.transform_methods_ms = await timed(page, 'methods', () => page.click('#tab-button-methods'));
  result.transform_longest_task_ms = await page.evaluate(() => window.benchLongest);
  result.transform_timeline_ms = await timed(page, 'timeline', () => page.click('#tab-button-timeline'), ['drawn', 'empty']);
  result.timeline = await page.evaluate(() => document.body.dataset.timeline);
  result.transform_timeline_longest_task_ms = await page.evaluate(() => window.benchLongest);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  await server.close();
}
