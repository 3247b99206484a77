// The Scheduling and Counters tabs' rows, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schedulingRows } from '../src/system/scheduling.js';
import { schedulingLine } from '../src/shared/thread-states.js';
import { counterRows } from '../src/system/counters.js';
import { summary as golden } from './golden.js';

test('scheduling rows are the core rows, in its order, with shares of known and running time', () => {
  // Two threads as the core's `scheduling` product gives them, the most running first.
  const core = [
    { thread: 4, shown: 1, tid: 2, pid: 1, label: 'RenderThread [2]', process: 'app', running_us: 300, runnable_us: 0, preempted_us: 0,
      sleeping_us: 500, uninterruptible_us: 200, io_wait_us: 150, wakeups: 3,
      wakers: [{ tid: 1, name: 'main [1]', count: 2 }, { tid: 0, name: 'an interrupt (the idle task)', count: 1 }],
      cpus: [{ cpu: 2, us: 225 }, { cpu: 0, us: 75 }] },
    { thread: 9, shown: null, tid: 9, pid: null, label: 'idle [9]', process: null, running_us: 0, runnable_us: 0, preempted_us: 0,
      sleeping_us: 0, uninterruptible_us: 0, io_wait_us: 0, wakeups: 0, wakers: [], cpus: [] },
  ];
  const rows = schedulingRows(core);
  assert.deepEqual(rows.map((r) => r.index), [1, null]);
  // Uninterruptible sleep is known time too: 300 of 1,000 µs running.
  assert.equal(rows[0].share, '30.0%');
  assert.equal(rows[0].waker, 'main [1] ×2');
  assert.equal(rows[0].wakers, 'main [1]: 2 of 3 wakeups\nan interrupt (the idle task): 1 of 3 wakeups');
  assert.equal(rows[0].cpus, '2 75.0% · 0 25.0%');
  assert.equal(rows[0].ioWait, 150);
  assert.equal(rows[1].share, '—', 'no known time: no share');
  assert.equal(rows[1].process, '');
  assert.equal(schedulingLine(core[0]), 'Woken 3 times, most by main [1] (2) · on CPU 2 75%, 0 25% · I/O wait 150 µs');
  assert.equal(schedulingLine(core[1]), '');
  assert.equal(schedulingLine(null), '');
});

test('counters are named by their process where a thread of it names it, with their unit', () => {
  // A system trace's counters, as the core summarises them.
  const written = counterRows(golden.system());
  assert.equal(written.length, golden.system().counters.length);
  assert.deepEqual(written[0], { process: 'process (pid 18926)', name: 'hwui_Layer', unit: '', samples: '14', min: '0', max: '0', last: '0' });
  const summary = {
    threads: [{ tid: 10, name: 'surfaceflinger', pid: 10, process: 'surfaceflinger' }],
    counters: [
      { pid: 10, name: 'VSYNC-sf', samples: 1200, min: 0, max: 1, last: 1 },
      { pid: 77, name: 'bytes', unit: 'bytes', samples: 3, min: -5, max: 123456, last: 7 },
      { pid: 0, name: 'CPU 2 frequency', unit: 'kHz', samples: 9, min: 300000, max: 1900800, last: 300000 },
    ],
  };
  assert.deepEqual(counterRows(summary), [
    { process: 'surfaceflinger (pid 10)', name: 'VSYNC-sf', unit: '', samples: '1,200', min: '0', max: '1', last: '1' },
    { process: 'process (pid 77)', name: 'bytes', unit: 'bytes', samples: '3', min: '-5', max: '123,456', last: '7' },
    { process: 'no process (the system\'s)', name: 'CPU 2 frequency', unit: 'kHz', samples: '9', min: '300,000', max: '1,900,800', last: '300,000' },
  ]);
  assert.deepEqual(counterRows({ threads: [] }), []);
});
