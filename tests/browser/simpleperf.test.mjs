// simpleperf samples (Android Studio's Callstack Sample) in the hosted build, opened as a
// person would: a recording with off-CPU samples, read on-CPU first and then on the wall
// clock, its functions table and timeline; a device recording in a dark, narrow window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, drop, shot, shownSvg, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();

test('a Callstack Sample recording opens on on-CPU time, and the wall clock adds off-CPU time', async (t) => {
  const page = await checkedPage(context, t);
  assert.equal(await drop(page, [corpus('simpleperf/ffprof-simpleperf-cpu-clock.trace.gz')]), 'done');
  assert.match(await page.locator('#facts').textContent(), /Callstack samples \(simpleperf: cpu-clock \+ off-CPU\), gzip/);
  // The app's main thread, on the CPU clock: 558 cpu-clock samples of 250 µs.
  assert.equal(await page.isChecked('#clock-cpu'), true);
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  const title = await page.locator('#graph-title').textContent();
  assert.match(title, /com\.example\.sampleapplication \[7657\] — on-CPU time/);
  const svg = await shownSvg(page);
  assert.match(svg, /android\.app\.ActivityThread\.main/);
  assert.match(svg, /139,500 µs in all on the cpu clock/);
  await shot(page, 'simpleperf-on-cpu');
  // Search, as a person looks for their own code.
  await page.fill('#graph-search', 'MainActivity');
  await page.waitForFunction(() => /frames? ·/.test(document.getElementById('graph-matched').textContent));
  await page.fill('#graph-search', '');

  await page.check('#clock-wall');
  await page.waitForFunction(() => /wall time, on and off CPU/.test(document.getElementById('graph-title').textContent));
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  assert.match(await shownSvg(page), /in all on the wall clock/);
  await shot(page, 'simpleperf-wall');

  // Functions: Java, native and kernel in one table.
  await page.check('#clock-cpu');
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => /^Function/.test((document.querySelector('#tab-methods table.sortable thead th')?.textContent ?? '').trim()));
  await page.fill('#method-filter', 'Looper.loop');
  await page.waitForFunction(() => /android\.os\.Looper\.loop/.test(document.getElementById('method-rows').textContent));
  await page.click('#method-rows tr[data-method]:has-text("android.os.Looper.loop")');
  await page.waitForFunction(() => /framework\.jar/.test(document.getElementById('method-detail-facts').textContent));
  assert.match(await page.locator('#method-scope').textContent(), /functions, .* of on-CPU time/);
  // The other clock's columns and the callers' times say what samples measure, in the core's words.
  assert.equal(await page.locator('#method-head th.group').textContent(), 'wall time, on and off CPU');
  assert.deepEqual(await page.locator('#method-subhead th').allTextContents(), ['Inclusive', 'Exclusive']);
  assert.match(await page.locator('#method-detail .relative-time').first().textContent(), /^Inclusive µs \(on-CPU time\)$/);
  // Kernel functions carry their mark (this emulator's kernel had no symbols: addresses).
  await page.fill('#method-filter', '_[k]');
  await page.waitForFunction(() => /\[kernel\.kallsyms\]\+0x[0-9a-f]+_\[k\]/.test(document.getElementById('method-rows').textContent));
  await shot(page, 'simpleperf-functions');

  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  await shot(page, 'simpleperf-timeline');
});

test('a device recording without off-CPU samples, in a dark narrow window', async (t) => {
  const page = await checkedPage(context, t, { colorScheme: 'dark', viewport: { width: 760, height: 900 } });
  assert.equal(await pick(page, corpus('simpleperf/aosp-simpleperf-display_bitmaps.proto_data')), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  assert.match(await page.locator('#graph-title').textContent(), /on-CPU time/);
  await page.click('#thread-rows tr[data-thread]:has-text("RenderThread")');
  await page.waitForFunction(() => /RenderThread \[31881\]/.test(document.getElementById('graph-title').textContent) && document.body.dataset.graph === 'ready');
  assert.match(await shownSvg(page), /67,750 µs in all on the cpu clock/);
  // The wall clock counts only time a thread was seen running: its words say so.
  assert.match(await page.locator('#clock-wall').locator('..').getAttribute('title'), /wall time seen running/);
  await shot(page, 'simpleperf-device-dark');
});
