// Where the time to the first graph goes: picks FILE in the hosted build under a Chromium
// trace, once the page's engine has started, and prints every task over 3 ms of the page,
// its frames and its worker from the pick to the graph drawn, with what ran inside it:
// `node crates/droidflame-bench/browser-tasks.mjs FILE`. Tracing slows the page a little;
// `browser.mjs` gives the times without it.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const support = await import(pathToFileURL(path.join(root, 'tests/browser/support.mjs')).href);
const file = process.argv[2];
const browser = await support.launch();
const server = await support.serve();
try {
  const page = await support.startedPage(browser, server);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.setInputFiles('#picker', file);
  await page.waitForFunction(() => document.body.dataset.graph === 'ready' && document.body.dataset.firstGraphMs, null,
    { timeout: 10 * 60 * 1000 });
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const threads = {};
  for (const e of events) if (e.name === 'thread_name') threads[e.pid + ':' + e.tid] = e.args.name;
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur > 3000).sort((a, b) => a.ts - b.ts);
  const start = tasks.length ? tasks[0].ts : 0;
  for (const task of tasks) {
    const inside = events
      .filter((e) => e.ph === 'X' && e !== task && e.pid === task.pid && e.tid === task.tid && e.dur > 2000 &&
        e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur)
      .slice(0, 6)
      .map((e) => e.name + ' ' + (e.dur / 1000).toFixed(1));
    const thread = threads[task.pid + ':' + task.tid] || task.pid + ':' + task.tid;
    console.log(((task.ts - start) / 1000).toFixed(1).padStart(8), (task.dur / 1000).toFixed(1).padStart(7), thread.padEnd(24),
      inside.join(' | '));
  }
  const page_ = await page.evaluate(() => ({
    first_graph_ms: Number(document.body.dataset.firstGraphMs),
    graph_drawn_ms: Math.round(Number(document.body.dataset.graphReadyAt) - Number(document.body.dataset.openedAt)),
  }));
  console.log(JSON.stringify(page_));
} finally {
  await browser.close();
  await server.close();
}
