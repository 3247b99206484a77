import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashOf, linkPatch, parseHash, viewFromText, MAX_HASH } from '../src/link/link.js';
import { initialState, openedState } from '../src/shared/state.js';
import { PLAIN_VIEW } from '../src/shared/transforms.js';
import { VIEWS } from '../src/views/list.js';
import { summary as golden } from './golden.js';

function opened() {
  return Object.assign(initialState(), openedState(golden.method(), 'a.trace'));
}

function restored(hash, state = opened()) {
  return linkPatch(parseHash(hash).params, state);
}

test('a view goes into the hash and comes back from it, whole', () => {
  const base = opened();
  const to = Math.floor(base.summary.elapsed_us / 2);
  const state = Object.assign(base, {
    tab: 'tree', thread: 0, clock: 'cpu', range: { from: 12.5, to }, search: 'a;b c&d=e#f',
    treeSearch: 'Löoper', treeFunction: 'java.lang.Thread.run',
    view: { transforms: [{ merge: 'x.Y.z' }, { focus_subtree: ['a', 'b'] }, { collapse_package: 'android.' }], invert: true },
    timelineView: { from: 10, to: 20.25 }, pins: [2328, 9664], timelineGroups: { 1323: true, none: false, 'none-counters': true },
    timelineDeep: true,
  });
  const hash = hashOf(state);
  assert.doesNotMatch(hash, /[#\s]/, 'one hash, no spaces');
  const { patch, notes } = restored('#' + hash);
  assert.deepEqual(notes, []);
  assert.deepEqual(patch, {
    tab: 'tree', thread: 0, clock: 'cpu', range: { from: 12.5, to }, search: 'a;b c&d=e#f', treeSearch: 'Löoper',
    treeFunction: 'java.lang.Thread.run', view: state.view, timelineView: { from: 10, to: 20.25 }, pins: [2328, 9664],
    timelineGroups: state.timelineGroups, timelineDeep: true,
  });
  assert.match(hash, /&window=10-20\.25&pins=2328\.9664&groups=1323\.-none\.none-counters&deep=on&/);
  // The frame chosen, in a trace with app frames.
  const frames = Object.assign(initialState(), openedState(Object.assign(golden.method(), { app_frames: 3 }), 'a.trace'));
  assert.equal(restored('#' + hashOf(Object.assign(frames, { frame: 2 })), frames).patch.frame, 2);
  assert.equal(hashOf(initialState()), '', 'nothing open: no hash');
  assert.match(hashOf(opened()), /^file=a\.trace&tab=flame&thread=/);
});

test('a link names the file it was made with, and says so where another is open', async () => {
  const { linkFile } = await import('../src/link/link.js');
  const hash = hashOf(opened());
  assert.equal(linkFile(parseHash(hash).params), 'a.trace');
  assert.deepEqual(restored(hash).notes, [], 'the same file: nothing to say');
  const other = Object.assign(opened(), { name: 'b.trace' });
  assert.deepEqual(restored(hash, other).notes, ['The link was made with "a.trace"; this is "b.trace".']);
  assert.equal(linkFile(parseHash('tab=flame').params), '', 'an older link names none');
  assert.equal(linkFile(null), '');
});

test('a link round-trips every tab in the list of views', () => {
  for (const { id } of VIEWS) {
    // Compare's tab is taken only while a comparison is open.
    const state = Object.assign(opened(), { tab: id }, id === 'compare' ? { compare: { phase: 'done', name: 'b.trace' } } : {});
    const hash = hashOf(state);
    assert.match(hash, new RegExp('^file=a\\.trace&tab=' + id + '&'), id);
    const { patch, notes } = restored('#' + hash, state);
    assert.deepEqual(notes, [], id);
    assert.deepEqual(patch, { tab: id, thread: state.thread, clock: state.clock }, id);
  }
  assert.deepEqual(VIEWS.map((v) => v.id), ['flame', 'heap', 'tree', 'timeline', 'methods', 'frames', 'scheduling', 'counters', 'trace', 'compare']);
});

test('the thread is found by its name and id; all threads by name', () => {
  const state = opened();
  const label = state.summary.threads[0].name + ' [' + state.summary.threads[0].tid + ']';
  assert.equal(restored('thread=' + encodeURIComponent(label)).patch.thread, 0);
  assert.equal(restored('thread=all').patch.thread, -1);
  const missing = restored('thread=' + encodeURIComponent('main [999999]'));
  assert.equal('thread' in missing.patch, false);
  assert.match(missing.notes[0], /no thread "main \[999999\]"/);
});

test('the timeline\'s chosen call goes into the hash by its thread, and comes back with a window around it', () => {
  const state = Object.assign(opened(), { tab: 'timeline', thread: -1, focus: { thread: 0, depth: 3, start_us: 120.5, end_us: 250 } });
  const hash = hashOf(state);
  const { patch, notes } = restored(hash);
  assert.deepEqual(notes, []);
  assert.deepEqual(patch.focus, state.focus);
  assert.ok(patch.timelineView.from < 120.5 && patch.timelineView.to > 250, 'the window shows the call with a margin');
  // A window the link keeps as well wins: the timeline reopens as it was left.
  const kept = restored(hashOf(Object.assign(state, { timelineView: { from: 110, to: 260 } }))).patch;
  assert.deepEqual(kept.timelineView, { from: 110, to: 260 });
  for (const bad of ['3~1~2', 'x~1~2~main [1]', '3~9~2~' + encodeURIComponent(hash.slice(0, 4)), '3~1~1e99~main', '3~1~2~<img src=x>', '999999~1~2~main [1]']) {
    const { patch: none, notes: said } = restored('call=' + encodeURIComponent(bad));
    assert.equal('focus' in none, false, bad);
    assert.match(said.join(' '), /chosen call was left out/, bad);
  }
});

test('a hostile hash: unknown keys, bad values and markup are left out with a note, never applied', () => {
  const { patch, notes } = restored('#tab=<img src=x onerror=alert(1)>&clock=sun&range=9-3&thread=<script>&' +
    'view=' + encodeURIComponent('{"transforms":[{"__proto__":{"polluted":1}}]}') + '&fetch=http://evil.example/&__proto__=1&compare=yes');
  assert.deepEqual(patch, {});
  assert.equal({}.polluted, undefined);
  const said = notes.join('\n');
  for (const part of ['tab', 'clock', 'range', 'view (its transforms)', 'comparison']) assert.match(said, new RegExp('link\'s ' + part.replace(/[()]/g, '\\$&') + ' was left out'));
  assert.match(said, /parts this page does not know, left out: "fetch", "__proto__"/);
  assert.match(said, /no thread "<script>"/, 'the name is quoted as text; the page shows notes only as text');
  // A clock the trace lacks; a range past its end; a tab that needs a comparison.
  const threadCpu = Object.assign(initialState(), openedState(golden.threadCpu(), 'b.trace'));
  assert.equal('clock' in restored('clock=wall', threadCpu).patch, false);
  assert.equal('range' in restored('range=0-1e99').patch, false);
  assert.equal('timelineView' in restored('window=5-2').patch, false);
  assert.match(restored('pins=12.x').notes[0], /pinned threads was left out/);
  assert.equal('pins' in restored('pins=-1').patch, false);
  assert.match(restored('groups=12.-x').notes[0], /process groups opened or closed was left out/);
  assert.equal('timelineDeep' in restored('deep=yes').patch, false);
  assert.match(restored('frame=1').notes[0], /frame chosen was left out/, 'this trace has no app frames');
  assert.equal('tab' in restored('tab=compare').patch, false);
  assert.match(restored('compare=on').notes[0], /Compare with/);
  // Too long to read at all.
  assert.equal(parseHash('#search=' + 'a'.repeat(MAX_HASH)).params, null);
});

test('a view from the hash is checked for its shape; its names are the core\'s to check', () => {
  assert.deepEqual(viewFromText('{"transforms":[{"drop":"a.b"}]}'), { transforms: [{ drop: 'a.b' }], invert: false });
  assert.equal(viewFromText('{}'), PLAIN_VIEW);
  for (const bad of ['', 'null', '[]', '{"transforms":{}}', '{"invert":"yes"}', '{"transforms":[{"merge":1}]}',
    '{"transforms":[{"merge":"a","drop":"b"}]}', '{"transforms":[{"rm":"a"}]}', '{"transforms":[{"focus_subtree":[]}]}',
    '{"transforms":[{"focus_subtree":["a",2]}]}', '{"other":1}', '{"transforms":[{"merge":""}]}']) {
    assert.equal(viewFromText(bad), null, bad);
  }
});

test('a link keeps the source and a heap profile\'s dump, and asks for them first', async () => {
  const { linkSource } = await import('../src/link/link.js');
  const sources = [{ name: 'heap-unreleased', unit: 'bytes', description: 'a', heap: true }, { name: 'heap-allocated', unit: 'bytes', description: 'b', heap: true }];
  const summary = Object.assign({}, opened().summary, { sources, source: 'heap-allocated', dumps: { selected: 0, count: 3, times_us: [1, 2, 3] } });
  const state = Object.assign({}, opened(), { summary });
  const hash = hashOf(state);
  assert.match(hash, /^file=a\.trace&tab=flame&source=heap-allocated&dump=1&thread=/);
  const params = parseHash('#' + hash).params;
  // Asked of the trace opened on its first source and last dump: both change.
  const fresh = Object.assign({}, summary, { source: 'heap-unreleased', dumps: { selected: 2, count: 3, times_us: [1, 2, 3] } });
  assert.deepEqual(linkSource(params, fresh), { wanted: { name: 'heap-allocated', dump: 0 }, notes: [] });
  assert.deepEqual(linkSource(params, summary), { wanted: null, notes: [] }, 'shown already');
  const odd = parseHash('#source=gpu&dump=9').params;
  const { wanted, notes } = linkSource(odd, fresh);
  assert.equal(wanted, null);
  assert.equal(notes.length, 2);
  // A trace of one source writes none.
  assert.doesNotMatch(hashOf(opened()), /source=/);
});

test('a heap dump\'s choices go into the hash and come back; a trace that is no dump leaves them out', () => {
  const summary = Object.assign(golden.method(), {
    heap_dump: { objects: 3, bytes: 30, heaps: [{ name: 'zygote', objects: 1, bytes: 10 }, { name: 'app', objects: 2, bytes: 20 }],
      roots: {}, unreachable: { objects: 0, bytes: 0 } },
  });
  const dump = Object.assign(initialState(), openedState(summary, 'a.hprof'));
  assert.equal(dump.tab, 'heap', 'a dump opens on its overview');
  const state = Object.assign(dump, { heapHeap: 'app', heapByPackage: true, heapClass: 'com.example.A$B', heapObject: '0xb0fa7cb0' });
  const { patch, notes } = restored('#' + hashOf(state), state);
  assert.deepEqual(notes, []);
  assert.deepEqual([patch.heapHeap, patch.heapByPackage, patch.heapClass, patch.heapObject], ['app', true, 'com.example.A$B', '0xb0fa7cb0']);
  const bad = restored('heap=image&object=0xZZ', state);
  assert.deepEqual([bad.patch.heapHeap, bad.patch.heapObject], ['', ''], 'left out: all heaps, no object');
  assert.equal(bad.notes.length, 2);
  // A link without a class or an object (Back from one) shows none.
  const plain = restored('tab=heap', state).patch;
  assert.deepEqual([plain.heapHeap, plain.heapByPackage, plain.heapClass, plain.heapObject], ['', false, '', '']);
  const trace = restored('class=A');
  assert.deepEqual(trace.patch, {});
  assert.match(trace.notes[0], /this is no heap dump/);
});
