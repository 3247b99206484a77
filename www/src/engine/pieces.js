// One file read in pieces by several workers at once. Workers share no memory, so each
// helper reads its piece of the file (a Blob) and hands it back as bytes; the analysis
// worker reads the first piece itself, hearing the helpers' progress as it goes, and joins
// the pieces into a session. The core decides whether a file splits (and how); where it
// does not, or any piece fails, the file is read once.

/** Workers at most, whatever the machine has. */
export const MAX_WORKERS = 8;
/** Bytes of a piece read ahead at a time, while the core decodes the block before. */
export const BLOCK = 16 << 20;

/**
 * Helpers kept started and waiting after a file was read in pieces, at most: a worker
 * takes about 150 ms to start. None wait before: starting them with every page would cost
 * every page load a worker's start-up.
 */
export const WARM_HELPERS = 3;
/** A helper that says nothing for this long (its script never loaded, say) has failed. */
export const SILENCE_MS = 30000;

/**
 * Helpers to read pieces, started as a file needs them. Each used helper ends with its
 * analysis (its wasm heap has grown to its piece) and a fresh one is started in its place,
 * so that the next large file's pieces start at once.
 */
export class Helpers {
  /** `spawn()` starts one; `module`: the compiled wasm they run; `cores`: the machine's. */
  constructor(spawn, module, cores) {
    Object.assign(this, { spawn, module, cores });
    this.waiting = [];
  }

  /** Starts helpers until `count` wait (at most WARM_HELPERS). */
  warm(count) {
    while (this.waiting.length < Math.min(count, WARM_HELPERS)) {
      const helper = this.spawn();
      // A script that does not load says so only now: such a helper is not taken.
      helper.onerror = (event) => {
        if (event && event.preventDefault) event.preventDefault();
        helper.failed = true;
      };
      this.waiting.push(helper);
    }
  }

  /** `count` helpers, those waiting first; an error where one cannot start. */
  take(count) {
    const failed = this.waiting.filter((helper) => helper.failed);
    for (const helper of failed) helper.terminate();
    this.waiting = this.waiting.filter((helper) => !helper.failed);
    const taken = this.waiting.splice(0, count);
    try {
      while (taken.length < count) taken.push(this.spawn());
    } catch (error) {
      this.done(taken);
      throw error;
    }
    return taken;
  }

  /** Ends `used` helpers and starts as many to wait (none where they cannot start). */
  done(used) {
    for (const helper of used) helper.terminate();
    try {
      this.warm(used.length);
    } catch {
      // Then they start when taken, or the file is read once.
    }
  }
}

/** How many workers read a file: `asked` where it is a positive count, else the machine's `cores`; at most MAX_WORKERS. */
export function workersFor(asked, cores) {
  const count = Number.isInteger(asked) && asked > 0 ? asked : Number(cores) || 1;
  return Math.max(1, Math.min(MAX_WORKERS, count));
}

/**
 * Reads bytes `from..to` of `file` into a piece: each block is read while the core decodes
 * the one before (`give(at, bytes)` hands a block over; `read(all)` reads on as far as the
 * blocks hold, or to the end, and answers the bytes read so far, for `progress`). Waiting
 * for a block lets other messages in.
 */
export async function readAhead(file, [from, to], give, read, progress, stopped = () => false) {
  const fetch = (at) => file.slice(at, Math.min(to, at + BLOCK)).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  let next = from < to ? fetch(from) : null;
  for (let at = from; next;) {
    const bytes = await next;
    // Once another piece failed, this one is not needed.
    if (stopped()) return false;
    const after = at + bytes.length;
    next = after < to && bytes.length > 0 ? fetch(after) : null;
    give(at, bytes);
    progress(read(false));
    at = after;
  }
  progress(read(true));
  return true;
}

/** Errors that leave the wasm instance unusable: they are not a reason to read once, they end the worker. */
function fatal(error) {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
}

/**
 * Analyses `file` in pieces on `workers` workers: this one and `helpers` (a `Helpers`),
 * `progress(done, total)` in bytes over all of them; files smaller than `piecesFrom`
 * bytes (the core's choice when not given) are read once. Resolves to the joined session
 * and how many pieces it was read in, or null where the file is to be read once.
 * @param {import('./sessions.js').Sessions} w
 */
export async function analyzeInPieces(w, { file, calls, maxCalls, workers, piecesFrom, helpers, progress }) {
  if (workers < 2) return null;
  let join = null;
  const used = [];
  try {
    join = new w.wasm.PieceJoin(file, calls, maxCalls, workers, piecesFrom);
    const count = join.count();
    if (count < 2) return null;
    used.push(...helpers.take(count - 1));
    const read = new Array(count).fill(0);
    const report = () => progress(read.reduce((sum, n) => sum + n, 0), file.size);
    const later = [];
    let failed = false;
    for (let at = 1; at < count; at++) {
      const helper = used[at - 1];
      const task = { type: 'piece', module: helpers.module, file, calls, maxCalls, wanted: workers, count, at };
      later.push(pieceFrom(helper, task, (n) => {
        read[at] = n;
        report();
      }).then((bytes) => {
        failed ||= bytes === null;
        return bytes;
      }));
    }
    const first = await readAhead(file, join.range(0), (at, bytes) => join.give(at, bytes), (all) => join.readFirst(all),
      (n) => {
        read[0] = n;
        report();
      }, () => failed);
    if (!first) return null;
    const pieces = await Promise.all(later);
    if (pieces.some((bytes) => bytes === null)) return null;
    pieces.forEach((bytes, i) => join.addPiece(i + 1, bytes));
    const session = join.finish();
    return session ? { session, pieces: count } : null;
  } catch (error) {
    if (fatal(error)) throw error;
    // Reading once reports what is wrong with the file, where it is.
    return null;
  } finally {
    helpers.done(used);
    if (join) join.free();
  }
}

/**
 * Resolves to the bytes of a helper's piece, or null where it failed, or said nothing for
 * SILENCE_MS (the file is then read once).
 */
function pieceFrom(helper, task, progress) {
  return new Promise((resolve) => {
    let silence = null;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => settle(null), SILENCE_MS);
    };
    const settle = (bytes) => {
      clearTimeout(silence);
      helper.onmessage = helper.onerror = helper.onmessageerror = null;
      resolve(bytes);
    };
    helper.onmessage = (event) => {
      const message = event.data;
      heard();
      if (message.type === 'piece-progress') progress(message.read);
      else settle(message.type === 'piece' && message.bytes ? new Uint8Array(message.bytes) : null);
    };
    helper.onerror = (event) => {
      if (event && event.preventDefault) event.preventDefault();
      settle(null);
    };
    helper.onmessageerror = () => settle(null);
    if (helper.failed) return settle(null);
    heard();
    helper.postMessage(task);
  });
}

/**
 * A helper's side: reads the piece `task` names (its `PieceRead`) and posts its progress,
 * then its bytes, handed over, not copied (`bytes: null` where it cannot be joined).
 */
export async function readPiece(wasm, task, post) {
  const piece = new wasm.PieceRead(task.file, task.calls, task.maxCalls, task.wanted, task.count, task.at);
  try {
    await readAhead(task.file, piece.range(), (at, bytes) => piece.give(at, bytes), (all) => piece.read(all),
      (read) => post({ type: 'piece-progress', read }, []));
    if (!piece.done()) throw new Error('the piece was not read to its end');
    const bytes = piece.bytes();
    post({ type: 'piece', bytes: bytes ? bytes.buffer : null }, bytes ? [bytes.buffer] : []);
  } finally {
    piece.free();
  }
}
