// A method trace read in pieces by several workers: the page shows what it shows of the
// same file read once by one worker. The single file from file:// reads it once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, checkedPage, pick, shownSvg, tempFile, useBrowser, writeTrace } from './support.mjs';

const context = useBrowser();

// 1.3M records (18 MB, past the 16 MiB below which nothing is read in pieces): four
// threads calling into ten methods, three and four deep, some calls returning across the
// places where the pieces meet.
function bigTrace() {
  const threads = [[1, 'main'], [2, 'RenderThread'], [3, 'worker-1'], [4, 'worker-2']];
  const methods = Array.from({ length: 10 }, (_, i) => [0x1000 + i * 4, 'com.example.Work' + (i % 3), 'step' + i, '()V', 'Work.java']);
  const records = [];
  const stacks = new Map(threads.map(([tid]) => [tid, []]));
  let time = 1000;
  let seed = 7;
  // The high bits of a linear congruential generator: its low bits repeat quickly.
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) >> 12;
  for (let i = 0; i < 1300000; i++) {
    const tid = threads[next() % 4][0];
    const stack = stacks.get(tid);
    time += 1 + (next() % 3);
    if (stack.length < 4 && (stack.length === 0 || next() % 2 === 0)) {
      const method = methods[(stack.length * 3 + next() % 4) % methods.length][0];
      stack.push(method);
      records.push([tid, method, 0, time]);
    } else {
      records.push([tid, stack.pop(), 1, time]);
    }
  }
  return tempFile('big-regular.trace', writeTrace({ threads, methods, records }));
}

const file = bigTrace();

// What the page shows of the file: threads, the graph, the methods table and the facts.
async function shown(page) {
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => /step9/.test(document.getElementById('method-rows').textContent));
  const methods = await page.locator('#method-rows').textContent();
  await page.click('#tab-button-trace');
  const facts = await page.locator('#trace-rows').textContent();
  return { threads: await page.locator('#thread-rows').textContent(), graph: await shownSvg(page), methods, facts };
}

async function opened(page) {
  assert.equal(await pick(page, file), 'done');
  return { pieces: await page.evaluate(() => document.body.dataset.pieces), shown: await shown(page) };
}

test('two workers read a large method trace in pieces and the page shows what one worker reading it once shows', async (t) => {
  const once = await opened(await checkedPage(context, t, { query: '?workers=1' }));
  assert.equal(once.pieces, '1');
  const pieces = await opened(await checkedPage(context, t, { query: '?workers=2&piecesFrom=0' }));
  assert.equal(pieces.pieces, '2', 'read in two pieces');
  assert.deepEqual(pieces.shown, once.shown);
  assert.match(once.shown.threads, /worker-2/);
  // By default the page reads a file this size once: pieces pay only from hundreds of MB.
  assert.equal((await opened(await checkedPage(context, t, { query: '?workers=2' }))).pieces, '1');
});

test('from file://, where a worker may not start others, the single file reads a large trace once', async (t) => {
  const single = pathToFileURL(path.join(dist, 'droidflame.html')).href;
  const read = async (query) => {
    const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
    t.after(() => page.close());
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(single + query);
    const result = await opened(page);
    assert.deepEqual(errors, []);
    return result;
  };
  const once = await read('?workers=1');
  const asked = await read('?workers=3&piecesFrom=0');
  assert.equal(asked.pieces, '1', 'read once');
  assert.deepEqual(asked.shown, once.shown);
});
