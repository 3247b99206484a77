// The analysis worker: owns the wasm core and its sessions, and answers the page's requests
// as the request table says (src/engine/requests.js). `cargo xtask dist` bundles this file
// and puts wasm-bindgen's "no-modules" glue (which defines `wasm_bindgen`) in front of it,
// so the same text runs as worker.js (hosted) and from a Blob URL (single file).

/* global wasm_bindgen */
import { Helpers, readPiece } from './src/engine/pieces.js';
import { REQUESTS, transferOf } from './src/engine/requests.js';
import { Sessions } from './src/engine/sessions.js';

// The sessions, once the wasm core is ready.
let ready = null;

// A helper started by an analysis worker reads one piece of a file and ends.
async function answerPiece(task) {
  try {
    await wasm_bindgen({ module_or_path: task.module });
    await readPiece(wasm_bindgen, task, (message, transfer) => self.postMessage(message, transfer));
  } catch (error) {
    self.postMessage({ type: 'piece-error', message: error && error.message ? error.message : String(error) });
  }
}

function reply(message) {
  self.postMessage(message);
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'piece') {
    await answerPiece(message);
    return;
  }
  if (message.type === 'init') {
    ready = wasm_bindgen({ module_or_path: message.module }).then((wasm) => {
      const sessions = new Sessions(wasm_bindgen, wasm.memory, reply);
      // Helpers run this same script. A worker of a page from file:// runs from a Blob
      // URL that Chromium does not let it start workers from: it reads files once.
      if (typeof Worker !== 'undefined' && typeof FileReaderSync !== 'undefined') {
        const cores = self.navigator && self.navigator.hardwareConcurrency;
        try {
          sessions.helpers = new Helpers(() => new Worker(self.location.href), message.module, cores);
        } catch {
          sessions.helpers = null;
        }
      }
      return sessions;
    });
    await ready;
    reply({ type: 'started' });
    return;
  }
  let sessions = null;
  try {
    const request = Object.prototype.hasOwnProperty.call(REQUESTS, message.type) ? REQUESTS[message.type] : null;
    if (!request) throw new Error('unknown request ' + message.type);
    sessions = await ready;
    const answer = await request.answer(message, sessions);
    // The wasm heap's size after each answer: what the products cost in memory too.
    const heap = sessions ? sessions.memory.buffer.byteLength : 0;
    self.postMessage({ type: 'ok', id: message.id, heap, answer }, transferOf(answer));
    // Work the answer did not wait for, done before the next request is read.
    for (const task of sessions ? sessions.takeTasks(message.id) : []) task();
  } catch (error) {
    if (sessions) sessions.takeTasks(message.id);
    // A trap (a Rust panic, or running out of memory) leaves the instance unusable: the
    // page must replace this worker.
    const fatal = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
    const text = error && error.message ? error.message : String(error);
    reply({ type: 'error', id: message.id, message: text, fatal, kind: error && error.kind });
  }
};
