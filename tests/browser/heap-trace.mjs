// Writes a small Perfetto heap profile (one heapprofd dump) by the field numbers of
// `profile_packet.proto` and `interned_data.proto`, for browser tests that need two.

function varint(out, value) {
  let v = BigInt(value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

/** A message: `[field, value]` pairs; a value is a number, a string, or nested pairs. */
function message(fields) {
  const out = [];
  for (const [field, value] of fields) {
    if (typeof value === 'number') {
      varint(out, field * 8);
      varint(out, value);
    } else {
      const body = typeof value === 'string' ? [...Buffer.from(value)] : message(value);
      varint(out, field * 8 + 2);
      varint(out, body.length);
      out.push(...body);
    }
  }
  return out;
}

/**
 * Dumps of `heap` of process `pid`, one a second: each `rows` of `{stack: ['main', 'malloc'],
 * allocated, freed}` (running totals), functions of libc. `rows` alone is one dump.
 */
export function heapTrace({ pid = 4242, heap = 'malloc', rows, dumps = [rows] }) {
  const all = dumps.flat();
  const stacks = [...new Set(all.map((r) => r.stack.join(';')))].map((s) => s.split(';'));
  const names = [...new Set(stacks.flat())];
  const interned = [
    [17, [[1, 1], [2, 'libc.so']]],
    [19, [[1, 1], [7, 1]]],
    ...names.map((name, i) => [5, [[1, 100 + i], [2, name]]]),
    ...names.map((name, i) => [6, [[1, 200 + i], [2, 100 + i], [3, 1], [4, 16 * i]]]),
    ...stacks.map((stack, i) => [7, [[1, 300 + i], ...stack.map((name) => [2, 200 + names.indexOf(name)])]]),
  ];
  const stackId = (r) => 300 + stacks.findIndex((s) => s.join(';') === r.stack.join(';'));
  const packets = dumps.map((rowsOfDump, d) => {
    const samples = rowsOfDump.map((r) => [2, [[1, stackId(r)], [2, r.allocated], [3, r.freed || 0], [5, Math.ceil(r.allocated / 16)], [6, Math.ceil((r.freed || 0) / 16)]]]);
    const at = (5 + d) * 1_000_000_000;
    const dump = [[1, pid], ...samples, [9, at], [11, heap]];
    const first = d === 0 ? [[13, 1], [12, interned]] : [];
    return [1, [[8, at], [10, 1], ...first, [37, [[5, dump], [7, d]]]]];
  });
  return Uint8Array.from(message(packets));
}

/**
 * A Java heap dump as a Perfetto heap graph (`heap_graph.proto`, as ART writes it): the
 * static `com.example.Holder.list` (its class object a sticky-class root) holds an
 * `Object[]` of `leaks` instances of `com.example.Leak` (24 bytes each) and `others` of
 * `com.example.Other` (16 bytes).
 */
export function javaHeapGraph({ pid = 4242, leaks, others }) {
  const leakIds = Array.from({ length: leaks }, (_, i) => 0x2000 + 16 * i);
  const otherIds = Array.from({ length: others }, (_, i) => 0x3000 + 16 * i);
  const types = [
    [1, 'java.lang.Object', 8, 0, 1], [2, 'com.example.Leak', 24, 1, 1], [3, 'com.example.Other', 16, 1, 1],
    [4, 'java.lang.Object[]', 0, 1, 4],
  ].map(([id, name, size, superclass, kind]) => [9, [[1, id], [3, name], [4, size], [5, superclass], [7, kind]]]);
  types.push([9, [[1, 5], [3, 'java.lang.Class<com.example.Holder>']]]);
  const elements = [...leakIds, ...otherIds];
  const objects = [
    [2, [[1, 0x100], [2, 5], [3, 100], [4, 1], [5, 0x1000], [9, 1]]],
    [2, [[1, 0x1000], [2, 4], [3, 4 * elements.length], ...elements.map((id) => [5, id])]],
    ...leakIds.map((id) => [2, [[1, id], [2, 2]]]),
    ...otherIds.map((id) => [2, [[1, id], [2, 3]]]),
  ];
  const graph = [[1, pid], [7, [[1, 0x100], [2, 5]]], ...types, ...objects,
    [4, [[1, 1], [2, 'java.lang.Object[] com.example.Holder.list']]], [5, 0], [6, 0]];
  return Uint8Array.from(message([[1, [[8, 1_000_000_000], [10, 1], [56, graph]]]]));
}
