// The timeline's tracks: which show, in what order, where, and what is under a point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CPU_ROW, GROUP, HEAD, LANE_ROW, MARKS, ROW, STRIP, layoutTracks, partAt, trackAt, tracksIn } from '../src/timeline/track-layout.js';

// A capture as the core's tracksJson gives it: an app (main thread, RenderThread with
// samples), a system process, and a counter of each.
const catalog = {
  data_us: [100, 900], cpus: 2, counters: [1],
  processes: [
    { pid: 10, name: 'app', main: 10, render: [12], counters: [0], threads: [
      { tid: 10, label: 'app [10]', shown: 0, depths: 3, calls: 5, states: 4, samples: 0, first_us: 100, last_us: 900 },
      { tid: 12, label: 'RenderThread [12]', shown: null, depths: 0, calls: 0, states: 6, samples: 7, first_us: 150, last_us: 800 },
    ] },
    { pid: 1, name: 'system_server', main: 1, render: [], counters: [], threads: [
      { tid: 1, label: 'system_server [1]', shown: 1, depths: 50, calls: 9, states: 0, samples: 0, first_us: 100, last_us: 500 },
    ] },
  ],
};
const facts = { threads: [{ depths: 3 }, { depths: 50 }], counters: [{ index: 0, name: 'hwui', pid: 10 }, { index: 1, name: 'cpufreq', pid: 0 }] };
const summary = { threads: [{ tid: 10, name: 'app', pid: 10 }, { tid: 1, name: 'system_server', pid: 1 }] };

test('a chosen thread comes first, its pins beside it, then the CPUs', () => {
  const { tracks, height } = layoutTracks(catalog, facts, { thread: 0, summary, pins: [12, 10, 99] });
  assert.deepEqual(tracks.map((t) => t.key), ['t:10', 't:12', 'cpus'], 'a pin of the chosen thread or of no thread is left out');
  const [main, render, cpus] = tracks;
  assert.equal(main.chosen, true);
  assert.deepEqual([main.marks, main.strip, main.rows, main.depths, main.rowHeight], [null, { top: HEAD, height: STRIP }, HEAD + STRIP + 1, 3, ROW]);
  // The RenderThread has samples and states but no calls in the source shown.
  assert.equal(render.top, main.top + main.height);
  assert.deepEqual(render.marks, { top: render.top + HEAD, height: MARKS });
  assert.equal(render.strip.top, render.top + HEAD + MARKS);
  assert.equal(render.depths, 0);
  assert.equal(render.pinned, true);
  assert.equal(cpus.rows, cpus.top + HEAD);
  assert.equal(height, cpus.top + cpus.height);
  // Under a point: the RenderThread's ticks, its strip, a CPU.
  assert.deepEqual(partAt(render, render.top + HEAD + 1), { part: 'marks' });
  assert.deepEqual(partAt(render, render.strip.top + 2), { part: 'strip' });
  assert.deepEqual(partAt(main, main.rows + ROW + 1), { part: 'rows', depth: 1 });
  assert.equal(partAt(main, main.rows + 3 * ROW + 1), null, 'below its deepest row');
  assert.deepEqual(partAt(cpus, cpus.rows + CPU_ROW + 1), { part: 'cpu', cpu: 1 });
  assert.equal(trackAt(tracks, render.top + 1), render);
  assert.equal(trackAt(tracks, height + 1), null);
});

test('all threads: groups by process, open or closed, counters with their process', () => {
  const { tracks } = layoutTracks(catalog, facts, { thread: -1, summary, pins: [], timelineGroups: { 1: false } });
  assert.deepEqual(tracks.map((t) => t.key), ['cpus', 'g:10', 't:10', 't:12', 'c:0', 'g:1', 'g:none-counters', 'c:1']);
  const lane = tracks[2];
  assert.deepEqual([lane.rowHeight, lane.depths, lane.chosen, lane.pinned], [LANE_ROW, 3, false, false]);
  assert.equal(tracks[5].open, false);
  assert.equal(tracks[5].height, GROUP);
  // A pinned thread leaves its group for the top.
  const pinned = layoutTracks(catalog, facts, { thread: -1, summary, pins: [1] }).tracks;
  assert.deepEqual(pinned.map((t) => t.key).slice(0, 2), ['t:1', 'cpus']);
  assert.ok(!pinned.slice(2).some((t) => t.key === 't:1'));
  assert.equal(pinned[0].depths, 12, 'where threads are pinned, each shows its first 12 depths');
  // With little room, as many as let the pinned threads and the CPUs fit, 3 at least.
  const fitted = layoutTracks(catalog, facts, { thread: -1, summary, pins: [1] }, 200);
  const cpus = fitted.tracks[1];
  assert.equal(fitted.tracks[0].depths, 7);
  assert.ok(cpus.top + cpus.height <= 200);
  assert.equal(layoutTracks(catalog, facts, { thread: -1, summary, pins: [1] }, 50).tracks[0].depths, 3);
  // Only what shows is drawn.
  assert.deepEqual(tracksIn(tracks, tracks[2].top, tracks[3].top).map((t) => t.key), ['t:10']);
});

test('a thread shown alone keeps every depth; beside the CPUs, 40; asked, all', () => {
  const lone = { ...catalog, cpus: 0 };
  const depths = (c, more) => layoutTracks(c, facts, { thread: 1, summary, pins: [], ...more }).tracks.map((t) => [t.key, t.depths]);
  assert.deepEqual(depths(lone), [['t:1', 50]]);
  assert.deepEqual(depths(catalog), [['t:1', 40], ['cpus', undefined]]);
  assert.deepEqual(depths(catalog, { timelineDeep: true }), [['t:1', 50], ['cpus', undefined]]);
  // Where depths are left out, the outer ones every stack shares go first.
  const shared = { ...catalog, processes: catalog.processes.map((p) => ({ ...p, threads: p.threads.map((t) => ({ ...t, shared: 20 })) })) };
  const [top] = layoutTracks(shared, facts, { thread: 1, summary, pins: [] }).tracks;
  assert.deepEqual([top.skip, top.depths], [10, 40]);
  const [deep] = layoutTracks(shared, facts, { thread: 1, summary, pins: [], timelineDeep: true }).tracks;
  assert.deepEqual([deep.skip, deep.depths], [0, 50]);
});

test('an idle CPU says for how long, between the runs around it; a counter\'s value has its unit', async () => {
  const { idleLine, counterValue } = await import('../src/timeline/timeline-system.js');
  assert.equal(idleLine({ start_us: 6000, end_us: 9000 }), 'for 3.00 ms, from 6.0 ms to 9.0 ms');
  assert.equal(idleLine({ start_us: null, end_us: 7000 }), 'from the start of the trace to 7.00 ms');
  assert.equal(idleLine({ start_us: 1500000, end_us: null }), 'from 1.50 s to the end of the trace');
  assert.equal(idleLine({ start_us: null, end_us: null }), 'ran no thread in the whole trace');
  assert.equal(counterValue(1900800, 'kHz'), '1,900,800 kHz');
  assert.equal(counterValue(-3, ''), '-3');
});

test('a box\'s clocks: time in µs, a count of samples in the singular where it is one; its ends to a hundredth of it', async () => {
  const { clockLine, edgeStep } = await import('../src/timeline/timeline-call.js');
  const summary = { format: { clocks: ['wall', 'cpu'], clock_words: { wall: 'samples', cpu: 'CPU time' } }, units: { wall: 'samples', cpu: 'us' } };
  assert.equal(clockLine({ wall_us: 8, cpu_us: 1500 }, summary), '8 samples · CPU time 1.50 ms');
  assert.equal(clockLine({ wall_us: 1, cpu_us: null }, summary), '1 sample · CPU time —');
  const named = { format: { clocks: ['wall'], clock_words: { wall: 'cycles sampled' } }, units: { wall: 'samples' } };
  assert.equal(clockLine({ wall_us: 3 }, named), '3 samples (cycles sampled)');
  assert.equal(edgeStep({ start_us: 33_979_600, end_us: 34_345_400 }), 3_658);
  assert.equal(edgeStep({ start_us: 10, end_us: 20 }), 1);
});
