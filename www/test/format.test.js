import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary } from './golden.js';
import { clockWords, count, countedNoun, fileStem, frameNoun, frameTitle, methodNameParts, millis, percent, sizeText, splitName, threadLabel } from '../src/shared/format.js';

test('times read in the unit that fits, and a missing clock is a dash', () => {
  assert.equal(millis(null), '—');
  assert.equal(millis(999), '999 µs');
  assert.equal(millis(1500), '1.5 ms');
  assert.equal(millis(52_600_000), '52.6 s');
  assert.equal(count(1234567), '1,234,567');
  assert.equal(count(undefined), '—');
  assert.equal(percent(1, 3), '33.3%');
  assert.equal(percent(5, 0), '');
  assert.equal(sizeText(3 << 20), '3.0 MiB');
});

test('long thread names keep their distinguishing end', () => {
  assert.deepEqual(splitName('main'), ['main', '']);
  assert.deepEqual(splitName('DefaultDispatcher-worker-12'), ['DefaultDispatcher', '-worker-12']);
  const [head, tail] = splitName('Ünïcödé-thread-name-№42');
  assert.equal(head + tail, 'Ünïcödé-thread-name-№42');
  assert.equal(Array.from(tail).length, 10);
  assert.equal(threadLabel({ name: 'main', tid: 1 }), 'main [1]');
  assert.equal(threadLabel(null), 'All threads');
});

test('method names keep the class and method when the package is cut', () => {
  const m = { name: 'android.widget.FrameLayout.onMeasure', class: 'android.widget.FrameLayout', method: 'onMeasure' };
  assert.deepEqual(methodNameParts(m), ['android.widget.', 'FrameLayout.onMeasure']);
  assert.deepEqual(methodNameParts({ name: 'Choreographer#doFrame', class: '', method: 'Choreographer#doFrame' }), ['Choreographer#doFrame', '']);
  assert.deepEqual(methodNameParts({ name: 'Top.run', class: 'Top', method: 'run' }), ['Top.run', '']);
});

test('downloaded file names are safe whatever the trace was called', () => {
  assert.equal(fileStem('app.trace.gz'), 'app');
  assert.equal(fileStem('../../etc/passwd'), 'etc_passwd');
  assert.equal(fileStem('a.key + a.data'), 'a.key_a');
  assert.equal(fileStem(''), 'trace');
});

test('clocks and frames are named as the trace names them', () => {
  assert.equal(clockWords('cpu', summary.samples()), 'on-CPU time');
  assert.equal(clockWords('wall', summary.samples()), 'wall time, on and off CPU');
  assert.equal(clockWords('cpu', summary.method()), 'thread CPU time');
  assert.equal(frameNoun(summary.samples(), true), 'functions');
  assert.equal(frameTitle(summary.system(), false), 'Slice');
  assert.equal(frameTitle(summary.method(), true), 'Methods');
  // A heap dump's frames are classes.
  const dump = Object.assign(summary.method(), {});
  dump.format = Object.assign({}, dump.format, { frame_kind: 'class' });
  assert.deepEqual([frameNoun(dump, false), frameNoun(dump, true), frameTitle(dump, true)], ['class', 'classes', 'Classes']);
});

test('a count and its noun agree', async () => {
  const { countText } = await import('../src/shared/format.js');
  assert.equal(countText(1, 'thread'), '1 thread');
  assert.equal(countText(0, 'thread'), '0 threads');
  assert.equal(countText(1200, 'track'), '1,200 tracks');
});

test('values read in their unit: durations, sizes, counts of samples', async () => {
  const { amount, unitOf, clockHeading, unitSymbol } = await import('../src/shared/format.js');
  assert.equal(amount(1500, 'us'), '1.5 ms');
  assert.equal(amount(425840, 'bytes'), '416 KiB');
  assert.equal(amount(900, 'bytes'), '900 B');
  assert.equal(amount(3 << 20, 'bytes'), '3.0 MiB');
  assert.equal(amount(5003, 'samples'), '5,003');
  assert.equal(amount(null, 'samples'), '—');
  const summary = { units: { wall: 'us', cpu: 'samples' } };
  assert.equal(unitOf(summary, 'cpu'), 'samples');
  assert.equal(unitOf({}, 'wall'), 'us', 'a summary without units counts µs');
  assert.equal(clockHeading(summary, 'cpu'), 'Samples');
  assert.equal(clockHeading(summary, 'wall'), 'Wall');
  assert.equal(unitSymbol('us'), 'µs');
});

test('a count of what the source counts is singular at one', () => {
  assert.equal(countedNoun(1, { count: 'calls' }), '1 call');
  assert.equal(countedNoun(2, { count: 'calls' }), '2 calls');
  assert.equal(countedNoun(5003, { count: 'samples' }), '5,003 samples');
  assert.equal(countedNoun(1, { count: 'allocations' }), '1 allocation');
  assert.equal(countedNoun(0, {}), '0 calls');
});

test('a dump\'s heap is named by its name alone, a thread by its name and id', async () => {
  const { threadLabel } = await import('../src/shared/format.js');
  assert.equal(threadLabel({ name: 'main', tid: 12 }), 'main [12]');
  assert.equal(threadLabel({ name: 'app', tid: 1, heap: true }), 'app');
  assert.equal(threadLabel(null), 'All threads');
});
