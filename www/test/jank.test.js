// App frames and thread states as the page shows them, without a browser: a frame's tone
// and hover, finding the frame under a time, the table's opening order and rows, the
// patch a chosen frame makes, and states in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  frameAt, frameName, framePatch, framesByLayer, frameTipLines, frameTone, jankRank, linkedFrames, shortLayer, shownLayers,
} from '../src/frames/frame-marks.js';
import { frameColumns, frameRows, jankTypesLine } from '../src/frames/frames.js';
import { tableOrder } from '../src/shared/sort-table.js';
import { stateColour, stateTimesLine, stateTipLines, waitingUs } from '../src/shared/thread-states.js';

const LAYER = 'TX - com.example/com.example.MainActivity#7';
const frame = (over) => Object.assign({
  layer: 0, token: 1, start_us: 0, end_us: 10_000, expected_start_us: 0, expected_end_us: 16_600,
  overrun_us: -6_600, jank: 'None', janky: false, present: 'On-time Present',
}, over);
const data = {
  layers: [{ pid: 7, layer: LAYER, frames: 3, janky: 2, unfinished: 1, jank_types: [['App Deadline Missed', 1], ['Buffer Stuffing', 1]] },
    { pid: 9, layer: 'StatusBar#1', frames: 1, janky: 0, unfinished: 0, jank_types: [] }],
  frames: [
    frame({ token: 1 }),
    frame({ token: 2, start_us: 20_000, end_us: 60_000, expected_start_us: 20_000, expected_end_us: 36_600, overrun_us: 23_400, jank: 'App Deadline Missed', janky: true, by_app: true }),
    frame({ token: 3, layer: 1, start_us: 25_000, end_us: 30_000 }),
    frame({ token: 4, start_us: 70_000, end_us: 90_000, overrun_us: 5_000, jank: 'Buffer Stuffing', janky: true }),
    frame({ token: 5, start_us: 95_000, end_us: null, expected_end_us: null, overrun_us: null }),
  ],
};
const summary = { threads: [{ tid: 8, pid: 7 }, { tid: 7, pid: 7 }, { tid: 9, pid: 9 }] };

test('a frame\'s tone says whose jank it was', () => {
  assert.deepEqual(data.frames.map(frameTone), ['onTime', 'app', 'onTime', 'other', 'unfinished']);
  assert.equal(frameTone(frame({ janky: true, jank: 'Deadline Missed', derived: true, by_app: true })), 'app');
});

test('the frame under a time is found per layer; a frame never ended runs to the trace\'s end', () => {
  const lanes = framesByLayer(data);
  assert.deepEqual(lanes, [[0, 1, 3, 4], [2]]);
  assert.equal(frameAt(data.frames, lanes[0], 5_000, 100_000), 0);
  assert.equal(frameAt(data.frames, lanes[0], 15_000, 100_000), -1, 'between frames');
  assert.equal(frameAt(data.frames, lanes[0], 59_999, 100_000), 1);
  assert.equal(frameAt(data.frames, lanes[0], 99_000, 100_000), 4);
  assert.equal(frameAt(data.frames, lanes[1], 26_000, 100_000), 2);
});

test('janky frames open first, the most late first; then the longest', () => {
  const rows = frameRows(data, -1);
  const columns = frameColumns(data.layers);
  const order = tableOrder(rows, '', { column: 'jank', descending: true }, columns, 'jank');
  assert.deepEqual(order.map((i) => rows[i].token), [2, 4, 1, 3, 5]);
  assert.ok(jankRank(data.frames[3]) > jankRank(data.frames[0]));
  // The filter reads jank and present types; a layer's frames alone on request.
  assert.deepEqual(tableOrder(rows, 'buffer', { column: 'jank', descending: true }, columns, 'jank').map((i) => rows[i].token), [4]);
  assert.deepEqual(frameRows(data, 1).map((r) => r.token), [3]);
  assert.equal(columns.find((c) => c.id === 'layer').cell(rows[0]), 'MainActivity#7');
});

test('choosing a frame selects its time and its app\'s main thread', () => {
  assert.deepEqual(framePatch(summary, data, 1, 100_000), { frame: 1, range: { from: 20_000, to: 60_000 }, thread: 1, pins: [] });
  // The app's RenderThreads are pinned beside its main thread; a main thread the source
  // shown lacks is pinned too.
  const withThreads = { ...data, layers: data.layers.map((l, i) => (i === 0 ? { ...l, main_thread: l.pid, render_threads: [71, 72] } : l)) };
  assert.deepEqual(framePatch(summary, withThreads, 1, 100_000).pins, [71, 72]);
  assert.deepEqual(framePatch({ threads: [] }, withThreads, 1, 100_000).pins, [data.layers[0].pid, 71, 72]);
  assert.deepEqual(framePatch(summary, data, 4, 100_000).range, { from: 95_000, to: 100_000 });
  // With one thread shown, the lanes are its process's layers.
  assert.deepEqual(shownLayers(data, summary, 2), [1]);
  assert.deepEqual(shownLayers(data, summary, -1), [0, 1]);
});

test('a frame\'s hover and a layer\'s jank types read as words', () => {
  assert.deepEqual(frameTipLines(data.frames[1], data.layers[0]), [
    'Frame 2 · 40.0 ms', 'expected 16.6 ms · 23.4 ms late', 'jank: App Deadline Missed · On-time Present', 'MainActivity#7 (pid 7)',
  ]);
  assert.equal(frameTipLines(data.frames[4], data.layers[0])[0], 'Frame 5 · never ended');
  assert.equal(jankTypesLine(data.layers[0]), 'App Deadline Missed 1 · Buffer Stuffing 1');
  assert.equal(jankTypesLine(data.layers[1]), 'none');
  assert.equal(shortLayer('TX - com.a.b/com.a.b.ui.Main#3'), 'Main#3');
  assert.equal(shortLayer('StatusBar#38004'), 'StatusBar#38004');
  assert.equal(shortLayer('com.a.b (derived from Choreographer#doFrame and RenderThread DrawFrame)'), 'com.a.b');
});

test('a call\'s states and a state\'s hover read as words', () => {
  const states = [{ state: 'running', words: 'Running', us: 3_200 }, { state: 'runnable', words: 'Runnable', us: 8_100 },
    { state: 'preempted', words: 'Runnable (preempted)', us: 500 }];
  assert.equal(stateTimesLine(states), 'Running 3.20 ms · Runnable 8.10 ms · Runnable (preempted) 500 µs');
  assert.equal(stateTimesLine(null), '');
  assert.equal(waitingUs(states), 8_600);
  const lines = stateTipLines({ words: 'Uninterruptible sleep', start_us: 1_000, end_us: 3_000, dur_us: 2_000, cpu: null,
    waker: null, blocked: 'io_schedule', io_wait: true });
  assert.deepEqual(lines.slice(2), ['blocked in io_schedule (waiting for I/O)']);
  const woken = stateTipLines({ words: 'Runnable', start_us: 0, end_us: 10, dur_us: 10, cpu: null, waker: { tid: 7, name: 'main [7]' } });
  assert.equal(woken[2], 'woken by main [7]');
  assert.notEqual(stateColour('running', false), stateColour('running', true));
});

test('a frame is named by its token, or by its start where it has none', () => {
  assert.equal(frameName({ token: 4021, start_us: 1500 }), 'Frame 4021');
  assert.equal(frameName({ token: 0, start_us: 1500 }), 'Frame at 1.50 ms');
});

test('an app frame links to the display frame that presented it, and a display frame to the app frames it presented', () => {
  const linked = {
    layers: [data.layers[0], { pid: 50, layer: 'Display frames', display: true, frames: 2 }],
    frames: [
      frame({ token: 1, display_frame: 3 }),
      frame({ token: 2, start_us: 20_000, display_frame: 3 }),
      frame({ token: 6, start_us: 40_000, display_frame: null }),
      frame({ token: 10, layer: 1, start_us: 30_000 }),
      frame({ token: 11, layer: 1, start_us: 60_000 }),
    ],
  };
  assert.deepEqual(linkedFrames(linked, 0), [0, 3]);
  assert.deepEqual(linkedFrames(linked, 2), [2], 'no display frame known');
  assert.deepEqual(linkedFrames(linked, 3), [3, 0, 1]);
  assert.deepEqual(linkedFrames(linked, 4), [4], 'presented none of these');
  assert.deepEqual(linkedFrames(linked, 9), []);
  assert.equal(frameTipLines(linked.frames[0], linked.layers[0], linked, 0).at(-1), 'presented by display frame 10');
  assert.equal(frameTipLines(linked.frames[3], linked.layers[1], linked, 3).at(-1), 'presented Frame 1 of MainActivity#7, Frame 2 of MainActivity#7');
  assert.equal(frameTipLines(linked.frames[2], linked.layers[0], linked, 2).at(-1), 'MainActivity#7 (pid 7)');
  // One app's thread shows its lanes and the display's under them; the compositor's thread
  // shows the display's alone.
  const threads = { threads: [{ tid: 7, pid: 7 }, { tid: 50, pid: 50 }, { tid: 9, pid: 9 }] };
  assert.deepEqual(shownLayers(linked, threads, 0), [0, 1]);
  assert.deepEqual(shownLayers(linked, threads, 1), [1]);
  assert.deepEqual(shownLayers(linked, threads, 2), []);
});
