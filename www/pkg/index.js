// droidflame as an ES module, for dashboards that bundle: analyse Android traces on
// the main thread or in your own worker. Nothing is fetched but droidflame_bg.wasm, from
// beside this file (or from what you pass as `options.wasm`).
import init, { Session, splitKeyIsSecond } from './droidflame.js';
import { analyzeInto } from '../src/engine/feed.js';

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

/**
 * Compares two traces (each as `analyze` takes it): which stacks and methods took more or
 * less time in `after` than in `before`. Threads are matched by name (ids change between
 * runs). Resolves to `{before, after}` (the summaries), `clock`, `warnings` (where the two
 * differ in kind, or do not differ at all), `threads: [{name, before_us, after_us, svg}]`
 * (each its differential flame graph: red grew, blue shrank) and `methods` (per method
 * `{name, class, method, signature, before, after}`, `{calls, incl_us, excl_us}` on each
 * side, largest inclusive change first) and `default_thread` (the name to look at first). Options: `clock`, `theme`, `svg: false`, `widths` (`after` |
 * `before`: the side that sets the frames' widths), `normalize` (scale the other side to
 * the same total), `wasm`.
 */
export async function compare(before, after, options = {}) {
  await initialize(options.wasm);
  const sessions = [new Session(), new Session()];
  let comparison = null;
  try {
    for (const [i, input] of [before, after].entries()) {
      await analyzeInto(sessions[i], Array.isArray(input) ? input : [input], splitKeyIsSecond);
    }
    comparison = sessions[0].compareWith(sessions[1], options.clock);
    const facts = JSON.parse(comparison.factsJson());
    const threads = facts.threads.map((t) => Object.assign(t, {
      svg: options.svg === false ? undefined
        : comparison.diffSvg(t.name, options.widths, Boolean(options.normalize), options.theme),
    }));
    const methods = JSON.parse(sessions[0].methodDeltasJson(sessions[1], facts.clock, undefined));
    return {
      before: JSON.parse(sessions[0].summaryJson()),
      after: JSON.parse(sessions[1].summaryJson()),
      clock: facts.clock,
      warnings: facts.warnings,
      threads,
      methods,
      default_thread: facts.default_thread,
    };
  } finally {
    if (comparison) comparison.free();
    for (const session of sessions) session.free();
  }
}

export { Session, splitKeyIsSecond };
