// Perfetto system traces in the hosted build, opened as a person would: an app's atrace
// markers recorded by Perfetto, a capture with one SDK track event among its scheduling,
// and a trace with nothing to draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, drop, shot, shownSvg, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();

test('a Perfetto trace of an app (atrace markers in print events) dropped on the page', async (t) => {
  const page = await checkedPage(context, t);
  assert.equal(await drop(page, [corpus('perfetto/nowinandroid-fork-trace.perfetto-trace')]), 'done');
  assert.match(await page.locator('#facts').textContent(), /System trace \(Perfetto\)/);
  // Four threads with slices and one async track, then All threads.
  assert.equal(await page.locator('#thread-rows tr[data-thread]').count(), 5 + 1);
  await page.click('#thread-rows tr[data-thread]:has-text("All threads")');
  await page.waitForFunction(() => /Compose:recompose/.test(document.getElementById('flame').srcdoc));
  assert.match(await shownSvg(page), /AndroidOwner:measureAndLayout/);
  await shot(page, 'perfetto-app');
  // The methods table counts slices as the trace's SOURCES.md counts them.
  await page.click('#tab-button-methods');
  await page.fill('#method-filter', 'AndroidOwner:measureAndLayout');
  await page.waitForFunction(() => /AndroidOwner:measureAndLayout.*684/.test(document.getElementById('method-rows').textContent));
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  await shot(page, 'perfetto-app-timeline');
});

test('a scheduling capture with one SDK track event: the event on its thread, the scheduling in its tab', async (t) => {
  const page = await checkedPage(context, t, { colorScheme: 'dark' });
  assert.equal(await pick(page, corpus('perfetto/mstools-test_trace.perfetto-trace')), 'done');
  await page.fill('#thread-filter', 'TraceLogApiTest');
  const row = page.locator('#thread-rows tr[data-thread]:has-text("20855")');
  assert.equal(await row.count(), 1);
  await row.click();
  // An instant has no width in a flame graph; the methods table counts it.
  await page.waitForFunction(() => /TraceLogApiTest \[20855\] has no wall time to draw/.test(document.body.textContent));
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => /Hello Trace/.test(document.getElementById('method-rows').textContent));
  // The capture ran 15.8 s (its scheduling), not the 7 ms between its track events.
  assert.match(await page.locator('#facts').textContent(), /elapsed 15\.\d+ s/);
  await page.fill('#thread-filter', '');
  await page.click('#tab-button-scheduling');
  // The rows come from the worker: the tab says when they are shown.
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown');
  assert.ok(await page.locator('#sched-rows tr').count() > 100, 'every scheduled thread has a row');
  await shot(page, 'perfetto-scheduling-dark');
});

test('a Perfetto trace with nothing to draw says what it holds', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 700, height: 900 } });
  assert.equal(await pick(page, corpus('perfetto/toolsbase-tpd-power.trace')), 'done');
  const warnings = await page.locator('#warnings').textContent();
  assert.match(warnings, /nothing to draw; it holds battery counters \(6 packets\), power rails \(6 packets\)/);
  await shot(page, 'perfetto-nothing-to-draw');
});

test('an Android 12 capture lists each process\'s main thread under its own process, marked, and threads of no process apart', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus('perfetto/mstools-perfetto_android12_cpuschedstack.pftrace')]), 'done');
  // Every thread the scheduler saw: the calls source (the capture opens on its samples).
  await page.selectOption('#source', 'calls');
  await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('thread-cpu-heading').textContent === 'CPU');
  // Each row's process header: the nearest header above it.
  const groups = await page.locator('#thread-rows tr').evaluateAll((rows) => {
    const out = {};
    let header = null;
    for (const tr of rows) {
      if (tr.classList.contains('process')) header = tr.textContent;
      else if (tr.dataset.thread !== '-1') {
        const name = tr.querySelector('td.name').getAttribute('title');
        out[name] = { header, main: tr.querySelector('td.name').classList.contains('main-thread') && name.includes('(its main thread)') };
      }
    }
    return out;
  });
  const find = (prefix) => Object.entries(groups).find(([title]) => title.startsWith(prefix))[1];
  assert.deepEqual(find('system_server [582]'), { header: 'system_server (pid 582)', main: true });
  assert.deepEqual(find('surfaceflinger [420]'), { header: '/system/bin/surfaceflinger (pid 420)', main: true });
  assert.deepEqual(find('surfaceflinger [517]'), { header: '/system/bin/surfaceflinger (pid 420)', main: false });
  assert.deepEqual(find('.android.chrome [4692]'), { header: 'com.android.chrome (pid 4692)', main: true });
  // A thread of no process named in the trace sits under a header of its own.
  const orphans = Object.values(groups).filter((g) => g.header === 'No process named in the trace');
  assert.ok(orphans.length >= 1, 'threads of no process have their own header');
  await shot(page, 'perfetto-processes');
});
