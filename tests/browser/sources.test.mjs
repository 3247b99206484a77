// Traces with more than one kind of stack data, opened as a person would: a capture whose
// CPU samples are its only stacks besides scheduling, and a heap profile; the source switch
// moves every view between them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, shot, shownSvg, useBrowser, checkedPage, timelineSettled } from './support.mjs';

const context = useBrowser();

test('a capture of CPU samples opens on them, and the switch shows its scheduling', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus('perfetto/mstools-perfetto_android12_cpuschedstack.pftrace')]), 'done');
  // The switch offers both, in the core's words; the samples come first (no slices).
  assert.equal(await page.locator('#source-bar').isVisible(), true);
  const options = await page.locator('#source option').allTextContents();
  assert.deepEqual(options.map((o) => o.split(' of ')[0]), ['CPU callstack samples', 'Slices']);
  assert.equal(await page.locator('#source').inputValue(), 'cpu-samples');
  // Counted samples: the thread list says so, and the busiest thread has 871 (SOURCES.md).
  assert.equal(await page.locator('#thread-cpu-heading').textContent(), 'Samples');
  await page.fill('#thread-filter', 'bluetooth');
  const row = page.locator('#thread-rows tr[data-thread]:has-text("1451")');
  assert.match(await row.textContent(), /871/);
  await row.click();
  await page.waitForFunction(() => /__traceiter_sched_switch/.test(document.getElementById('flame').srcdoc));
  assert.match(await shownSvg(page), /871 samples in all/);
  await shot(page, 'sources-cpu-samples');
  // The timeline shows the runs of samples.
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  await shot(page, 'sources-cpu-samples-timeline');
  // The call tree counts samples.
  await page.click('#tab-button-tree');
  await page.waitForFunction(() => /in samples/.test(document.getElementById('tree-title').textContent));
  // Its scheduling: each thread's states as its frames, in time.
  await page.fill('#thread-filter', '');
  await page.selectOption('#source', 'calls');
  await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('thread-cpu-heading').textContent === 'CPU');
  await page.click('#tab-button-flame');
  await page.fill('#thread-filter', 'bluetooth');
  await page.click('#thread-rows tr[data-thread]:has-text("1451")');
  await page.waitForFunction(() => /bluetooth@1.1-s \[1451\] — wall clock/.test(document.getElementById('flame').srcdoc) &&
    /Sleeping/.test(document.getElementById('flame').srcdoc));
  await shot(page, 'sources-calls');
});

test('a heap profile opens on the bytes not freed, in bytes, and switches to all allocated', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  assert.equal(await pick(page, [corpus('perfetto/toolsbase-tpd-empty_sched_table.trace')]), 'done');
  assert.equal(await page.locator('#source').inputValue(), 'heap-unreleased');
  // One dump: no dump to choose.
  assert.equal(await page.locator('#dump-box').isVisible(), false);
  assert.equal(await page.locator('#thread-wall-heading').textContent(), 'Bytes');
  // 425,840 bytes not freed (428,480 allocated less 2,640 freed: SOURCES.md).
  assert.match(await page.locator('#thread-rows').textContent(), /416 KiB/);
  await page.waitForFunction(() => /425,840 bytes in all/.test(document.getElementById('flame').srcdoc));
  assert.match(await shownSvg(page), /TrivialKotlinBenchmark/);
  await shot(page, 'sources-heap-unreleased-dark-narrow');
  await page.selectOption('#source', 'heap-allocated');
  await page.waitForFunction(() => /428,480 bytes in all/.test(document.getElementById('flame').srcdoc));
  // The methods table counts allocations beside bytes.
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => /Allocations/.test(document.getElementById('tab-methods').textContent));
  await shot(page, 'sources-heap-allocated-methods');
});

test('a heap profile has no clock to switch and no timeline', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 800 } });
  assert.equal(await pick(page, [corpus('perfetto/toolsbase-tpd-empty_sched_table.trace')]), 'done');
  assert.equal(await page.locator('#tab-flame fieldset.clock').isVisible(), false);
  await page.waitForFunction(() => /Process 13927 \[13927\] — bytes not freed/.test(document.getElementById('flame').srcdoc));
  // Dumps are no calls in time: no timeline to offer.
  assert.equal(await page.locator('#tab-button-timeline').isVisible(), false);
  await page.click('#tab-button-tree');
  await page.waitForFunction(() => /in bytes/.test(document.getElementById('tree-title').textContent));
  await shot(page, 'sources-heap-tree');
});

test('a link keeps the source: the same file opens on the scheduling the link was made on', async (t) => {
  const page = await checkedPage(context, t, { query: '#tab=tree&source=calls&thread=all&clock=wall' });
  assert.equal(await pick(page, [corpus('perfetto/mstools-perfetto_android12_cpuschedstack.pftrace')]), 'done');
  await page.waitForFunction(() => document.getElementById('source').value === 'calls' &&
    document.getElementById('thread-cpu-heading').textContent === 'CPU' && document.body.dataset.state === 'done');
  assert.equal(await page.locator('#tab-button-tree').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#link-note').isVisible(), false, 'nothing of the link was left out');
  await page.waitForFunction(() => /All threads — wall time, top-down/.test(document.getElementById('tree-title').textContent));
  // And the address follows the source chosen.
  await page.selectOption('#source', 'cpu-samples');
  await page.waitForFunction(() => new URL(location.href).hash.includes('source=cpu-samples'), null, { timeout: 5000 });
});

test('two heap profiles compared: what grew, in bytes', async (t) => {
  const { heapTrace } = await import('./heap-trace.mjs');
  const { tempFile } = await import('./support.mjs');
  const before = tempFile('before.heapprofd', heapTrace({ rows: [
    { stack: ['main', 'loadImages', 'malloc'], allocated: 40_000, freed: 0 },
    { stack: ['main', 'parseJson', 'malloc'], allocated: 8_000, freed: 2_000 },
  ] }));
  const after = tempFile('after.heapprofd', heapTrace({ rows: [
    { stack: ['main', 'loadImages', 'malloc'], allocated: 400_000, freed: 0 },
    { stack: ['main', 'parseJson', 'malloc'], allocated: 8_000, freed: 2_000 },
  ] }));
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [before]), 'done');
  assert.equal(await page.locator('#source').inputValue(), 'heap-unreleased');
  await page.setInputFiles('#compare-picker', after);
  await page.waitForFunction(() => /loadImages/.test(document.getElementById('compare-flame').srcdoc), null, { timeout: 30000 });
  const svg = await page.evaluate(() => document.getElementById('compare-flame').srcdoc);
  assert.match(svg, /Widths: after, [\d,]+ bytes\./);
  assert.match(svg.match(/id="title"[^>]*>([^<]*)/)[1], /bytes not freed, before → after/);
  // The methods compared in bytes: loadImages grew by 360,000 bytes.
  await page.fill('#compare-filter', 'loadImages');
  await page.waitForFunction(() => /\+352 KiB/.test(document.getElementById('tab-compare').textContent));
  await shot(page, 'sources-heap-compare');
  // Both sides follow the source switch.
  await page.selectOption('#source', 'heap-allocated');
  await page.waitForFunction(() => document.body.dataset.state === 'done' && /408,000 bytes/.test(document.getElementById('compare-flame').srcdoc), null, { timeout: 30000 });
});

test('a heap profile of several dumps steps through them', async (t) => {
  const { heapTrace } = await import('./heap-trace.mjs');
  const { tempFile } = await import('./support.mjs');
  const grow = (bytes) => [{ stack: ['main', 'cache', 'malloc'], allocated: bytes, freed: 0 }, { stack: ['main', 'malloc'], allocated: 1000, freed: 0 }];
  const file = tempFile('three.heapprofd', heapTrace({ dumps: [grow(10_000), grow(20_000), grow(30_000)] }));
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 800 } });
  assert.equal(await pick(page, [file]), 'done');
  // The last dump first; the choice says when each was taken.
  assert.equal(await page.locator('#dump-box').isVisible(), true);
  assert.deepEqual(await page.locator('#dump option').allTextContents(), ['Dump 1 of 3, at the start', 'Dump 2 of 3, at 1.00 s', 'Dump 3 of 3, at 2.00 s']);
  await page.waitForFunction(() => /31,000 bytes in all/.test(document.getElementById('flame').srcdoc));
  await page.selectOption('#dump', '0');
  await page.waitForFunction(() => /11,000 bytes in all/.test(document.getElementById('flame').srcdoc));
  assert.equal(await page.locator('#dump').inputValue(), '0');
  assert.match(await page.locator("#thread-rows").textContent(), /11 KiB/);
  await shot(page, 'sources-heap-dumps');
  // The link keeps the dump.
  await page.waitForFunction(() => new URL(location.href).hash.includes('dump=1'), null, { timeout: 5000 });
});
