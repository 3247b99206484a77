// System traces in the hosted build: an Android Studio .ctrace dropped on the page and a
// systrace HTML report picked from disk, as a person would open them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, drop, hoverAt, shot, shownSvg, useBrowser, checkedPage, timelineSettled } from './support.mjs';

const context = useBrowser();

function newPage(t) {
  return checkedPage(context, t);
}

test('an Android Studio .ctrace (10 zlib chunks) dropped on the page', async (t) => {
  const page = await newPage(t);
  assert.equal(await drop(page, [corpus('toolsbase-atrace.ctrace')]), 'done');
  t.diagnostic('toolsbase-atrace.ctrace: drop to first flame graph ' + await page.evaluate(() => document.body.dataset.firstGraphMs) + ' ms');
  assert.match(await page.locator('#facts').textContent(), /System trace \(atrace\), ctrace/);
  // Threads are grouped under their processes; slices have a CPU clock from sched_switch.
  assert.ok(await page.locator('#thread-rows tr.process').count() >= 10);
  // 168 threads with slices, 255 known only from the scheduler, 14 async tracks and 6 rows
  // more where their spans overlap, All threads.
  assert.equal(await page.locator('#thread-rows tr[data-thread]').count(), 168 + 255 + 14 + 6 + 1);
  assert.equal(await page.locator('#thread-rows tr[data-thread]', { hasText: '(row ' }).count(), 6);
  assert.equal(await page.locator('#clock-cpu').isDisabled(), false);
  assert.ok(await page.locator('#thread-rows .badge').count() >= 1, 'async tracks are marked');
  const svg = await shownSvg(page);
  assert.match(svg, /<svg /);
  assert.match(await page.locator('#warnings').textContent(), /slice ends had no open slice/);
  // A slice is named a slice where the pointer rests on it (inferno's script, allowed by
  // the page's policy through its hash for slice graphs).
  const graph = page.frame({ url: /about:srcdoc/ }) || page.frames().find((f) => f !== page.mainFrame());
  await graph.hover('#frames > g:nth-of-type(2)');
  await graph.waitForFunction(() => /^Slice: /.test(document.getElementById('details').textContent));
  await shot(page, 'atrace-ctrace');
  await page.fill('#thread-filter', 'surfaceflinger');
  assert.ok(await page.locator('#thread-rows tr[data-thread]').count() >= 2, 'the filter matches process names');
  await page.click('#clock-cpu');
  await page.waitForFunction(() => /cpu clock/.test(document.getElementById('flame').srcdoc));
  assert.match(await shownSvg(page), /thread CPU|cpu clock/);
  // The ten dumps leave nine gaps, drawn across the timeline; the pointer on one says so.
  await page.fill('#thread-filter', '');
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  assert.match(await page.locator('#warnings').textContent(), /10 separate dumps: nothing was recorded in the 9 gaps/);
  const box = await page.locator('#timeline-canvas').boundingBox();
  // The first gap: 0.205 s to 0.437 s of 13.3 s.
  await page.mouse.move(box.x + box.width * (0.32 / 13.3), box.y + 60);
  await page.waitForSelector('#timeline-tip:not([hidden])');
  assert.match(await page.textContent('#timeline-tip'), /Nothing recorded.*the trace lost every event here/);
  await shot(page, 'atrace-ctrace-gaps');
});

test('a capture of kernel events alone draws thread states; counters and scheduling have tabs of their own', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('atrace/catapult-systrace-atrace_data.txt')), 'done');
  assert.match(await page.locator('#warnings').textContent(), /frames are its scheduler states/);
  assert.equal(await page.locator('#thread-rows tr[data-thread]').count(), 22 + 1);
  // The graph of the busiest thread: its states, Sleeping the widest on the wall clock.
  assert.match(await shownSvg(page), />Sleeping</);
  await page.click('#clock-cpu');
  await page.waitForFunction(() => /cpu clock/.test(document.getElementById('flame').srcdoc));
  const cpu = await shownSvg(page);
  assert.match(cpu, />Running</);
  assert.doesNotMatch(cpu, />Sleeping</, 'sleeping takes no CPU');
  assert.equal(await page.isVisible('#tab-button-counters'), false, 'no counters in this capture');
  await page.click('#tab-button-scheduling');
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown');
  const rows = page.locator('#sched-rows tr');
  assert.equal(await rows.count(), 22);
  // Binder_1 [780]: 537 µs running, 117 µs runnable, 137 ms sleeping, 18 µs in D (from
  // its switch out at 1213.327763 to its wakeup at .327781).
  const binder = page.locator('#sched-rows tr', { hasText: 'Binder_1 [780]' });
  // Its 117 µs runnable were after wakeups, none preempted; the capture marks no I/O wait.
  assert.deepEqual(await binder.locator('td.n').allTextContents(), ['537 µs', '117 µs', '0 µs', '137 ms', '18 µs', '', '0.4%']);

  await binder.click();
  await page.waitForFunction(() => document.querySelector('#thread-rows tr[aria-selected=true] td.name')?.textContent.startsWith('Binder_1'));
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  // Binder_1 lives 137 ms of the second: the pointer finds its states where it lives (its
  // calls, under the strip of the same states).
  const box = await page.locator('#timeline-canvas').boundingBox();
  const lane = await page.evaluate(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).lanes[0]);
  const names = new Set();
  for (let x = 0.01; x < 1; x += 0.02) {
    await hoverAt(page, box.x + box.width * x, box.y + lane.top + 8);
    if (await page.isVisible('#timeline-tip')) names.add((await page.textContent('#timeline-tip .tip-name')));
  }
  assert.ok(names.has('Sleeping') && names.size >= 1, [...names].join(', '));
  await shot(page, 'atrace-kernel-only');
  // The ctrace's 45 counters, each with its process.
  assert.equal(await pick(page, corpus('toolsbase-atrace.ctrace')), 'done');
  await page.click('#tab-button-counters');
  assert.equal(await page.locator('#counter-rows tr').count(), 45);
  const vsync = page.locator('#counter-rows tr', { hasText: 'VSYNC-sf' });
  assert.deepEqual(await vsync.locator('td').allTextContents(), ['surfaceflinger (pid 1371)', 'VSYNC-sf', '', '244', '0', '1', '1']);
  await shot(page, 'atrace-counters');
  // Over a range (the first fifth, dragged on the timeline) the table counts the values
  // written in it: VSYNC-sf starts 2.6 s in, after most of it.
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.move(canvas.x + 2, canvas.y + 60);
  await page.mouse.down();
  await page.mouse.move(canvas.x + canvas.width / 4, canvas.y + 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.getElementById('range-bar').hidden);
  await page.click('#tab-button-counters');
  await page.waitForFunction(() => document.body.dataset.counters === 'shown' && / in /.test(document.getElementById('counters-scope').textContent));
  const inRange = await page.locator('#counter-rows tr', { hasText: 'VSYNC-sf' }).locator('td').allTextContents();
  const written = Number(inRange[3].replace(/,/g, ''));
  assert.ok(written > 0 && written < 244, inRange.join(' | '));
  assert.ok((await page.locator('#counter-rows tr').count()) < 45, 'counters with no value yet in the range are left out');
  await page.click('#range-clear');
  await page.waitForFunction(() => document.getElementById('counters-scope').textContent === '');
  await page.waitForFunction(() => document.querySelectorAll('#counter-rows tr').length === 45);
});

test('a systrace HTML report picked from disk', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('tracecompass-android_trace.html')), 'done');
  assert.match(await page.locator('#facts').textContent(), /System trace \(atrace\), html/);
  // One thread with slices, 40 known only from the scheduler, All threads.
  assert.equal(await page.locator('#thread-rows tr[data-thread]').count(), 1 + 40 + 1);
  assert.match(await shownSvg(page), /<svg /);
  await page.click('#tab-button-methods');
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr').length > 0);
  assert.ok(await page.locator('#method-rows tr').count() >= 2, 'slices are listed like methods');
  assert.equal(await page.locator('#method-head th').first().textContent(), 'Slice');
  await shot(page, 'atrace-html');
});

test('Scheduling counts uninterruptible sleep apart, with who woke each thread and its CPUs', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('tracecompass-atrace-test.txt')), 'done');
  await page.click('#tab-button-scheduling');
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown');
  // msm-core:sampli [430] slept 1,426,588 µs in D, the capture's most (tests/atrace.rs reads
  // the text apart from the importer); every CPU it ran on has a share.
  const sampler = page.locator('#sched-rows tr', { hasText: 'msm-core:sampli [430]' });
  const cells = await sampler.locator('td.n').allTextContents();
  assert.equal(cells[4], '1.43 s', cells.join(' | '));
  assert.match(await sampler.locator('td.cpus').textContent(), /^\d \d+\.\d%( · \d \d+\.\d%)*$/);
  // Its wakeups come from sched_wakeup lines, written on the woken thread's CPU: they name
  // no waker, so none is claimed.
  assert.equal(await sampler.locator('td.waker').textContent(), '');
  await shot(page, 'atrace-scheduling-uninterruptible');
});
