import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeInto, feed, head, readAgain, sizeOf, toBytes } from '../src/engine/feed.js';

// Records what the engine would be given.
function recorder() {
  return { pushed: [], keyEnd: -1, finished: false,
    push(chunk) { this.pushed.push(Array.from(chunk)); },
    endOfKeyFile() { this.keyEnd = this.pushed.length; },
    finish() { this.finished = true; } };
}

test('inputs are fed in slices, never whole', async () => {
  const session = recorder();
  const progress = [];
  await feed(session, new Uint8Array([1, 2, 3, 4, 5]), (n) => progress.push(n), 2);
  assert.deepEqual(session.pushed, [[1, 2], [3, 4], [5]]);
  assert.deepEqual(progress, [2, 2, 1]);
  const blob = recorder();
  await feed(blob, new Blob([new Uint8Array([9, 8, 7])]), () => {}, 2);
  assert.deepEqual(blob.pushed, [[9, 8], [7]]);
});

test('bytes are accepted as Uint8Array, ArrayBuffer, other views and Blobs', async () => {
  const bytes = new Uint8Array([1, 2, 3, 4]);
  assert.equal(toBytes(bytes.buffer).length, 4);
  assert.deepEqual(Array.from(toBytes(new DataView(bytes.buffer, 1, 2))), [2, 3]);
  assert.equal(sizeOf(new Blob([bytes])), 4);
  assert.deepEqual(Array.from(await head(new Blob([bytes]), 2)), [1, 2]);
  assert.throws(() => toBytes('text'), /Uint8Array, an ArrayBuffer or a Blob/);
});

test('a split trace is fed key first, whichever order it came in', async () => {
  const session = recorder();
  const data = new Uint8Array([83, 76, 79, 87]);
  const key = new Uint8Array([42, 118]);
  const done = [];
  await analyzeInto(session, [data, key], (first) => first[0] === 83, (d, total) => done.push([d, total]));
  assert.deepEqual(session.pushed, [[42, 118], [83, 76, 79, 87]]);
  assert.equal(session.keyEnd, 1);
  assert.ok(session.finished);
  assert.deepEqual(done, [[2, 6], [6, 6]]);
  await assert.rejects(analyzeInto(recorder(), [], () => false), /open one trace file/);
});

test('reading again starts at the offset and stops once the reading needs no more', async () => {
  const bytes = new Blob([new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])]);
  const enough = { pushed: [], push(chunk) { this.pushed.push(Array.from(chunk)); return this.pushed.length === 2; } };
  const progress = [];
  assert.equal(await readAgain(enough, bytes, 3, () => false, (n) => progress.push(n), 3), true);
  assert.deepEqual(enough.pushed, [[3, 4, 5], [6, 7, 8]], 'nothing after the answer that says enough');
  assert.deepEqual(progress, [3]);
  // The input ends first: every byte after the offset was given.
  const hungry = { pushed: [], push(chunk) { this.pushed.push(Array.from(chunk)); return false; } };
  assert.equal(await readAgain(hungry, new Uint8Array([1, 2, 3]), 1, () => false, () => {}, 4), true);
  assert.deepEqual(hungry.pushed, [[2, 3]]);
});

test('reading again stops, answering false, when a newer request cancels it', async () => {
  let cancelled = false;
  const reading = { pushed: 0, push() { this.pushed++; cancelled = this.pushed === 2; return false; } };
  assert.equal(await readAgain(reading, new Uint8Array(10), 0, () => cancelled, () => {}, 2), false);
  assert.equal(reading.pushed, 2, 'no slice is pushed once cancelled');
});

test('the next slice is being read while one is pushed, and a failed push stops the feeding', async () => {
  const reads = [];
  const input = new Blob([new Uint8Array([1, 2, 3, 4, 5])]);
  const original = input.slice.bind(input);
  input.slice = (from, to) => {
    reads.push([from, to]);
    return original(from, to);
  };
  const order = [];
  const session = { push(chunk) { order.push('push ' + chunk[0] + ' after ' + reads.length + ' reads'); } };
  await feed(session, input, () => {}, 2);
  assert.deepEqual(reads, [[0, 2], [2, 4], [4, 5]]);
  assert.deepEqual(order, ['push 1 after 2 reads', 'push 3 after 3 reads', 'push 5 after 3 reads']);
  const failing = { push() { throw new Error('damaged'); } };
  await assert.rejects(feed(failing, new Blob([new Uint8Array(10)]), () => {}, 2), /damaged/);
});
