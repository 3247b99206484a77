// The hosted build, served from a sub-path of a local static server: what a person sees
// after dropping or picking each kind of trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { corpus, pick, drop, shot, shownSvg, tempFile, waitForResult, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();

function newPage(t) {
  return checkedPage(context, t);
}

test('a regular trace picked from disk shows every active thread, a graph, methods and warnings', async (t) => {
  const page = await newPage(t);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
  assert.equal(await pick(page, corpus('ffprof-art-regular.trace')), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 41, '40 threads and "All threads"');
  const first = page.locator('#thread-rows tr[aria-selected=true] .label');
  assert.equal(await first.textContent(), 'main');
  const svg = await shownSvg(page);
  assert.match(svg, /<svg /);
  assert.match(svg, /main \[21491\] — wall clock/);
  // The graph's own script ran in its sandboxed frame (fluid drawing removes the width).
  const frame = page.frameLocator('#flame');
  await frame.locator('svg').first().waitFor();
  assert.equal(await frame.locator('svg').first().getAttribute('width'), null);
  const warnings = await page.locator('#warnings').textContent();
  assert.match(warnings, /259 frames were still running at the end/);
  assert.match(warnings, /sampling trace/);
  assert.match(await page.locator('#facts').textContent(), /pid 21491/);
  await shot(page, 'hosted-regular');

  await page.click('#tab-button-methods');
  // The table fills from the worker's answer, after the tab shows.
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr').length >= 500);
  await page.fill('#method-filter', 'Object.wait');
  await page.waitForFunction(() => /Object\.wait/.test(document.querySelector('#method-rows tr')?.textContent ?? ''));
  await page.locator('#method-rows tr').first().click();
  assert.match(await page.locator('#method-detail-name').textContent(), /java\.lang\.Object\.wait/);
  assert.ok(await page.locator('#callers tr').count() > 0, 'callers are listed');
  await shot(page, 'hosted-methods');
  await page.click('#tab-button-trace');
  assert.match(await page.locator('#trace-rows').textContent(), /repairs\.open_at_end259/);
});

test('a streaming trace dropped on the page', async (t) => {
  const page = await newPage(t);
  assert.equal(await drop(page, [corpus('ffprof-art-streaming.trace')]), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 53);
  assert.match(await page.locator('#facts').textContent(), /streaming v3/);
  await shot(page, 'hosted-streaming-drop');
});

test('a gzip copy gives the same threads as the plain file', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('ffprof-art-regular.trace.gz')), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 41);
  assert.match(await page.locator('#facts').textContent(), /gzip/);
});

test('a version 1 thread-cpu trace offers only the CPU clock', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('perflib-basic-api10.trace')), 'done');
  assert.equal(await page.isDisabled('#clock-wall'), true);
  assert.equal(await page.isChecked('#clock-cpu'), true);
  assert.match(await shownSvg(page), /cpu clock/);
});

test('the clock switch changes the graph', async (t) => {
  const page = await newPage(t);
  await pick(page, corpus('ffprof-art-regular.trace'));
  await page.waitForFunction(() => /wall clock/.test(document.getElementById('flame').srcdoc));
  const wall = await shownSvg(page);
  await page.check('#clock-cpu');
  // Wait for the CPU graph itself: "changed" alone also matches a wall graph drawn late.
  await page.waitForFunction(() => /cpu clock/.test(document.getElementById('flame').srcdoc));
  const cpu = await shownSvg(page);
  assert.match(cpu, /cpu clock/);
  assert.notEqual(cpu, wall);
  assert.match(await page.locator('#graph-title').textContent(), /thread CPU time/);
});

test('threads can be chosen with the keyboard, and the all-threads graph has thread roots', async (t) => {
  const page = await newPage(t);
  await pick(page, corpus('ffprof-art-regular.trace'));
  // Threads are listed busiest first by CPU time (Gecko 3.39 s, main 1.58 s,
  // pool-12-thread-1 0.26 s), not by wall time, which idle threads have the most of.
  const names = await page.locator('#thread-rows tr[data-thread] td.name').allTextContents();
  assert.deepEqual(names.slice(1, 4).map((n) => n.replace(/\s+/g, '')), ['Gecko', 'main', 'pool-12-thread-1']);
  // main is shown first (the app's main thread); the keyboard moves on from it.
  await page.locator('#thread-rows tr').nth(2).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /pool-12-thread-1/.test(document.getElementById('graph-title').textContent));
  await page.locator('#thread-rows tr').first().click();
  await page.waitForFunction(() => /All threads/.test(document.getElementById('graph-title').textContent));
  assert.match(await shownSvg(page), /main \[21491\]/);
  await page.fill('#thread-filter', 'Binder');
  assert.equal(await page.locator('#thread-rows tr').count(), 2, '"All threads" and one Binder thread');
});

test('a file that is not a trace shows a clear error, and the next file replaces it', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('SOURCES.md')), 'error');
  assert.match(await page.locator('#error-text').textContent(), /not an Android trace at byte 0/);
  await shot(page, 'hosted-error');
  assert.equal(await pick(page, corpus('perflib-exception.trace')), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 2);
  assert.equal(await page.isVisible('#error'), false);
});

test('truncated traces: partial results with a warning, or the truncation error', async (t) => {
  const page = await newPage(t);
  const bytes = fs.readFileSync(corpus('ffprof-art-regular.trace'));
  assert.equal(await pick(page, tempFile('cut.trace', bytes.subarray(0, 300001))), 'done');
  assert.match(await page.locator('#warnings').textContent(), /cut short/);
  assert.equal(await pick(page, tempFile('cut-early.trace', bytes.subarray(0, 2000))), 'error');
  assert.match(await page.locator('#error-text').textContent(), /^truncated at byte 2000/);
});

test('a split trace opens as its .key and .data files together', async (t) => {
  const page = await newPage(t);
  const bytes = fs.readFileSync(corpus('perflib-exception.trace'));
  const end = bytes.indexOf('*end\n') + 5;
  const key = tempFile('app.key', bytes.subarray(0, end));
  const data = tempFile('app.data', bytes.subarray(end));
  assert.equal(await pick(page, [data, key]), 'done');
  assert.match(await page.locator('#trace-rows').textContent(), /format\.splittrue/);
});

test('downloads: the current SVG, folded stacks and the summary', async (t) => {
  const page = await newPage(t);
  await pick(page, corpus('perflib-exception.trace'));
  for (const [button, suffix, start] of [
    ['#save-svg', '.svg', '<?xml'],
    ['#save-folded', '.folded', 'AsyncTask #1 [11];'],
    ['#save-summary', '-summary.json', '{'],
  ]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    assert.ok(download.suggestedFilename().startsWith('perflib-exception'), download.suggestedFilename());
    assert.ok(download.suggestedFilename().endsWith(suffix), download.suggestedFilename());
    const text = fs.readFileSync(await download.path(), 'utf8');
    assert.ok(text.startsWith(start), button + ': ' + text.slice(0, 40));
  }
});

test('drop to first graph for the largest corpus trace', async (t) => {
  const page = await newPage(t);
  const started = Date.now();
  assert.equal(await drop(page, [corpus('tracereader-test1.trace')]), 'done');
  const wall = Date.now() - started;
  const inPage = await page.evaluate(() => Number(document.body.dataset.firstGraphMs));
  t.diagnostic(`tracereader-test1.trace (3.8 MB, 247,266 records): ${inPage} ms from open to first graph in the page, ${wall} ms including the test's drop`);
  assert.equal(await page.locator('#thread-rows tr').count(), 8);
  await shot(page, 'hosted-largest');
});

test('the page waits idle and reports loading while it reads', async (t) => {
  const page = await newPage(t);
  const states = [];
  await page.exposeFunction('recordState', (s) => states.push(s));
  await page.evaluate(() => new MutationObserver(() => window.recordState(document.body.dataset.state))
    .observe(document.body, { attributes: true, attributeFilter: ['data-state'] }));
  await page.setInputFiles('#picker', corpus('toolsbase-char_2_bytes.trace'));
  await waitForResult(page);
  assert.deepEqual(states.filter((s, i) => s !== states[i - 1]), ['loading', 'done']);
});
