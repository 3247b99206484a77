// The Heap view's words and columns: what a dump's totals read as, and the columns of its
// classes and objects tables (sort-table.js). No trace knowledge: the core's numbers, shown.

import { count, percent, sizeText } from '../shared/format.js';

/** Bytes as they read best: `512 bytes`, `4.2 KiB`. */
export function bytes(n) {
  return n === null || n === undefined ? '—' : sizeText(n);
}

/** The dump's totals in one line: reachable objects and bytes, what no root reaches. */
export function totalsLine(dump) {
  const heaps = dump.heaps.filter((h) => h.objects > 0);
  const parts = [count(dump.objects) + ' reachable objects, ' + bytes(dump.bytes)];
  if (heaps.length > 1) parts.push(heaps.map((h) => h.name + ' ' + bytes(h.bytes) + ' (' + percent(h.bytes, dump.bytes) + ')').join(', '));
  if (dump.unreachable.objects > 0) {
    parts.push(count(dump.unreachable.objects) + ' unreachable (' + bytes(dump.unreachable.bytes) + ', garbage the dump still held)');
  }
  return parts.join(' · ');
}

/** The GC roots by kind, most first: `sticky-class 3,645 · interned-string 7,388`. */
export function rootsLine(dump) {
  const kinds = Object.entries(dump.roots).sort((a, b) => b[1] - a[1]);
  return kinds.length === 0 ? 'none' : kinds.map(([kind, n]) => kind + ' ' + count(n)).join(' · ');
}

/** `part` of `whole` as a percentage; `<0.1%` for a small part that is not none. */
export function share(part, whole) {
  return part > 0 && part * 1000 < whole ? '<0.1%' : percent(part, whole);
}

/** The classes (or packages) table's columns; `total` is the dump's reachable bytes. */
export function classColumns(byPackage, total) {
  return [
    { id: 'name', label: byPackage ? 'Package' : 'Class', value: (r) => r.name, cell: (r) => r.name || '(no package: primitives and arrays of them)', text: true, title: (r) => r.name },
    { id: 'count', label: 'Objects', value: (r) => r.count, cell: (r) => count(r.count), className: 'n' },
    { id: 'shallow', label: 'Shallow', value: (r) => r.shallow, cell: (r) => bytes(r.shallow), className: 'n',
      hint: 'The bytes of the objects themselves' },
    { id: 'retained', label: 'Retained', value: (r) => r.retained, cell: (r) => bytes(r.retained), className: 'n',
      hint: 'The bytes they keep alive together: freed if they all were' },
    { id: 'share', label: '%', value: (r) => r.retained, cell: (r) => share(r.retained, total), className: 'n',
      hint: 'Retained, as a share of every reachable byte' },
  ];
}

/** The objects table's columns; `link(id)`, where given, makes a dominator's cell a link. */
export function objectColumns(link = null) {
  return [
    { id: 'id', label: 'Object', value: (r) => r.id, cell: (r) => r.id, text: true, className: 'mono' },
    { id: 'heap', label: 'Heap', value: (r) => r.heap, cell: (r) => r.heap, text: true },
    { id: 'shallow', label: 'Shallow', value: (r) => r.shallow, cell: (r) => bytes(r.shallow), className: 'n' },
    { id: 'retained', label: 'Retained', value: (r) => r.retained, cell: (r) => bytes(r.retained), className: 'n' },
    { id: 'dominator', label: 'Dominator', value: (r) => r.dominator || '', cell: (r) => r.dominator || 'GC roots', text: true,
      className: 'mono', hint: 'The object that alone keeps it alive (GC roots: no single object does)',
      render: link ? (r) => (r.dominator ? link(r.dominator) : 'GC roots') : undefined },
  ];
}

/** Rows for sort-table.js, which filters by `name` and `signature`. */
export function asRows(list, nameOf) {
  return list.map((r) => Object.assign({ signature: '' }, r, { name: nameOf(r) }));
}
