// droidflame as an ES module, for dashboards that bundle: analyse Android traces on
// the main thread or in your own worker. Nothing is fetched but droidflame_bg.wasm, from
// beside this file (or from what you pass as `options.wasm`).
import init, { Session, splitKeyIsSecond } from './droidflame.js';

let ready = null;

/** Loads the wasm once. `wasm`: a URL, Response, bytes or WebAssembly.Module (optional). */
export function initialize(wasm) {
  if (!ready) ready = init(wasm === undefined ? undefined : { module_or_path: wasm });
  return ready;
}

function toBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError('analyze takes a Uint8Array or an ArrayBuffer');
}

/**
 * Analyses one trace. Resolves to `{summary, threads: [{tid, name, svg}]}`; rejects with
 * an Error whose message says what is wrong with the input and where.
 */
export async function analyze(bytes, options = {}) {
  await initialize(options.wasm);
  const session = new Session();
  try {
    session.push(toBytes(bytes));
    session.finish();
    const summary = JSON.parse(session.summaryJson());
    const threads = summary.threads.map((thread, index) => ({
      tid: thread.tid,
      name: thread.name,
      svg: options.svg === false ? undefined : session.flameSvg(index, options.clock),
    }));
    return { summary, threads };
  } finally {
    session.free();
  }
}

export { Session, splitKeyIsSecond };
