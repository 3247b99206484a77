// The timeline's arithmetic, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  contrast, labelContrast,
  axisTicks, clampView, covers, detailWindow, panView, rangeText, timeText, viewAround, wantsDetail, zoomView,
} from '../src/shared/timespan.js';
import { createDetailReader } from '../src/timeline/timeline-detail.js';

test('zoom keeps the time under the pointer in place and stays inside the trace', () => {
  const view = { from: 0, to: 1000 };
  const zoomed = zoomView(view, 0.5, 0.25, 1000);
  assert.deepEqual(zoomed, { from: 125, to: 625 });
  // The time at a quarter of the width is 250 before and after.
  assert.equal(zoomed.from + (zoomed.to - zoomed.from) * 0.25, 250);
  assert.deepEqual(zoomView(view, 4, 0.5, 1000), { from: 0, to: 1000 }, 'never wider than the trace');
  assert.equal(zoomView({ from: 10, to: 11 }, 0.001, 0.5, 1000).to - zoomView({ from: 10, to: 11 }, 0.001, 0.5, 1000).from, 1,
    'never narrower than a microsecond');
});

test('pan moves by a share of the width and stops at the ends', () => {
  assert.deepEqual(panView({ from: 100, to: 200 }, 0.5, 1000), { from: 150, to: 250 });
  assert.deepEqual(panView({ from: 100, to: 200 }, -5, 1000), { from: 0, to: 100 });
  assert.deepEqual(panView({ from: 800, to: 900 }, 5, 1000), { from: 900, to: 1000 });
  assert.deepEqual(clampView({ from: -50, to: 20 }, 1000), { from: 0, to: 70 });
});

test('a call is shown with a margin on each side', () => {
  const view = viewAround(400, 500, 1000);
  assert.ok(view.from < 400 && view.to > 500 && view.to - view.from < 200);
  assert.deepEqual(viewAround(0, 1000, 1000), { from: 0, to: 1000 });
});

test('axis ticks fall on 1-2-5 steps inside the window', () => {
  const { step, ticks } = axisTicks({ from: 130, to: 1130 }, 10);
  assert.equal(step, 100);
  assert.deepEqual(ticks.slice(0, 3), [200, 300, 400]);
  assert.ok(ticks.every((t) => t >= 130 && t <= 1130));
  assert.equal(axisTicks({ from: 0, to: 17.8e6 }, 8).step, 5e6);
  assert.deepEqual(axisTicks({ from: 5, to: 5 }, 8).ticks, []);
});

test('times read in the unit that suits them', () => {
  assert.equal(timeText(0), '0 s');
  assert.equal(timeText(1_500_000), '1.50 s');
  assert.equal(timeText(2_500), '2.50 ms');
  assert.equal(timeText(3), '3.00 µs');
  assert.equal(timeText(5_000_000, 5e6), '5 s');
  assert.equal(timeText(5_300_000, 1e5), '5.3 s');
  assert.equal(rangeText({ from: 1_200_000, to: 1_850_000 }), '1.20–1.85 s');
  assert.equal(rangeText({ from: 1_500, to: 1_650 }), '1.50–1.65 ms');
  assert.equal(rangeText({ from: 5_310_000, to: 7_110_000 }), '5.31–7.11 s', 'never fewer than two decimals');
  assert.equal(rangeText({ from: 1_234_500, to: 1_236_500 }), '1.2345–1.2365 s', 'enough to tell a short range apart');
});

test('short calls are wanted once one could be a pixel wide, for a window wider than the view', () => {
  // 1000 px over 10 ms: a pixel is 10 µs.
  const view = { from: 20_000, to: 30_000 };
  assert.equal(wantsDetail(view, 1000, 10), false, 'calls under 10 µs are under a pixel');
  assert.equal(wantsDetail(view, 1000, 11), true);
  assert.equal(wantsDetail(view, 1000, 0), false, 'nothing was left out');
  assert.deepEqual(detailWindow(view, 100_000), { from: 15_000, to: 35_000 });
  assert.deepEqual(detailWindow({ from: 0, to: 10 }, 12), { from: 0, to: 12 }, 'inside the trace');
  assert.equal(covers(detailWindow(view, 100_000), view), true);
  assert.equal(covers(view, { from: 19_999, to: 25_000 }), false);
});

test('a window of one thread is read again once, when zoomed in far enough, and then held', async () => {
  const asked = [];
  let finish = null;
  const products = { detail: (thread, from, to, progress) => {
    asked.push([thread, from, to]);
    progress(4 << 20);
    return new Promise((resolve, reject) => { finish = { resolve, reject }; });
  } };
  let refreshed = 0;
  const said = [];
  const reader = createDetailReader(products, () => refreshed++, (status) => said.push(status.text));
  const facts = { left_out: 'why', shortest_us: 100, reread: true, length_us: 1e6 };
  // 1000 px: a pixel is 1 ms at the whole trace, 10 µs for a 10 ms view.
  assert.equal(reader.status({ from: 0, to: 1e6 }, 0, 1000, facts).kind, 'left-out');
  assert.equal(reader.status({ from: 5e5, to: 5.1e5 }, -1, 1000, facts).kind, 'left-out', 'all threads');
  assert.equal(reader.status({ from: 5e5, to: 5.1e5 }, 0, 1000, facts).kind, 'reading');
  assert.deepEqual(asked, [[0, 495_000, 515_000]], 'the view and half its width each side');
  assert.deepEqual(said, ['Reading this part again for calls under 100 µs…', 'Reading this part again for calls under 100 µs: 4.0 MiB…']);
  // A view inside the window being read asks nothing more.
  assert.equal(reader.status({ from: 5.01e5, to: 5.05e5 }, 0, 1000, facts).kind, 'reading');
  assert.equal(asked.length, 1);
  finish.resolve({ cancelled: false });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(refreshed, 1);
  assert.equal(reader.status({ from: 5.01e5, to: 5.05e5 }, 0, 1000, facts).text, 'Every call shown');
  // Another thread, or past the window: read again; a failure is said and not retried.
  assert.equal(reader.status({ from: 5e5, to: 5.1e5 }, 1, 1000, facts).kind, 'reading');
  finish.reject(new Error('gone'));
  await new Promise((resolve) => setTimeout(resolve, 0));
  const failed = reader.status({ from: 5e5, to: 5.1e5 }, 1, 1000, facts);
  assert.deepEqual(failed, { text: 'Calls under 100 µs could not be read again: gone', kind: 'failed' });
  assert.equal(asked.length, 2);
  assert.equal(reader.status({ from: 0, to: 1e6 }, 0, 1000, { left_out: null }).kind, 'all');
});

test('a timeline label reads on its box at 4.5:1 or more, light and dark', () => {
  let worst = Infinity;
  for (let i = 0; i < 5000; i++) {
    const name = 'com.example.C' + i + '.m' + (i * 7919 % 1000);
    for (const dark of [false, true]) worst = Math.min(worst, labelContrast(name, dark));
  }
  assert.ok(worst >= 4.5, 'the worst label contrast is ' + worst.toFixed(2));
  assert.equal(contrast(0, 1), 21);
});
