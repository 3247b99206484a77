import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changed, clocksOf, createStore, focusOn, methodKey, openedState } from '../src/shared/state.js';

import { summary as golden } from './golden.js';

test('a store tells subscribers what changed, once per update', () => {
  const store = createStore();
  const seen = [];
  const stop = store.subscribe((state, previous) => seen.push([changed(state, previous, 'thread'), changed(state, previous, 'clock')]));
  store.update({ thread: 3 });
  store.update({ clock: 'cpu' });
  stop();
  store.update({ thread: 4 });
  assert.deepEqual(seen, [[true, false], [false, true]]);
  assert.equal(store.get().thread, 4);
  assert.equal(changed(store.get(), null, 'thread'), true, 'no previous state: everything is new');
});

test('a new trace opens on the core\'s default thread and clock', () => {
  assert.deepEqual(clocksOf(golden.threadCpu()), { wall: false, cpu: true });
  const opened = openedState(golden.threadCpu(), 'a.trace');
  assert.equal(opened.thread, 0);
  assert.equal(opened.clock, 'cpu');
  assert.equal(opened.method, null);
  assert.equal(openedState(golden.system(), 'b').thread, 2);
  assert.equal(openedState(Object.assign(golden.system(), { default_thread: null }), 'b').thread, -1, 'no thread: all threads');
  assert.equal(openedState(golden.method(), 'b').clock, 'wall');
  assert.equal(openedState(golden.samples(), 'c').clock, 'cpu', 'samples open on on-CPU time');
});

test('a method keeps its identity across threads by name and signature', () => {
  assert.notEqual(methodKey({ name: 'A.f', signature: '(I)V' }), methodKey({ name: 'A.f', signature: '(J)V' }));
  assert.equal(methodKey({ name: 'A.f', signature: '()V', calls: 1 }), methodKey({ name: 'A.f', signature: '()V', calls: 9 }));
});

test('a call chosen to be seen opens the timeline on a window around it, kept in the store', () => {
  const call = { thread: 2, depth: 3, start_us: 1000, end_us: 2000 };
  const patch = focusOn(call);
  assert.equal(patch.tab, 'timeline');
  assert.equal(patch.thread, 2);
  assert.equal(patch.focus, call);
  assert.ok(patch.timelineView.from < 1000 && patch.timelineView.to > 2000 && patch.timelineView.to - patch.timelineView.from < 1400);
  // A new trace starts on the whole of its timeline, with nothing filtered or searched.
  const opened = openedState(golden.system(), 'a.trace');
  assert.deepEqual([opened.timelineView, opened.range, opened.threadFilter, opened.search], [null, null, '', '']);
});

test('the source switch offers other sources and a heap profile\'s dumps', async () => {
  const { dumpOptions, offersChoice, hasTimeline } = await import('../src/trace/sources.js');
  const sources = [{ name: 'heap-unreleased', unit: 'bytes', description: 'a', heap: true }, { name: 'heap-allocated', unit: 'bytes', description: 'b', heap: true }];
  const heap = { source: 'heap-unreleased', sources, dumps: { selected: 1, count: 2, times_us: [0, 2500000] } };
  assert.deepEqual(dumpOptions(heap.dumps), [{ value: '0', text: 'Dump 1 of 2, at the start' }, { value: '1', text: 'Dump 2 of 2, at 2.50 s' }]);
  assert.deepEqual(dumpOptions({ selected: 0, count: 1, times_us: [0] }), [], 'one dump: nothing to choose');
  assert.equal(offersChoice(heap), true);
  assert.equal(offersChoice({ source: 'calls', sources: [sources[0]] }), false);
  assert.equal(hasTimeline(heap), false);
  assert.equal(hasTimeline({ source: 'cpu-samples' }), true);
  // The summary's field says what a source is, not its name.
  assert.equal(hasTimeline({ source: 'heap-unreleased', sources: [{ ...sources[0], heap: false }] }), true);
  assert.equal(hasTimeline({ source: 'samples', sources: [{ name: 'samples', unit: 'bytes', description: 'c', heap: true }] }), false);
  const { sourceState } = await import('../src/shared/state.js');
  const next = sourceState({ default_thread: 2, format: { clocks: ['wall'], default_clock: 'wall' } });
  assert.equal(next.thread, 2);
  assert.equal('phase' in next || 'compare' in next || 'name' in next, false, 'the trace and its comparison stay');
});
