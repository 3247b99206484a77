import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changed, clocksOf, createStore, focusOn, methodKey, openedState } from '../src/state.js';

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
