import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeInPieces, BLOCK, Helpers, MAX_WORKERS, readAhead, readPiece, WARM_HELPERS, workersFor } from '../src/engine/pieces.js';

// A piece that reads as far as the blocks given to it hold, from `from` to `to`.
function fakePiece(from, to) {
  return {
    blocks: [], at: from, freed: false,
    give(at, bytes) { this.blocks.push([at, bytes.length]); },
    read(all) {
      for (const [at, length] of this.blocks) if (at <= this.at && at + length > this.at) this.at = Math.min(to, at + length);
      if (all) this.at = to;
      return this.at - from;
    },
    done() { return this.at === to; },
  };
}

// A core that cuts a file into pieces of `sizes` bytes, and joins what it was given.
function fakeWasm(sizes, { joins = true } = {}) {
  const made = { joins: [], reads: [] };
  const range = (at) => {
    const from = sizes.slice(0, at).reduce((a, b) => a + b, 0);
    return [from, from + sizes[at]];
  };
  class PieceJoin {
    constructor(file, calls, maxCalls, wanted, piecesFrom) {
      Object.assign(this, { wanted, piecesFrom, added: [], freed: false, first: fakePiece(...range(0)) });
      made.joins.push(this);
    }
    count() { return this.wanted < 2 ? 0 : Math.min(this.wanted, sizes.length); }
    range(at) { return range(at); }
    give(at, bytes) { this.first.give(at, bytes); }
    readFirst(all) { return this.first.read(all); }
    addPiece(at, bytes) { this.added.push([at, Array.from(bytes)]); }
    finish() { return joins ? { session: this.added, first: this.first.done() } : undefined; }
    free() { this.freed = true; }
  }
  class PieceRead {
    constructor(file, calls, maxCalls, wanted, count, at) {
      Object.assign(this, fakePiece(...range(at)), { at: range(at)[0], piece: at, args: [calls, maxCalls, wanted, count] });
      made.reads.push(this);
    }
    range() { return range(this.piece); }
    bytes() { return new Uint8Array([this.piece, this.piece]); }
    free() { this.freed = true; }
  }
  return { wasm: { PieceJoin, PieceRead }, made };
}

// A helper worker that runs `readPiece` on the task it is sent, as worker.js does (or
// fails, where told to).
function fakeHelper(wasm, helpers, fail = () => false) {
  const helper = {
    terminated: false,
    postMessage(task) {
      if (fail(task.at) === 'now') return Promise.resolve().then(() => helper.onerror({ message: 'broken' }));
      setTimeout(() => {
        if (fail(task.at)) return helper.onerror({ message: 'broken' });
        readPiece(wasm, task, (message) => helper.onmessage({ data: message }));
      }, 0);
    },
    terminate() { helper.terminated = true; },
  };
  helpers.push(helper);
  return helper;
}

const fileOf = (size) => new Blob([new Uint8Array(size)]);

test('a file read in pieces: helpers read the later pieces, the first is read here, and every piece is joined in order', async () => {
  const sizes = [2 * BLOCK + 5, BLOCK + 1, 7];
  const { wasm, made } = fakeWasm(sizes);
  const helpers = [];
  const progress = [];
  const file = fileOf(sizes.reduce((a, b) => a + b, 0));
  const pool = new Helpers(() => fakeHelper(wasm, helpers), 'M', 2);
  assert.equal(helpers.length, 0, 'none is started before a file needs it');
  pool.warm(1);
  const session = await analyzeInPieces({ wasm }, { file, calls: true, maxCalls: 9, workers: 3, piecesFrom: 12, helpers: pool,
    progress: (done, total) => progress.push([done, total]) });
  assert.deepEqual(session, { session: { session: [[1, [1, 1]], [2, [2, 2]]], first: true }, pieces: 3 });
  assert.equal(helpers.length, 4, 'the waiting one and one more read, two start to wait');
  assert.ok(helpers.slice(0, 2).every((h) => h.terminated), 'helpers end with the analysis');
  assert.deepEqual(pool.waiting, helpers.slice(2));
  assert.ok(made.joins[0].freed, 'the join is freed');
  assert.equal(made.joins[0].piecesFrom, 12);
  assert.deepEqual(made.reads.map((r) => [r.piece, r.args, r.freed]), [[1, [true, 9, 3, 3], true], [2, [true, 9, 3, 3], true]]);
  // The first piece was handed over in three blocks, at their places.
  assert.deepEqual(made.joins[0].first.blocks, [[0, BLOCK], [BLOCK, BLOCK], [2 * BLOCK, 5]]);
  assert.deepEqual(made.reads[0].blocks, [[2 * BLOCK + 5, BLOCK], [3 * BLOCK + 5, 1]]);
  // Progress counts every worker's bytes, never runs backwards, and reaches the whole file.
  assert.ok(progress.every(([, total]) => total === file.size));
  assert.ok(progress.every(([done], i) => i === 0 || done >= progress[i - 1][0]), JSON.stringify(progress));
  assert.equal(progress.at(-1)[0], file.size);
  assert.ok(progress.some(([done]) => done > sizes[0] - 5 && done < file.size), 'helpers heard while the first piece is read');
});

test('one worker, a file that does not split, a failed helper or a declined join: read once', async () => {
  const sizes = [10, 10];
  const options = (wasm, helpers, fail) => ({ file: fileOf(20), calls: false, maxCalls: undefined, workers: 2,
    helpers: new Helpers(() => fakeHelper(wasm, helpers, fail), 'M', 1), progress: () => {} });
  const one = fakeWasm(sizes);
  assert.equal(await analyzeInPieces({ wasm: one.wasm }, { ...options(one.wasm, []), workers: 1 }), null);
  assert.equal(one.made.joins.length, 0, 'one worker does not ask the core');
  const single = fakeWasm([20]);
  const none = [];
  assert.equal(await analyzeInPieces({ wasm: single.wasm }, options(single.wasm, none)), null);
  assert.equal(none.length, 0, 'no helper for a file read once');
  assert.ok(single.made.joins[0].freed);
  const failing = fakeWasm(sizes);
  const helpers = [];
  assert.equal(await analyzeInPieces({ wasm: failing.wasm }, options(failing.wasm, helpers, () => true)), null);
  assert.ok(helpers[0].terminated && failing.made.joins[0].freed);
  const declined = fakeWasm(sizes, { joins: false });
  assert.equal(await analyzeInPieces({ wasm: declined.wasm }, options(declined.wasm, [])), null);
});

test('a helper hands its piece over, not copied, and says where it cannot be joined', async () => {
  const { wasm } = fakeWasm([5, 5]);
  const posted = [];
  await readPiece(wasm, { file: fileOf(10), calls: true, maxCalls: 1, wanted: 2, count: 2, at: 1 }, (message, transfer) => posted.push([message, transfer]));
  const [message, transfer] = posted.at(-1);
  assert.equal(message.type, 'piece');
  assert.deepEqual(transfer, [message.bytes]);
  assert.deepEqual(posted[0][0], { type: 'piece-progress', read: 5 });
  class Unjoinable extends wasm.PieceRead { bytes() { return undefined; } }
  const unjoinable = [];
  await readPiece({ PieceRead: Unjoinable }, { file: fileOf(10), at: 1, count: 2 }, (m, t) => unjoinable.push([m, t]));
  assert.deepEqual(unjoinable.at(-1), [{ type: 'piece', bytes: null }, []]);
});

test('reading ahead hands over each block once, in order, and reads the rest at the end', async () => {
  const given = [];
  const reads = [];
  const file = new Blob([new Uint8Array(2 * BLOCK + 3).map((_, i) => i % 251)]);
  await readAhead(file, [BLOCK - 2, 2 * BLOCK + 3], (at, bytes) => given.push([at, bytes.length, bytes[0]]),
    (all) => reads.push(all) && reads.length, () => {});
  assert.deepEqual(given, [[BLOCK - 2, BLOCK, (BLOCK - 2) % 251], [2 * BLOCK - 2, 5, (2 * BLOCK - 2) % 251]]);
  assert.deepEqual(reads, [false, false, true]);
});

test('helpers: none waits at first; those used end and as many take their place, at most WARM_HELPERS', () => {
  const started = [];
  const spawn = () => {
    const helper = { terminated: false, terminate() { this.terminated = true; } };
    started.push(helper);
    return helper;
  };
  assert.equal(new Helpers(spawn, 'M', 3).waiting.length, 0);
  assert.equal(started.length, 0);
  const pool = new Helpers(spawn, 'M', 64);
  pool.warm(2);
  const used = pool.take(5);
  assert.equal(used.length, 5);
  assert.deepEqual(used.slice(0, 2), started.slice(0, 2), 'the waiting ones first');
  pool.done(used);
  assert.ok(used.every((h) => h.terminated));
  assert.equal(pool.waiting.length, WARM_HELPERS);
  assert.ok(pool.waiting.every((h) => !h.terminated && !used.includes(h)));
});

test('helpers that cannot start: the file is read once, and the helpers taken end', async () => {
  const { wasm } = fakeWasm([10, 10, 10]);
  const started = [];
  const pool = new Helpers(() => {
    if (started.length === 1) throw new Error('no more workers');
    const helper = fakeHelper(wasm, started);
    return helper;
  }, 'M', 2);
  pool.warm(1);
  assert.equal(await analyzeInPieces({ wasm }, { file: fileOf(30), calls: true, workers: 3, helpers: pool, progress: () => {} }), null);
  assert.equal(started.length, 1, 'one started to wait, then no more could');
  assert.ok(started[0].terminated, 'the helper taken ends');
  assert.deepEqual(pool.waiting, []);
});

test('a helper that fails stops the first piece early; one whose script failed to load is not taken', async () => {
  const sizes = [3 * BLOCK, 10];
  const { wasm, made } = fakeWasm(sizes);
  const helpers = [];
  const pool = new Helpers(() => fakeHelper(wasm, helpers, () => 'now'), 'M', 1);
  assert.equal(await analyzeInPieces({ wasm }, { file: fileOf(3 * BLOCK + 10), calls: true, workers: 2, helpers: pool, progress: () => {} }), null);
  assert.ok(made.joins[0].first.blocks.length < 3, 'the first piece was not read to its end: ' + made.joins[0].first.blocks.length);
  const started = [];
  const warm = new Helpers(() => fakeHelper(wasm, started), 'M', 3);
  warm.warm(2);
  assert.equal(started.length, 2);
  started[0].onerror({ message: 'worker.js: 404' });
  const taken = warm.take(2);
  assert.ok(started[0].terminated, 'the failed one ends');
  assert.deepEqual(taken, [started[1], started[2]]);
});

test('workers: as asked, else the machine\'s cores, at most the cap', () => {
  assert.equal(workersFor(undefined, 4), 4);
  assert.equal(workersFor(2, 16), 2);
  assert.equal(workersFor(undefined, 64), MAX_WORKERS);
  assert.equal(workersFor(0, undefined), 1);
  assert.equal(workersFor(-3, 2), 2);
});
