// The one table of requests between the page and the analysis worker: for each request,
// how the page asks it (engine.js makes a method of each), how the worker answers it from
// the wasm core (worker.js), and which of the core's exports the answer calls (a unit test
// holds those to wasm-bindgen's generated types). Both bundles carry the whole table: each
// side runs its half.

import { COMPARE_REQUESTS } from './requests/compare.js';
import { HEAP_REQUESTS } from './requests/heap.js';
import { RUNS_REQUESTS } from './requests/runs.js';
import { TIMELINE_REQUESTS } from './requests/timeline.js';
import { TRACE_REQUESTS } from './requests/trace.js';

/**
 * One request.
 * @typedef {object} Request
 * @property {string[]} calls  the wasm exports its answer calls, itself or through the
 *   helpers it uses: `Class.method`, `Class.constructor`, or a function's name
 * @property {(...args: any[]) => Record<string, any>} ask  page: the request's fields, from
 *   the arguments of the engine's method of the same name; a `progress` callback among them
 *   stays on the page and hears the worker's progress
 * @property {(m: Record<string, any>, w: import('./sessions.js').Sessions) => any} answer
 *   worker: the answer to a request `m` (its fields and `id`), from the sessions `w` holds;
 *   typed arrays in it (or among its fields) are handed over, not copied
 * @property {(answer: any) => any} [read]  page: what the engine's method resolves to (the
 *   answer as it came where absent): JSON text parsed
 * @property {boolean} [fresh]  asked anew each time by the products of the trace on show
 *   (products.js), with its key: a window or a point of the timeline
 */

/** @type {Readonly<Record<string, Request>>} */
export const REQUESTS = Object.freeze({
  ...TRACE_REQUESTS, ...TIMELINE_REQUESTS, ...COMPARE_REQUESTS, ...RUNS_REQUESTS, ...HEAP_REQUESTS,
});

/** The wasm module's exports no request calls, each with why. */
export const NOT_ASKED = Object.freeze({
  start: 'runs by itself as the module starts: it installs the panic hook',
  ...Object.fromEntries(['constructor', 'range', 'give', 'read', 'done', 'bytes'].map((member) => ['PieceRead.' + member,
    'a helper worker reading one piece of a file calls it (pieces.js, readPiece), not a request'])),
});

/** The buffers of the typed arrays in an answer (or among its fields), to hand over with it. */
export function transferOf(answer) {
  const values = ArrayBuffer.isView(answer) ? [answer]
    : answer && typeof answer === 'object' && !Array.isArray(answer) ? Object.values(answer) : [];
  return [...new Set(values.filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer))];
}
