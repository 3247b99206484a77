// One file read in pieces by several workers at once. Workers share no memory, so each
// helper reads its piece of the file (a Blob) and hands it back as bytes; the analysis
// worker reads the first piece itself, hearing the helpers' progress as it goes, and joins
// the pieces into a session. The core decides whether a file splits (and how); where it
// does not, or any piece fails, the file is read once.

/** Workers at most, whatever the machine has. */
export const MAX_WORKERS = 8;
/** Bytes of a piece read ahead at a time, while the core decodes the block before. */
export const BLOCK = 16 << 20;

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
export async function readAhead(file, [from, to], give, read, progress) {
  const fetch = (at) => file.slice(at, Math.min(to, at + BLOCK)).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  let next = from < to ? fetch(from) : null;
  for (let at = from; next;) {
    const bytes = await next;
    const after = at + bytes.length;
    next = after < to && bytes.length > 0 ? fetch(after) : null;
    give(at, bytes);
    progress(read(false));
    at = after;
  }
  progress(read(true));
}

/** Errors that leave the wasm instance unusable: they are not a reason to read once, they end the worker. */
function fatal(error) {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
}

/**
 * Analyses `file` in pieces on `workers` workers: this one and helpers from `spawn()`
 * (each given the compiled wasm `module`), `progress(done, total)` in bytes over all of
 * them. Resolves to the joined session, or null where the file is to be read once.
 * @param {import('./sessions.js').Sessions} w
 */
export async function analyzeInPieces(w, { file, calls, maxCalls, workers, spawn, module, progress }) {
  if (workers < 2) return null;
  const join = new w.wasm.PieceJoin(file, calls, maxCalls, workers);
  const helpers = [];
  try {
    const count = join.count();
    if (count < 2) return null;
    const read = new Array(count).fill(0);
    const report = () => progress(read.reduce((sum, n) => sum + n, 0), file.size);
    const later = [];
    for (let at = 1; at < count; at++) {
      const helper = spawn();
      helpers.push(helper);
      const task = { type: 'piece', module, file, calls, maxCalls, wanted: workers, count, at };
      later.push(pieceFrom(helper, task, (n) => {
        read[at] = n;
        report();
      }));
    }
    await readAhead(file, join.range(0), (at, bytes) => join.give(at, bytes), (all) => join.readFirst(all), (n) => {
      read[0] = n;
      report();
    });
    const pieces = await Promise.all(later);
    if (pieces.some((bytes) => bytes === null)) return null;
    pieces.forEach((bytes, i) => join.addPiece(i + 1, bytes));
    return join.finish() || null;
  } catch (error) {
    if (fatal(error)) throw error;
    // Reading once reports what is wrong with the file, where it is.
    return null;
  } finally {
    for (const helper of helpers) helper.terminate();
    join.free();
  }
}

/** Resolves to the bytes of a helper's piece, or null where it failed (the file is then read once). */
function pieceFrom(helper, task, progress) {
  return new Promise((resolve) => {
    helper.onmessage = (event) => {
      const message = event.data;
      if (message.type === 'piece-progress') progress(message.read);
      else resolve(message.type === 'piece' && message.bytes ? new Uint8Array(message.bytes) : null);
    };
    helper.onerror = (event) => {
      if (event.preventDefault) event.preventDefault();
      resolve(null);
    };
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
