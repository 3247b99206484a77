// The logic of the views, without a browser: orders, filters, edges and facts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextIndex } from '../src/shared/list-keys.js';
import { threadOrder, threadMatches, allThreadsTotal } from '../src/trace/threads.js';
import { columns, relatives } from '../src/methods/methods.js';
import { columnGroups, shownText, tableOrder } from '../src/shared/sort-table.js';

const methodOrder = (rows, filter, sort, cols) => tableOrder(rows, filter, sort, cols, 'incl');
import { factsLine, traceRows } from '../src/trace/facts.js';
import { chooseFiles, filesOfEntries, sortFiles } from '../src/input/input.js';
import { summary } from './golden.js';

test('arrow keys, Home, End and paging move inside a list and stop at its ends', () => {
  assert.equal(nextIndex('ArrowDown', 0, 3), 1);
  assert.equal(nextIndex('ArrowDown', 2, 3), 2);
  assert.equal(nextIndex('ArrowUp', 0, 3), 0);
  assert.equal(nextIndex('End', 0, 40), 39);
  assert.equal(nextIndex('Home', 7, 40), 0);
  assert.equal(nextIndex('PageDown', 35, 40), 39);
  assert.equal(nextIndex('PageUp', 5, 40), 0);
  assert.equal(nextIndex('a', 1, 3), null);
  assert.equal(nextIndex('ArrowDown', 0, 0), null);
});

test('threads sort busiest first by CPU time, then wall time, grouped under the busiest process', () => {
  // An idle thread (most wall time, blocked in a wait) sorts after the busy ones.
  const plain = [{ wall_us: 5, cpu_us: 50 }, { wall_us: 90, cpu_us: 1 }, { wall_us: 5, cpu_us: null }, { wall_us: 7, cpu_us: 1 }];
  assert.deepEqual(threadOrder(plain), [0, 1, 3, 2]);
  const wallOnly = [{ wall_us: 5, cpu_us: null }, { wall_us: 9, cpu_us: null }];
  assert.deepEqual(threadOrder(wallOnly), [1, 0]);
  const grouped = [
    { pid: 1, wall_us: 10 }, { pid: 2, wall_us: 7 }, { pid: 2, wall_us: 6 }, { pid: 1, wall_us: 1 },
  ];
  assert.deepEqual(threadOrder(grouped), [1, 2, 0, 3], 'process 2 (13) before process 1 (11)');
  const busyProcess = [
    { pid: 1, wall_us: 100, cpu_us: 1 }, { pid: 2, wall_us: 7, cpu_us: 5 }, { pid: 1, wall_us: 50, cpu_us: 2 },
  ];
  assert.deepEqual(threadOrder(busyProcess), [1, 2, 0], 'process 2 has more CPU time');
  const t = { name: 'RenderThread', tid: 42, process: 'com.example', pid: 7 };
  assert.ok(threadMatches(t, 'render'));
  assert.ok(threadMatches(t, 'example'));
  assert.ok(threadMatches(t, '42'));
  assert.ok(!threadMatches(t, 'binder'));
  assert.equal(allThreadsTotal({ totals: { wall_us: 3, cpu_us: null } }, 'cpu'), null);
});

const table = {
  methods: [
    { name: 'a.A.run', signature: '()V', calls: 1, recursive_calls: 0, incl_wall_us: 100, excl_wall_us: 10, incl_cpu_us: 9, excl_cpu_us: 1 },
    { name: 'b.B.draw', signature: '(I)V', calls: 4, recursive_calls: 2, incl_wall_us: 80, excl_wall_us: 70, incl_cpu_us: 50, excl_cpu_us: 40 },
  ],
  edges: [
    { caller: null, callee: 0, calls: 1, recursive_calls: 0, incl_wall_us: 100, incl_cpu_us: 9 },
    { caller: 0, callee: 1, calls: 3, recursive_calls: 0, incl_wall_us: 80, incl_cpu_us: 50 },
    { caller: 1, callee: 1, calls: 1, recursive_calls: 1, incl_wall_us: 20, incl_cpu_us: 5 },
  ],
};

test('methods sort by any column and filter by name or signature', () => {
  const method = summary.method();
  const cols = columns('wall', method, 110);
  assert.deepEqual(methodOrder(table.methods, '', { column: 'incl', descending: true }, cols), [0, 1]);
  assert.deepEqual(methodOrder(table.methods, '', { column: 'excl', descending: true }, cols), [1, 0]);
  assert.deepEqual(methodOrder(table.methods, '', { column: 'name', descending: false }, cols), [0, 1]);
  assert.deepEqual(methodOrder(table.methods, '(I', { column: 'incl', descending: true }, cols), [1]);
  assert.deepEqual(methodOrder(table.methods, 'DRAW', { column: 'incl', descending: true }, cols), [1]);
  assert.equal(columns('wall', summary.system())[0].label, 'Slice');
  assert.equal(columns('cpu', summary.samples())[0].label, 'Function');
  // The other clock's columns are under what it measures, as the core words it for the trace.
  const other = (clock, s) => columnGroups(columns(clock, s)).map((g) => g.group);
  assert.deepEqual(other('cpu', method), ['wall time']);
  assert.deepEqual(other('wall', method), ['thread CPU time']);
  assert.deepEqual(other('wall', summary.samples()), ['on-CPU time']);
  assert.equal(columns('cpu', summary.threadCpu()).find((c) => c.id === 'other-incl'), undefined,
    'no columns of a clock the trace lacks');
  assert.equal(cols.find((c) => c.id === 'incl%').cell(table.methods[1]), '72.7%');
  // Calls count recursion apart; samples count each stack once, in the core's word.
  const heading = (s) => columns('cpu', s).filter((c) => ['calls', 'recursive'].includes(c.id)).map((c) => c.label);
  assert.deepEqual(heading(method), ['Calls', 'Recursive']);
  assert.deepEqual(heading(summary.samples()), ['Samples']);
  assert.equal(shownText(12, 500, 'method'), '12 methods shown. ');
  assert.equal(shownText(1, 500, 'method'), '1 method shown. ');
  assert.equal(shownText(1234, 500, 'slices'), 'Showing 500 of 1,234; filter to see others. ');
  // A filter says how many of all it left, or that it left none.
  assert.equal(shownText(3, 500, 'method', 42), '3 of 42 methods shown. ');
  assert.equal(shownText(0, 500, 'method', 42), 'No method matches the filter. ');
});

test('callers and callees are named rows, costliest first, recursion marked', () => {
  assert.deepEqual(relatives(table, 1, 'callers', 'wall'), [
    { method: 0, calls: 3, recursive: 0, us: 80 },
    { method: 1, calls: 1, recursive: 1, us: 20 },
  ]);
  assert.deepEqual(relatives(table, 0, 'callers', 'cpu'), [{ method: null, calls: 1, recursive: 0, us: 9 }]);
  assert.deepEqual(relatives(table, 0, 'callees', 'wall').map((r) => r.method), [1]);
});

test('facts and the Trace tab come from the summary as it is', () => {
  const method = summary.method();
  assert.equal(factsLine(method), 'Method trace, regular v3 · clock dual · VM dalvik · elapsed 312 µs · 23 records · 1 thread');
  assert.equal(factsLine(summary.samples()), 'Callstack samples (simpleperf: cpu-clock + off-CPU) · clock dual · pid 7657 · ' +
    'elapsed 1.97 s · 1,234 records · 14 threads · sampled every ~250 µs');
  assert.match(factsLine(summary.system()), / · 4 threads$/, 'async tracks are not threads');
  // A heap dump's stacks are its heaps'.
  const dump = Object.assign(summary.method(), { heap_dump: { objects: 3, bytes: 30, heaps: [] } });
  assert.match(factsLine(dump), / · 1 heap$/);
  const rows = traceRows(method);
  assert.deepEqual(rows.find((r) => r[1] === 'clocks'), ['format', 'clocks', 'wall, cpu']);
  assert.deepEqual(rows.find((r) => r[1] === 'sampling_interval_us'), ['format', 'sampling_interval_us', '—']);
  assert.deepEqual(rows.find((r) => r[0] === 'repairs'), ['repairs', 'unmatched_exits', '3']);
  assert.deepEqual(rows.find((r) => r[1] === 'max_drawn_depth'), ['limits', 'max_drawn_depth', '1024']);
  assert.deepEqual(rows[rows.length - 1], ['header', 'vm', 'dalvik']);
  // The clock words are an object: said as pairs, never "[object Object]".
  const words = rows.find((r) => r[1] === 'clock_words');
  assert.ok(words && !words[2].includes('[object') && words[2].includes('wall: '), String(words));
});

test('any number of files is taken: one trace, a split trace, two to compare, or runs', () => {
  assert.deepEqual(chooseFiles([]).files, []);
  assert.equal(chooseFiles(['a']).files.length, 1);
  assert.equal(chooseFiles(['a.key', 'a.data']).files.length, 2);
  assert.equal(chooseFiles(['a', 'b', 'a.txt', 'b.txt']).files.length, 4);
  assert.equal(chooseFiles(['a', 'b', 'c', 'd', 'e']).files.length, 5);
});

test('dropped files split into traces and at most two mapping files', () => {
  const sorted = sortFiles(['before', 'm1', 'after', 'm2'], ['trace', 'mapping', 'trace', 'mapping']);
  assert.deepEqual(sorted, { traces: ['before', 'after'], mappings: ['m1', 'm2'] });
  assert.deepEqual(sortFiles(['m'], ['mapping']), { traces: [], mappings: ['m'] });
  assert.deepEqual(sortFiles(['a', 'b', 'c'], ['trace', 'trace', 'trace']), { traces: ['a', 'b', 'c'], mappings: [] });
  assert.deepEqual(sortFiles(['a', 'b', 'c', 'm'], ['trace', 'trace', 'trace', 'mapping']), { traces: ['a', 'b', 'c'], mappings: ['m'] });
  assert.match(sortFiles(['a', 'b', 'c'], ['mapping', 'mapping', 'mapping']).error, /got 0 traces and 3 mapping/);
});

// Entries as a drop gives them: files, and folders read a batch at a time.
function fileEntry(fullPath) {
  const name = fullPath.split('/').pop();
  return { isFile: true, isDirectory: false, name, fullPath, file: (ok) => ok(new File(['x'], name)) };
}
function folderEntry(fullPath, children, batch = 2) {
  return {
    isFile: false, isDirectory: true, name: fullPath.split('/').pop(), fullPath,
    createReader() {
      let at = 0;
      return { readEntries: (ok) => { const some = children.slice(at, at + batch); at += batch; ok(some); } };
    },
  };
}

test('a dropped folder gives every file in it with its path from the folder, hidden ones left out', async () => {
  const runs = folderEntry('/runs', [
    folderEntry('/runs/before', ['r1', 'r2', 'r3'].map((n) => fileEntry('/runs/before/' + n + '.trace'))),
    folderEntry('/runs/after', ['r1', 'r2', 'r3'].map((n) => fileEntry('/runs/after/' + n + '.trace'))),
    fileEntry('/runs/.DS_Store'),
    folderEntry('/runs/.git', [fileEntry('/runs/.git/HEAD')]),
    fileEntry('/runs/mapping.txt'),
  ]);
  const files = await filesOfEntries([runs, fileEntry('/loose.trace')]);
  assert.deepEqual(files.map((f) => f.webkitRelativePath || f.name), [
    'runs/before/r1.trace', 'runs/before/r2.trace', 'runs/before/r3.trace',
    'runs/after/r1.trace', 'runs/after/r2.trace', 'runs/after/r3.trace', 'runs/mapping.txt', 'loose.trace']);
  assert.equal(files[0].name, 'r1.trace');
});

test('a folder that cannot be read says which, and what to do instead', async () => {
  const broken = { isFile: false, isDirectory: true, name: 'runs', fullPath: '/runs',
    createReader: () => ({ readEntries: (_, fail) => fail(new Error('NotReadableError')) }) };
  await assert.rejects(filesOfEntries([broken]), /Could not read runs from the drop: NotReadableError\. Drop its files instead/);
});
