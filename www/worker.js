// The analysis worker: owns the wasm core and its sessions. At build time the
// wasm-bindgen "no-modules" glue (which defines `wasm_bindgen`) is put in front of this
// file, so the same text runs as worker.js (hosted) and from a Blob URL (single file).
'use strict';

/* global wasm_bindgen */

const CHUNK = 4 << 20;
let ready = null;
let wasmMemory = null;
const sessions = new Map();

function reply(message, transfer) {
  self.postMessage(message, transfer || []);
}

// The first bytes of a File or Uint8Array.
async function head(input, n) {
  const part = input instanceof Uint8Array ? input.subarray(0, n) : input.slice(0, n);
  return part instanceof Uint8Array ? part : new Uint8Array(await part.arrayBuffer());
}

function sizeOf(input) {
  return input instanceof Uint8Array ? input.length : input.size;
}

// Pushes an input to the session in chunks, reporting progress.
async function feed(session, input, progress) {
  const size = sizeOf(input);
  for (let at = 0; at < size; at += CHUNK) {
    const end = Math.min(size, at + CHUNK);
    const chunk = input instanceof Uint8Array
      ? input.subarray(at, end)
      : new Uint8Array(await input.slice(at, end).arrayBuffer());
    session.push(chunk);
    progress(end - at);
  }
}

async function analyze(message) {
  await ready;
  const inputs = message.inputs;
  if (inputs.length === 0 || inputs.length > 2) {
    throw new Error('open one trace file, or the .key and .data files of a split trace');
  }
  let ordered = inputs;
  if (inputs.length === 2) {
    const keySecond = wasm_bindgen.splitKeyIsSecond(await head(inputs[0], 16), await head(inputs[1], 16));
    ordered = keySecond ? [inputs[1], inputs[0]] : inputs;
  }
  const total = ordered.reduce((sum, input) => sum + sizeOf(input), 0);
  let done = 0;
  const old = sessions.get(message.key);
  if (old) old.free();
  sessions.delete(message.key);
  const session = new wasm_bindgen.Session();
  try {
    for (let i = 0; i < ordered.length; i++) {
      await feed(session, ordered[i], (n) => {
        done += n;
        reply({ type: 'progress', id: message.id, done, total });
      });
      if (ordered.length === 2 && i === 0) session.endOfKeyFile();
    }
    session.finish();
  } catch (error) {
    session.free();
    throw error;
  }
  sessions.set(message.key, session);
  // The wasm heap's size: what a trace costs in memory (it only grows).
  return { summary: session.summaryJson(), calls: session.methodsJson(-1), wasmBytes: wasmMemory.buffer.byteLength };
}

function session(key) {
  const found = sessions.get(key);
  if (!found) throw new Error('no analysis is loaded');
  return found;
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    let result;
    switch (message.type) {
      case 'init':
        ready = wasm_bindgen({ module_or_path: message.module });
        wasmMemory = (await ready).memory;
        return;
      case 'analyze':
        result = await analyze(message);
        break;
      case 'svg':
        await ready;
        result = { svg: session(message.key).flameSvg(message.thread, message.clock) };
        break;
      case 'folded':
        await ready;
        result = { folded: session(message.key).folded(message.clock, message.tid) };
        break;
      case 'release': {
        const found = sessions.get(message.key);
        if (found) found.free();
        sessions.delete(message.key);
        result = {};
        break;
      }
      default:
        throw new Error('unknown request ' + message.type);
    }
    reply(Object.assign({ type: 'ok', id: message.id }, result));
  } catch (error) {
    // A trap (a Rust panic, or running out of memory) leaves the instance unusable: the
    // page must replace this worker.
    const fatal = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
    const text = error && error.message ? error.message : String(error);
    reply({ type: 'error', id: message.id, message: text, fatal });
  }
};
