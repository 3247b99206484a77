import test from 'node:test';
import assert from 'node:assert/strict';
import { cellText, changeText, compareClockWords, deltaColumns, legendText, sideBySide } from '../src/compare/compare-table.js';
import { columnGroups, tableOrder } from '../src/shared/sort-table.js';
import { summary } from './golden.js';

const deltaOrder = (rows, filter, sort, cols) => tableOrder(rows, filter, sort, cols, 'incl-delta');

const row = (name, before, after, signature = '()V') => ({
  name, signature,
  before: { calls: before[0], incl_us: before[1], excl_us: before[2] },
  after: { calls: after[0], incl_us: after[1], excl_us: after[2] },
});

const rows = [
  row('a.B.grew', [1, 100, 10], [1, 300, 10]),
  row('a.B.shrank', [2, 500, 50], [2, 100, 50]),
  row('a.B.fresh', [0, 0, 0], [3, 40, 40]),
  row('a.B.gone', [5, 70, 70], [0, 0, 0]),
  row('a.B.still', [4, 0, 0], [4, 20, 20]),
];

test('changes read as a percentage of before, new, or a dash where before had no time', () => {
  assert.equal(changeText(rows[0], 'incl_us'), '+200.0%');
  assert.equal(changeText(rows[1], 'incl_us'), '−80.0%');
  assert.equal(changeText(rows[0], 'excl_us'), '0.0%');
  assert.equal(changeText(rows[2], 'incl_us'), 'new');
  assert.equal(changeText(rows[3], 'incl_us'), '−100.0%');
  assert.equal(changeText(rows[4], 'incl_us'), '—');
});

test('the table sorts by any column, growth first by default, and filters', () => {
  const cols = deltaColumns(summary.method());
  const names = (order) => order.map((i) => rows[i].name);
  const byDelta = deltaOrder(rows, '', { column: 'incl-delta', descending: true }, cols);
  assert.deepEqual(names(byDelta), ['a.B.grew', 'a.B.fresh', 'a.B.still', 'a.B.gone', 'a.B.shrank']);
  const shrinkFirst = deltaOrder(rows, '', { column: 'incl-delta', descending: false }, cols);
  assert.deepEqual(names(shrinkFirst)[0], 'a.B.shrank');
  // By change: time from nothing grows without bound.
  const byChange = deltaOrder(rows, '', { column: 'incl-change', descending: true }, cols);
  assert.deepEqual(names(byChange).slice(0, 3), ['a.B.fresh', 'a.B.still', 'a.B.grew']);
  assert.deepEqual(names(deltaOrder(rows, 'SHR', { column: 'incl-delta', descending: true }, cols)), ['a.B.shrank']);
  assert.deepEqual(names(deltaOrder(rows, '', { column: 'name', descending: false }, cols)),
    ['a.B.fresh', 'a.B.gone', 'a.B.grew', 'a.B.shrank', 'a.B.still']);
});

test('cells show times in a readable unit, signed deltas, and headings group the columns', () => {
  const cols = deltaColumns(summary.method());
  const col = (id) => cols.find((c) => c.id === id);
  assert.equal(cellText(col('incl-after'), rows[0]), '300 µs');
  assert.equal(cellText(col('incl-delta'), rows[1]), '−400 µs');
  assert.equal(cellText(col('incl-delta'), rows[0]), '+200 µs');
  assert.equal(cellText(col('calls-after'), rows[2]), '3');
  assert.deepEqual(columnGroups(cols).map(({ group, span, first }) => [group, span, first]), [
    ['Calls', 2, 1], ['Inclusive', 4, 3], ['Exclusive', 4, 7]]);
  assert.equal(deltaColumns(summary.system())[0].label, 'Slice');
  assert.equal(col('incl-delta').tone(rows[0]), 'grew');
  assert.equal(col('incl-delta').tone(rows[1]), 'shrank');
  assert.equal(col('incl-change').tone(rows[4]), '', 'no time before: no colour');
  assert.equal(col('incl-delta').title(rows[1]), '−400 µs');
});

test('the two traces\' facts line up under one head', () => {
  const facts = sideBySide(summary.method(), summary.threadCpu(), ['a.trace', 'b.trace']);
  assert.deepEqual(facts.head, ['File', 'Format', 'Clock', 'Elapsed', 'Records', 'Threads', 'Methods', 'Notes']);
  assert.deepEqual(facts.rows[0], ['a.trace', 'Method trace, regular v3', 'dual', '312 µs', '23', '1', '14', '2']);
  assert.deepEqual(facts.rows[1], ['b.trace', 'Method trace, regular v1', 'thread-cpu', '53 µs', '10', '1', '7', '2']);
  // A system trace's async tracks are not threads.
  assert.equal(sideBySide(summary.system(), summary.method(), ['a', 'b']).rows[0][5], '4');
  // Two heap dumps: objects, bytes and heaps (those holding any), no clock or records.
  const dump = (objects, bytes) => Object.assign(summary.method(), {
    format: Object.assign(summary.method().format, { description: 'Heap dump (HPROF 1.0.3, 4-byte ids)', frame_kind: 'class' }),
    heap_dump: { objects, bytes, heaps: [{ name: 'image', objects: 0, bytes: 0 }, { name: 'zygote', objects: 1, bytes: 10 }, { name: 'app', objects: objects - 1, bytes: bytes - 10 }] },
  });
  const dumps = sideBySide(dump(44065, 2621440), dump(44100, 2631440), ['a.hprof', 'b.hprof']);
  assert.deepEqual(dumps.head, ['File', 'Format', 'Reachable objects', 'Reachable bytes', 'Heaps', 'Classes', 'Notes']);
  assert.deepEqual(dumps.rows[0].slice(2, 5), ['44,065', '2.5 MiB', '2']);
});

test('the legend says which side sets the widths, what the colour measures and what scaling did, the clock in the core\'s words', () => {
  const state = (widths, normalize, clock = 'wall', after = summary.method(), colour = 'self') => ({
    summary: summary.method(), compareWidths: widths, compareNormalize: normalize, compareThread: 'main', compareColour: colour,
    compare: { summary: after, facts: { clock } },
  });
  assert.match(legendText(state('after', false)),
    /^Thread main, wall time\. Widths: after\. Colour: how a frame's own \(self\) time changed from before to after, deeper the larger a share of the whole graph the change is \(deepest from 5% of it\): red grew, blue shrank; grey under 0\.1% of the whole or within ±5% of the frame's own\. Code that is gone shows with widths: before\.$/);
  assert.match(legendText(state('before', true)), /Widths: before\..*from before to after \(after scaled to the same total\), deeper.*Code that is new/);
  assert.match(legendText(state('after', false, 'wall', summary.method(), 'total')), /Colour: how a frame's total time \(itself and what it calls\) changed/);
  // Bytes are no time; a dump's frames are classes.
  const bytes = Object.assign(state('after', false), { summary: Object.assign(summary.method(), { units: { wall: 'bytes' }, heap_dump: {} }) });
  assert.match(legendText(bytes), /Colour: how a frame's own \(self\) value changed.*Classes that are gone show with widths: before\.$/);
  // Each side's words where they differ: a method trace's CPU clock is the thread's, samples' is on-CPU time.
  assert.equal(compareClockWords(state('after', false, 'cpu')), 'thread CPU time');
  assert.equal(compareClockWords(state('after', false, 'cpu', summary.samples())), 'thread CPU time (before), on-CPU time (after)');
});
