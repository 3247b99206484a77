// droidflame as an ES module, for dashboards that bundle: analyse Android traces on
// the main thread or in your own worker. Nothing is fetched but droidflame_bg.wasm, from
// beside this file (or from what you pass as `options.wasm`).
import init, { Session, splitKeyIsSecond } from './droidflame.js';
import { analyzeInto } from '../src/feed.js';

let ready = null;

/** Loads the wasm once. `wasm`: a URL, Response, bytes or WebAssembly.Module (optional). */
export function initialize(wasm) {
  if (!ready) ready = init(wasm === undefined ? undefined : { module_or_path: wasm });
  return ready;
}

/**
 * Analyses one trace: a Uint8Array, ArrayBuffer or Blob (File), or an array of the two
 * halves of a split trace. The input reaches the engine in 4 MB slices, so its memory
 * holds one slice at a time, never the whole file. Resolves to
 * `{summary, threads: [{tid, name, svg}]}`; rejects with an Error whose message says what
 * is wrong with the input and where. Options: `clock` (`wall` | `cpu`), `theme`
 * (`light` | `dark`), `svg: false` to skip the graphs, `wasm` (see `initialize`).
 */
export async function analyze(input, options = {}) {
  await initialize(options.wasm);
  const session = new Session();
  try {
    await analyzeInto(session, Array.isArray(input) ? input : [input], splitKeyIsSecond);
    const summary = JSON.parse(session.summaryJson());
    const threads = summary.threads.map((thread, index) => ({
      tid: thread.tid,
      name: thread.name,
      svg: options.svg === false ? undefined : session.flameSvg(index, options.clock, options.theme),
    }));
    return { summary, threads };
  } finally {
    session.free();
  }
}

export { Session, splitKeyIsSecond };
