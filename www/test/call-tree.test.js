import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ROOT, ancestry, callTree, childrenOf, findNodes, framePath, heaviestPath, isThread, nameOf, openTo, timeOf,
  visibleRows,
} from '../src/tree/call-tree.js';
import { matchedWords } from '../src/tree/tree-view.js';
import { pathMenuItems, sandwichViews } from '../src/shared/transforms.js';

const NONE = 4294967295;

// The core's columns for: main;loop;a 50 (cpu 40), main;loop;b;a 30 (cpu 5), main;loop 10,
// main;idle 10 — a parent before its children, siblings in no particular order.
function table() {
  const names = ['loop', 'a', 'b', 'idle'];
  const rows = [
    // [parent, name, total_wall, self_wall, total_cpu, self_cpu, calls]
    [NONE, NONE, 100, 0, 45, 0, 0],
    [0, 3, 10, 10, 0, 0, 1], // 1 idle
    [0, 0, 90, 10, 45, 0, 1], // 2 loop
    [2, 2, 30, 0, 5, 0, 3], // 3 b
    [2, 1, 50, 50, 40, 40, 7], // 4 a
    [3, 1, 30, 30, 5, 5, 3], // 5 b;a
  ];
  const column = (i) => rows.map((r) => r[i]);
  return {
    names, parent: column(0), name: column(1), total_wall: column(2), self_wall: column(3), total_cpu: column(4),
    self_cpu: column(5), calls: column(6),
  };
}

test('children come heaviest first on the clock asked for', () => {
  const tree = callTree(table());
  assert.deepEqual(childrenOf(tree, ROOT, 'wall').map((n) => nameOf(tree, n)), ['loop', 'idle']);
  assert.deepEqual(childrenOf(tree, 2, 'wall').map((n) => nameOf(tree, n)), ['a', 'b']);
  // Equal on the CPU clock (idle 0, loop 45), then as ordered.
  assert.deepEqual(childrenOf(tree, 2, 'cpu').map((n) => nameOf(tree, n)), ['a', 'b']);
  assert.equal(timeOf(tree, 4, 'cpu', 'self'), 40);
  assert.deepEqual(childrenOf(tree, 5, 'wall'), []);
});

test('the heaviest path runs from the root to the heaviest leaf, and stops where time runs out or is the frame\'s own', () => {
  const tree = callTree(table());
  assert.deepEqual(heaviestPath(tree, 'wall').map((n) => nameOf(tree, n)), ['', 'loop', 'a']);
  const own = table();
  own.self_wall[2] = 60;
  assert.deepEqual(heaviestPath(callTree(own), 'wall').map((n) => nameOf(callTree(own), n)), ['', 'loop'],
    'loop spends more itself than its heaviest callee: the path stops at it');
  const zero = table();
  zero.total_cpu = zero.total_cpu.map(() => 0);
  assert.deepEqual(heaviestPath(callTree(zero), 'cpu'), [ROOT], 'nothing on that clock: nothing opens');
});

test('rows on show follow the open nodes, in order, and a limit says how many it left out', () => {
  const tree = callTree(table());
  const shown = (open, limit) => visibleRows(tree, new Set(open), 'wall', limit);
  assert.deepEqual(shown([]).rows.map((r) => [nameOf(tree, r.node), r.depth]), [['loop', 1], ['idle', 1]]);
  assert.deepEqual(shown([2, 3]).rows.map((r) => [nameOf(tree, r.node), r.depth]),
    [['loop', 1], ['a', 2], ['b', 2], ['a', 3], ['idle', 1]]);
  assert.deepEqual(shown([2, 3], 2), { rows: [{ node: 2, depth: 1 }, { node: 4, depth: 2 }], more: 3 });
});

test('search finds each node of a name, heaviest first, and opens its ancestors only', () => {
  const tree = callTree(table());
  const found = findNodes(tree, '  A ', 'wall');
  assert.deepEqual(found, { nodes: [4, 5], total: 2 });
  assert.deepEqual([...openTo(found.nodes, tree)].sort(), [2, 3]);
  assert.deepEqual(findNodes(tree, 'a', 'wall', 1), { nodes: [4], total: 2 });
  assert.deepEqual(findNodes(tree, '', 'wall'), { nodes: [], total: 0 });
  assert.equal(matchedWords({ nodes: [4], total: 2 }), '2 frames match (the heaviest 1 opened)');
  assert.equal(matchedWords({ nodes: [4], total: 1 }), '1 frame matches');
  assert.equal(matchedWords({ nodes: [], total: 0 }), 'No frame matches');
});

test('paths: a node from the root; threads are not frames of it', () => {
  const tree = callTree(table());
  assert.deepEqual(ancestry(tree, 5), [0, 2, 3, 5]);
  assert.deepEqual(framePath(tree, 5), ['loop', 'b', 'a']);
  // Every thread: node 0's children are threads, named by their labels.
  const all = table();
  all.names.push('main [1]');
  all.parent = [NONE, 0, 1, 1, 3, 3, 4];
  all.name = [NONE, 4, 3, 0, 2, 1, 1];
  for (const key of ['total_wall', 'self_wall', 'total_cpu', 'self_cpu', 'calls']) all[key] = [all[key][0], all[key][0], ...all[key].slice(1)];
  all.self_wall[1] = 0;
  const threads = callTree(all, true);
  assert.equal(isThread(threads, 1), true);
  assert.equal(isThread(threads, 3), false);
  assert.deepEqual(framePath(threads, 6), ['loop', 'b', 'a']);
});

test('the sandwich of a function: its callers bottom-up, its callees as a focus, after the view\'s own steps', () => {
  const views = sandwichViews({ transforms: [{ merge: 'x' }], invert: true }, 'a;b');
  assert.deepEqual(JSON.parse(views.callers), { transforms: [{ merge: 'x' }, { callers_of: 'a;b' }], invert: true });
  assert.deepEqual(JSON.parse(views.callees), { transforms: [{ merge: 'x' }, { focus: 'a;b' }], invert: false });
});

test('a tree row\'s menu: a subtree from the root, unless the tree does not start at the roots', () => {
  const items = pathMenuItems(['loop', 'b']);
  assert.deepEqual(items[2], { label: 'Focus on this subtree', transform: { focus_subtree: ['loop', 'b'] } });
  assert.deepEqual(items.map((i) => i.label).slice(0, 2), ['Merge b', 'Focus on b']);
  const inSandwich = pathMenuItems(['a', 'b'], { noSubtree: 'why' })[2];
  assert.deepEqual([inSandwich.disabled, inSandwich.why], [true, 'why']);
});
