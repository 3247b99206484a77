// The Scheduling and Counters tabs' rows, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schedulingRows } from '../src/system/scheduling.js';
import { counterRows } from '../src/system/counters.js';
import { summary as golden } from './golden.js';

test('scheduling lists threads with scheduler times, most running first, tracks and method threads left out', () => {
  const summary = {
    threads: [
      { tid: 1, name: 'main', pid: 1, process: 'app', running_us: 100, runnable_us: 50, sleeping_us: 850, uninterruptible_us: 0 },
      { tid: 2, name: 'RenderThread', pid: 1, process: 'app', running_us: 300, runnable_us: 0, sleeping_us: 500, uninterruptible_us: 200 },
      { tid: 2147483648, name: 'load', pid: 1, track: true },
      { tid: 9, name: 'idle', running_us: 0, runnable_us: 0, sleeping_us: 0, uninterruptible_us: 0 },
    ],
  };
  const rows = schedulingRows(summary);
  assert.deepEqual(rows.map((r) => r.index), [1, 0, 3]);
  // Uninterruptible sleep is known time too: 300 of 1,000 µs running.
  assert.deepEqual(rows[0], { index: 1, thread: 'RenderThread [2]', process: 'app', running: 300, runnable: 0, sleeping: 500, uninterruptible: 200, share: '30.0%' });
  assert.equal(rows[2].share, '—', 'no known time: no share');
  assert.equal(rows[2].process, '');
  assert.deepEqual(schedulingRows({ threads: [{ tid: 1, name: 'main', wall_us: 5 }] }), []);
});

test('counters are named by their process where a thread of it names it', () => {
  // A system trace's counters, as the core summarises them.
  const written = counterRows(golden.system());
  assert.equal(written.length, golden.system().counters.length);
  assert.deepEqual(written[0], { process: 'process (pid 18926)', name: 'hwui_Layer', samples: '14', min: '0', max: '0', last: '0' });
  const summary = {
    threads: [{ tid: 10, name: 'surfaceflinger', pid: 10, process: 'surfaceflinger' }],
    counters: [
      { pid: 10, name: 'VSYNC-sf', samples: 1200, min: 0, max: 1, last: 1 },
      { pid: 77, name: 'bytes', samples: 3, min: -5, max: 123456, last: 7 },
    ],
  };
  assert.deepEqual(counterRows(summary), [
    { process: 'surfaceflinger (pid 10)', name: 'VSYNC-sf', samples: '1,200', min: '0', max: '1', last: '1' },
    { process: 'process (pid 77)', name: 'bytes', samples: '3', min: '-5', max: '123,456', last: '7' },
  ]);
  assert.deepEqual(counterRows({ threads: [] }), []);
});
