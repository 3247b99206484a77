// The Heap view's words and columns, from a summary's `heap_dump` as the core writes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asRows, classColumns, objectColumns, rootsLine, share, totalsLine } from '../src/heap/heap-tables.js';
import { growthNote, inTakenOrder, steps } from '../src/heap/heap-series.js';

const DUMP = {
  objects: 44065, bytes: 2603312,
  heaps: [{ name: 'zygote', objects: 40956, bytes: 2441330 }, { name: 'app', objects: 3109, bytes: 161982 }, { name: 'image', objects: 0, bytes: 0 }],
  roots: { 'jni-global': 268, 'sticky-class': 3645, debugger: 3 },
  unreachable: { objects: 347, bytes: 51420 },
};

test('the totals read as reachable objects and bytes, each heap with objects, and the garbage', () => {
  assert.equal(totalsLine(DUMP),
    '44,065 reachable objects, 2.5 MiB · zygote 2.3 MiB (93.8%), app 158 KiB (6.2%) · 347 unreachable (50 KiB, garbage the dump still held)');
  const one = { ...DUMP, heaps: [{ name: 'default', objects: 5, bytes: 80 }], unreachable: { objects: 0, bytes: 0 } };
  assert.equal(totalsLine({ ...one, objects: 5, bytes: 80 }), '5 reachable objects, 80 bytes');
  assert.equal(rootsLine(DUMP), 'sticky-class 3,645 · jni-global 268 · debugger 3');
  assert.equal(rootsLine({ roots: {} }), 'none');
});

test('the classes and objects tables show sizes in binary units and the GC roots as a dominator', () => {
  const columns = classColumns(false, 2000);
  const row = { name: 'byte[]', count: 3, shallow: 1024, retained: 1500 };
  assert.deepEqual(columns.map((c) => c.cell(row)), ['byte[]', '3', '1.0 KiB', '1.5 KiB', '75.0%']);
  assert.equal(classColumns(true, 1)[0].cell({ name: '' }), '(no package: primitives and arrays of them)');
  const object = { id: '0xb0cc6c78', class: 'A', heap: 'zygote', shallow: 206, retained: 252694, dominator: null };
  assert.deepEqual(objectColumns().map((c) => c.cell(object)), ['0xb0cc6c78', 'zygote', '206 bytes', '247 KiB', 'GC roots']);
  assert.deepEqual(asRows([object], (r) => r.id + ' ' + r.class).map((r) => [r.name, r.signature]), [['0xb0cc6c78 A', '']]);
});

test('a small share reads as under a tenth of a percent, not as none', () => {
  assert.equal(share(1, 10000), '<0.1%');
  assert.equal(share(0, 10000), '0.0%');
  assert.equal(share(10, 10000), '0.1%');
});

test('a series takes its dumps in name order, numbers by value, and says what grew', () => {
  const files = ['dump-10.hprof', 'dump-9.hprof', 'dump-2.hprof'].map((name) => ({ name }));
  assert.deepEqual(inTakenOrder(files).map((f) => f.name), ['dump-2.hprof', 'dump-9.hprof', 'dump-10.hprof']);
  assert.equal(steps([12, 1400, 2800]), '12 → 1,400 → 2,800');
  const growth = { dumps: ['a.hprof', 'b.hprof', 'c.hprof'], classes: [], paths: [], classes_total: 1, paths_total: 3 };
  assert.equal(growthNote(growth), 'Dumps in order: a.hprof, b.hprof, c.hprof. 1 class grows and 3 paths grow at every step.');
  assert.equal(growthNote({ ...growth, classes_total: 0, paths_total: 0 }),
    'Dumps in order: a.hprof, b.hprof, c.hprof. Nothing grows at every step: no class or path keeps gaining objects.');
  assert.match(growthNote({ ...growth, reordered: true }), /^Dumps in the order taken, as each records: a\.hprof, b\.hprof, c\.hprof\. /);
  assert.match(growthNote({ ...growth, classes_total: 250 }), /250 classes grow and 3 paths grow at every step \(the 100 that add the most are listed\)\.$/);
});
