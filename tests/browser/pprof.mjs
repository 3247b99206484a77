// Reads a gzipped pprof file (profile.proto) back, as a viewer of it would, into folded
// stacks: the fields below are profile.proto's numbers (Profile: sample_type 1, sample 2,
// location 4, function 5, string_table 6; Sample: location_id 1, value 2, label 3; Label:
// key 1, str 2; Location: id 1, line 4; Line: function_id 1; Function: id 1, name 2;
// ValueType: type 1, unit 2). Only what the tests compare is kept.
import zlib from 'node:zlib';

// The fields of one message: [number, value], where value is a number (varint) or bytes.
function fields(bytes) {
  const out = [];
  let at = 0;
  const varint = () => {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('a varint runs past the end of its message');
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
      shift += 7n;
    }
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const [number, wire] = [key >> 3, key & 7];
    if (wire === 0) out.push([number, varint()]);
    else if (wire === 2) {
      const length = Number(varint());
      out.push([number, bytes.subarray(at, at + length)]);
      at += length;
    } else throw new Error('wire type ' + wire + ' is not used by profile.proto\'s fields here');
  }
  return out;
}

// A repeated integer field, packed (bytes) or not (one varint each).
function integers(list, number) {
  const values = [];
  for (const [n, value] of list) {
    if (n !== number) continue;
    if (typeof value === 'bigint') values.push(value);
    else {
      let at = 0;
      while (at < value.length) {
        let v = 0n;
        let shift = 0n;
        for (;;) {
          const byte = value[at++];
          v |= BigInt(byte & 0x7f) << shift;
          if (byte < 0x80) break;
          shift += 7n;
        }
        values.push(v);
      }
    }
  }
  return values.map(Number);
}

const one = (list, number) => (list.find(([n]) => n === number) || [null, 0n])[1];

/**
 * `{types: ['wall/microseconds', …], stacks: Map<'thread;root;…;leaf', [values]>}` from the
 * gzipped bytes: each sample's stack root first behind its `thread` label, equal stacks added.
 */
export function readPprof(gzipped) {
  const profile = fields(zlib.gunzipSync(gzipped));
  const strings = profile.filter(([n]) => n === 6).map(([, b]) => Buffer.from(b).toString('utf8'));
  const types = profile.filter(([n]) => n === 1).map(([, b]) => {
    const t = fields(b);
    return strings[Number(one(t, 1))] + '/' + strings[Number(one(t, 2))];
  });
  const functions = new Map();
  for (const [n, b] of profile) {
    if (n !== 5) continue;
    const f = fields(b);
    functions.set(Number(one(f, 1)), strings[Number(one(f, 2))]);
  }
  const locations = new Map();
  for (const [n, b] of profile) {
    if (n !== 4) continue;
    const l = fields(b);
    const lines = l.filter(([k]) => k === 4).map(([, line]) => functions.get(Number(one(fields(line), 1))));
    // A location's lines run from the innermost (inlined) to its caller.
    locations.set(Number(one(l, 1)), lines);
  }
  const stacks = new Map();
  for (const [n, b] of profile) {
    if (n !== 2) continue;
    const s = fields(b);
    const label = s.filter(([k]) => k === 3).map(([, l]) => fields(l))
      .find((l) => strings[Number(one(l, 1))] === 'thread');
    const leafFirst = integers(s, 1).flatMap((id) => locations.get(id));
    const key = [strings[Number(one(label, 2))]].concat(leafFirst.reverse()).join(';');
    const values = integers(s, 2);
    const sum = stacks.get(key) || values.map(() => 0);
    stacks.set(key, sum.map((v, i) => v + values[i]));
  }
  return { types, stacks };
}
