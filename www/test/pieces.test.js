import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeInPieces, FIRST_STEP, MAX_WORKERS, PIECE_STEP, readPiece, workersFor } from '../src/engine/pieces.js';

// A core that cuts a file of `sizes` bytes into pieces of those sizes, and joins what it was given.
function fakeWasm(sizes, { joins = true } = {}) {
  const made = { joins: [], reads: [] };
  class PieceJoin {
    constructor(file, calls, maxCalls, wanted) {
      Object.assign(this, { file, calls, maxCalls, wanted, read: 0, added: [], freed: false });
      made.joins.push(this);
    }
    count() { return this.wanted < 2 ? 0 : Math.min(this.wanted, sizes.length); }
    pieceBytes(at) { return sizes[at]; }
    readFirst(bytes) {
      this.read = Math.min(sizes[0], this.read + bytes);
      return this.read;
    }
    addPiece(at, bytes) { this.added.push([at, Array.from(bytes)]); }
    finish() { return joins ? { session: this.added } : undefined; }
    free() { this.freed = true; }
  }
  class PieceRead {
    constructor(file, calls, maxCalls, wanted, count, at) {
      Object.assign(this, { at, read: 0, freed: false, args: [calls, maxCalls, wanted, count] });
      made.reads.push(this);
    }
    done() { return this.read >= sizes[this.at]; }
    step(bytes) {
      this.read = Math.min(sizes[this.at], this.read + bytes);
      return this.read;
    }
    bytes() { return new Uint8Array([this.at, this.at]); }
    free() { this.freed = true; }
  }
  return { wasm: { PieceJoin, PieceRead }, made };
}

// A helper worker that runs `readPiece` on the task it is sent, as worker.js does, answering
// on the next turn (or failing, where told to).
function fakeHelper(wasm, helpers, fail = () => false) {
  const helper = {
    terminated: false,
    postMessage(task) {
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

const MB = 1 << 20;

test('a file read in pieces: helpers read the later pieces, the first is read here, and every piece is joined in order', async () => {
  const sizes = [3 * FIRST_STEP + 5, 2 * PIECE_STEP + 1, PIECE_STEP - 7];
  const { wasm, made } = fakeWasm(sizes);
  const helpers = [];
  const progress = [];
  const file = { size: sizes.reduce((a, b) => a + b, 0) };
  const session = await analyzeInPieces({ wasm }, { file, calls: true, maxCalls: 9, workers: 3, module: 'M',
    spawn: () => fakeHelper(wasm, helpers), progress: (done, total) => progress.push([done, total]) });
  assert.deepEqual(session, { session: [[1, [1, 1]], [2, [2, 2]]] });
  assert.equal(helpers.length, 2);
  assert.ok(helpers.every((h) => h.terminated), 'helpers end with the analysis');
  assert.ok(made.joins[0].freed, 'the join is freed');
  assert.deepEqual(made.reads.map((r) => [r.at, r.args, r.freed]), [[1, [true, 9, 3, 3], true], [2, [true, 9, 3, 3], true]]);
  // Progress counts every worker's bytes, and ends with the first piece read (the helpers'
  // last reports may come later).
  assert.ok(progress.every(([, total]) => total === file.size));
  assert.ok(progress.some(([done]) => done > FIRST_STEP && done < sizes[0]), 'helpers heard between steps: ' + JSON.stringify(progress));
  assert.ok(progress.some(([done], i) => i > 0 && done < progress[i - 1][0]) === false, 'never backwards');
  assert.equal(progress.at(-1)[0] >= sizes[0], true);
});

test('one worker, a file that does not split, a failed helper or a declined join: read once', async () => {
  const sizes = [10 * MB, 10 * MB];
  const options = (wasm, helpers, fail) => ({ file: { size: 20 * MB }, calls: false, maxCalls: undefined, workers: 2, module: 'M',
    spawn: () => fakeHelper(wasm, helpers, fail), progress: () => {} });
  const one = fakeWasm(sizes);
  assert.equal(await analyzeInPieces({ wasm: one.wasm }, { ...options(one.wasm, []), workers: 1 }), null);
  assert.equal(one.made.joins.length, 0, 'one worker does not ask the core');
  const single = fakeWasm([20 * MB]);
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

test('a helper hands its piece over, not copied, and says where it cannot be joined', () => {
  const { wasm } = fakeWasm([5, 5]);
  const posted = [];
  readPiece(wasm, { file: {}, calls: true, maxCalls: 1, wanted: 2, count: 2, at: 1 }, (message, transfer) => posted.push([message, transfer]));
  const [message, transfer] = posted.at(-1);
  assert.equal(message.type, 'piece');
  assert.deepEqual(transfer, [message.bytes]);
  assert.deepEqual(posted[0][0], { type: 'piece-progress', read: 5 });
  class Unjoinable extends wasm.PieceRead { bytes() { return undefined; } }
  const unjoinable = [];
  readPiece({ PieceRead: Unjoinable }, { at: 1, count: 2 }, (m, t) => unjoinable.push([m, t]));
  assert.deepEqual(unjoinable.at(-1), [{ type: 'piece', bytes: null }, []]);
});

test('workers: as asked, else the machine\'s cores, at most the cap', () => {
  assert.equal(workersFor(undefined, 4), 4);
  assert.equal(workersFor(2, 16), 2);
  assert.equal(workersFor(undefined, 64), MAX_WORKERS);
  assert.equal(workersFor(0, undefined), 1);
  assert.equal(workersFor(-3, 2), 2);
});
