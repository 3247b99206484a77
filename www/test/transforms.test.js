import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, initialState, openedState } from '../src/shared/state.js';
import {
  PLAIN_VIEW, chosenPatch, isPlain, menuItems, nameOfTitle, packagesOf, refused, stepParts, stepText, stepTitle, threadFrameName, undone, viewJson,
  withInvert, withTransform, withoutStep, withoutSteps,
} from '../src/shared/transforms.js';
import { summary as golden } from './golden.js';

const A = 'com.example.A.run';
const B = 'android.os.Looper.loop';

test('the view lives in the store: plain at first, and a new trace resets it', () => {
  const store = createStore();
  assert.equal(store.get().view, PLAIN_VIEW);
  assert.deepEqual(store.get().viewHistory, []);
  store.update(withTransform(store.get(), { merge: A }));
  store.update({ viewError: 'refused' });
  store.update(openedState(golden.method(), 'next.trace'));
  assert.deepEqual([store.get().view, store.get().viewHistory, store.get().viewError], [PLAIN_VIEW, [], '']);
});

test('the core gets the view as JSON, and an empty text for the plain view', () => {
  assert.equal(viewJson(PLAIN_VIEW), '');
  assert.equal(isPlain({ transforms: [], invert: true }), false);
  const view = { transforms: [{ merge: A }, { focus_subtree: [B, A] }], invert: true };
  assert.equal(viewJson(view), '{"transforms":[{"merge":"com.example.A.run"},{"focus_subtree":["android.os.Looper.loop","com.example.A.run"]}],"invert":true}');
  assert.deepEqual(JSON.parse(viewJson({ transforms: [{ drop: 'a;b "c"' }], invert: false })).transforms[0].drop, 'a;b "c"');
});

test('each change keeps the view before it, and Undo restores it', () => {
  let state = initialState();
  const apply = (patch) => { state = Object.assign({}, state, patch); };
  apply(withTransform(state, { merge: A }));
  apply(withTransform(state, { callers_of: B }, true));
  assert.deepEqual(state.view, { transforms: [{ merge: A }, { callers_of: B }], invert: true });
  apply(withoutStep(state, 0));
  assert.deepEqual(state.view, { transforms: [{ callers_of: B }], invert: true }, 'later steps stay');
  apply(withInvert(state, false));
  assert.deepEqual(state.view.invert, false);
  apply(withInvert(state, true));
  apply(withoutSteps(state));
  assert.deepEqual(state.view, { transforms: [], invert: false }, 'the whole profile is top-down too');
  assert.equal(state.viewHistory.length, 6);
  const seen = [];
  while (state.viewHistory.length) {
    apply(undone(state));
    seen.push(state.view.transforms.map(stepText).join(' › ') + (state.view.invert ? ' (inverted)' : ''));
  }
  assert.deepEqual(seen, [
    'Callers of ' + B + ' (inverted)',
    'Callers of ' + B,
    'Callers of ' + B + ' (inverted)',
    'Merge ' + A + ' › Callers of ' + B + ' (inverted)',
    'Merge ' + A,
    '',
  ]);
  assert.equal(state.view, PLAIN_VIEW);
  assert.deepEqual(undone(state), {}, 'nothing to undo');
});

test('a refused view is not kept: the one before it shows, with the reason', () => {
  let state = Object.assign(initialState(), withTransform(initialState(), { merge: A }));
  const good = state.view;
  state = Object.assign({}, state, withTransform(state, { focus: 'gone' }));
  state = Object.assign({}, state, refused(state, 'no frame is named "gone"'));
  assert.equal(state.view, good);
  assert.equal(state.viewHistory.length, 1, 'Undo then goes to the plain view, not back to the refused one');
  assert.match(state.viewError, /could not be shown.*no frame is named "gone"/);
  // A view with nothing before it (kept across a mapping that renamed its frames) gives way
  // to the plain view.
  const alone = Object.assign(initialState(), { view: { transforms: [{ merge: 'a.b.a' }], invert: false } });
  assert.equal(Object.assign({}, alone, refused(alone, 'x')).view, PLAIN_VIEW);
  // Any change clears the error.
  assert.equal(withInvert(state, true).viewError, '');
});

test('Undo keeps a bounded history', () => {
  let state = initialState();
  for (let i = 0; i < 150; i++) state = Object.assign({}, state, withInvert(state, !state.view.invert));
  assert.equal(state.viewHistory.length, 100);
});

test('steps in words; a subtree by its last frame, its path in the tooltip', () => {
  assert.equal(stepText({ focus: A }), 'Focus on ' + A);
  assert.equal(stepText({ collapse_direct_recursion: A }), 'Collapse direct recursion of ' + A);
  assert.equal(stepText({ focus_subtree: [B, A] }), 'Focus on the subtree of ' + A);
  assert.equal(stepTitle({ focus_subtree: [B, A] }), 'Focus on the subtree of ' + A + ' (path: ' + B + ' › ' + A + ')');
});

test('a cramped crumb keeps the end of a name in sight: a dotted name\'s last two parts', () => {
  assert.deepEqual(stepParts({ merge: 'android.app.ActivityThread$H.handleMessage' }),
    { verb: 'Merge ', head: 'android.app.', tail: 'ActivityThread$H.handleMessage' });
  assert.deepEqual(stepParts({ focus_subtree: [B, 'Looper.loop'] }), { verb: 'Focus on the subtree of ', head: '', tail: 'Looper.loop' });
  assert.deepEqual(stepParts({ drop: 'Choreographer#doFrame 1234567' }), { verb: 'Drop ', head: 'Choreographer#doFra', tail: 'me 1234567' });
  assert.deepEqual(stepParts({ drop: 'main' }), { verb: 'Drop ', head: 'main', tail: '' });
  const long = 'a.' + 'x'.repeat(60) + '.y';
  assert.equal(stepParts({ callers_of: long }).tail, long.slice(-10), 'a long tail is cut like a long thread name');
  for (const t of [{ merge: 'a.b.c' }, { drop: '.' }, { focus: 'x.' }]) {
    const p = stepParts(t);
    assert.equal(p.verb + p.head + p.tail, stepText(t));
  }
});

test('a frame\'s name is its tooltip without the time, whatever brackets the name has', () => {
  assert.equal(nameOfTitle('android.os.Looper.loop (6,224,530 µs, 100%)'), B);
  assert.equal(nameOfTitle('Choreographer#doFrame (12) (1,234 µs, 5.00%)'), 'Choreographer#doFrame (12)');
  assert.equal(nameOfTitle('odd <b>name</b>\n(x) (1 µs, 0.01%)'), 'odd <b>name</b>\n(x)');
  assert.equal(nameOfTitle('no time'), 'no time');
  assert.equal(threadFrameName({ name: 'a;b\nc', tid: 7 }), 'a:b c [7]', 'as folded text names it');
});

const titles = (...names) => ['all (100 µs, 100%)'].concat(names.map((n, i) => n + ' (' + (90 - i) + ' µs, 9' + i + '.00%)'));

test('a frame\'s menu names it in each item, and its subtree by its path from the root', () => {
  const items = menuItems(titles(B, A));
  assert.deepEqual(items.map((i) => i.label), [
    'Merge ' + A, 'Focus on ' + A, 'Focus on this subtree', 'Callers of ' + A, 'Drop ' + A,
    'Collapse recursion of ' + A, 'Collapse direct recursion of ' + A,
    'Collapse package com.*', 'Collapse package com.example.*', 'Show its callers and callees',
  ]);
  assert.deepEqual(items.map((i) => i.transform), [
    { merge: A }, { focus: A }, { focus_subtree: [B, A] }, { callers_of: A }, { drop: A },
    { collapse_recursion: A }, { collapse_direct_recursion: A },
    { collapse_package: 'com.' }, { collapse_package: 'com.example.' }, undefined,
  ]);
  assert.equal(items[3].invert, true, 'Callers of shows who calls it: bottom-up');
  assert.ok(items.every((i) => !i.disabled));
});

test('a native frame\'s menu collapses each library its frames come from', () => {
  const items = menuItems(titles('__libc_start_main', 'schedule_[k]'), { libraries: ['[kernel.kallsyms]'] });
  const collapses = items.filter((i) => i.transform && i.transform.collapse_library);
  assert.deepEqual(collapses.map((i) => [i.label, i.transform]), [['Collapse library [kernel.kallsyms]', { collapse_library: '[kernel.kallsyms]' }]]);
  assert.equal(items.filter((i) => i.transform && i.transform.collapse_package).length, 0, 'no package in a native name');
});

test('a frame\'s sandwich item opens the call tree at that function, leaving the view as it is', () => {
  const state = { view: { transforms: [{ merge: B }], invert: false }, viewHistory: [] };
  const sandwich = menuItems(titles(B, A)).find((i) => i.sandwich !== undefined);
  assert.equal(sandwich.sandwich, A);
  assert.deepEqual(chosenPatch(state, sandwich), { tab: 'tree', treeFunction: A });
});

test('the menu of the all-threads graph leaves the thread frame out of paths, and offers the thread itself', () => {
  const items = menuItems(titles('main [1]', B, A), { allThreads: true });
  assert.deepEqual(items[2].transform, { focus_subtree: [B, A] });
  assert.deepEqual(menuItems(titles('main [1]'), { allThreads: true }), [{ label: 'Show only main [1]', thread: 'main [1]' }]);
  const root = menuItems(titles());
  assert.deepEqual(root.map((i) => [i.disabled, i.transform]), [[true, undefined]], 'the root is the whole profile: nothing to do to it');
});

test('in a bottom-up graph a subtree cannot be focused on, and the item says why', () => {
  const subtree = menuItems(titles(A, B), { inverted: true })[2];
  assert.equal(subtree.disabled, true);
  assert.match(subtree.why, /Invert off/);
});

test('a package is the lower-case words before a class, outermost first; other names are in none', () => {
  assert.deepEqual(packagesOf('android.os.Handler.dispatchMessage'), ['android.', 'android.os.']);
  assert.deepEqual(packagesOf('kotlinx.coroutines.DispatchedTask.run'), ['kotlinx.', 'kotlinx.coroutines.']);
  assert.deepEqual(packagesOf('android.view.View$1.run'), ['android.', 'android.view.']);
  assert.deepEqual(packagesOf('a.B.c'), ['a.']);
  for (const name of ['Foo.bar', 'main', 'art::Thread::Run()', 'SyS_futex.cfi_[k]', 'libc.so', 'Choreographer#doFrame 12']) {
    assert.deepEqual(packagesOf(name), [], name);
  }
  assert.equal(stepText({ collapse_package: 'android.' }), 'Collapse package android.*', 'named as the frame it makes');
});

test('hiding kernel or native code is a step of the view, toggled on and off', async () => {
  const { withHidden, hides, stepText } = await import('../src/shared/transforms.js');
  const state = { view: { transforms: [{ merge: 'a.B.c' }], invert: true }, viewHistory: [] };
  const on = withHidden(state, 'kernel', true);
  assert.deepEqual(on.view, { transforms: [{ merge: 'a.B.c' }, { hide: 'kernel' }], invert: true });
  assert.equal(hides(on.view, 'kernel'), true);
  assert.equal(hides(on.view, 'native'), false);
  assert.deepEqual(withHidden({ ...state, ...on }, 'kernel', true), {}, 'already hidden: no change');
  const off = withHidden({ ...state, ...on }, 'kernel', false);
  assert.deepEqual(off.view, state.view);
  assert.equal(off.viewHistory.length, 2, 'each toggle can be undone');
  assert.equal(stepText({ hide: 'native' }), 'Hide native frames');
});
