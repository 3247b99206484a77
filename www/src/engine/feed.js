// Feeding a trace to the engine in slices, shared by the page's worker and the package:
// the wasm heap holds one slice at a time, never the whole file.

/** Bytes per slice handed to the engine. */
export const SLICE = 4 << 20;

/** A Uint8Array view of bytes given as Uint8Array, ArrayBuffer or another typed array. */
export function toBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('a trace is given as a Uint8Array, an ArrayBuffer or a Blob');
}

/** Whether `input` is a Blob (a File), not bytes. */
export function isBlob(input) {
  return typeof Blob !== 'undefined' && input instanceof Blob;
}

/** The size in bytes of a Blob (File) or bytes. */
export function sizeOf(input) {
  return isBlob(input) ? input.size : toBytes(input).length;
}

/** The first `n` bytes of a Blob or of bytes. */
export function head(input, n) {
  return slice(input, 0, n);
}

/** Bytes `from..to` of a Blob or of bytes. */
export async function slice(input, from, to) {
  if (isBlob(input)) return new Uint8Array(await input.slice(from, to).arrayBuffer());
  return toBytes(input).subarray(from, to);
}

/**
 * Pushes one input to `session` (anything with `push(Uint8Array)`) slice by slice;
 * `progress(bytes)` after each. The next slice is read while this one is pushed: a Blob's
 * bytes arrive from another thread, so reading and analysing overlap.
 */
export async function feed(session, input, progress = () => {}, step = SLICE) {
  const size = sizeOf(input);
  const read = (at) => {
    const reading = slice(input, at, Math.min(size, at + step));
    // A read still under way when a push fails is not waited for; its failure is not news.
    reading.catch(() => {});
    return reading;
  };
  let next = read(0);
  for (let at = 0; at < size; at += step) {
    const bytes = await next;
    if (at + step < size) next = read(at + step);
    session.push(bytes);
    progress(bytes.length);
  }
}

/**
 * Reads `input` again from `offset` into `reading` (whose `push(bytes)` answers true once
 * it needs no more), slice by slice, `progress(bytes)` after each. Answers false, having
 * stopped, as soon as `cancelled()` is true.
 */
export async function readAgain(reading, input, offset, cancelled, progress = () => {}, step = SLICE) {
  const size = sizeOf(input);
  let read = 0;
  for (let at = offset; at < size; at += step) {
    const chunk = await slice(input, at, Math.min(size, at + step));
    if (cancelled()) return false;
    read += chunk.length;
    if (reading.push(chunk)) break;
    progress(read);
  }
  return !cancelled();
}

/**
 * Analyses one trace, or the two halves of a split trace in either order, into `session`
 * (which then has `finish()` called). `keyIsSecond(firstHead, secondHead)` says which
 * half is the key; `progress(done, total)` reports bytes.
 */
export async function analyzeInto(session, inputs, keyIsSecond, progress = () => {}) {
  if (inputs.length === 0 || inputs.length > 2) {
    throw new Error('open one trace file, or the .key and .data files of a split trace');
  }
  let ordered = inputs;
  if (inputs.length === 2 && keyIsSecond(await head(inputs[0], 16), await head(inputs[1], 16))) {
    ordered = [inputs[1], inputs[0]];
  }
  const total = ordered.reduce((sum, input) => sum + sizeOf(input), 0);
  let done = 0;
  for (let i = 0; i < ordered.length; i++) {
    await feed(session, ordered[i], (n) => {
      done += n;
      progress(done, total);
    });
    if (ordered.length === 2 && i === 0) session.endOfKeyFile();
  }
  session.finish();
}
