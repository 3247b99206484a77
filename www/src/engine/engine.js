// The page's side of the analysis worker: requests by id, progress, and a new worker after
// a crash (a trap leaves the wasm instance unusable). Each request of the table
// (requests.js) is a method of the engine: `engine.svg(key, thread, clock, theme, view)`
// takes what the table's `ask` takes and resolves to what its `read` makes of the answer.

import { REQUESTS } from './requests.js';

/**
 * The engine's methods, one per request, typed from the table.
 * @typedef {typeof REQUESTS} Requests
 * @typedef {{ [K in keyof Requests]: (...args: Parameters<Requests[K]['ask']>) => Promise<any> }} Asking
 * @typedef {Engine & Asking} AskingEngine
 */

export class Engine {
  /** `boot`: `{wasmModule(): Promise<WebAssembly.Module>, createWorker(): Worker}`. */
  constructor(boot) {
    this.boot = boot;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    // Called each time a worker has its wasm instance ready.
    this.onStarted = null;
  }

  async ensure() {
    if (this.worker) return;
    if (!this.module) this.module = this.boot.wasmModule();
    const module = await this.module;
    if (this.worker) return;
    this.worker = this.boot.createWorker();
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.crash(event.message || 'the analysis worker stopped');
    };
    this.worker.postMessage({ type: 'init', module });
  }

  crash(message) {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    for (const job of this.pending.values()) job.reject(new Error(message));
    this.pending.clear();
  }

  receive(message) {
    if (message.type === 'started') {
      if (this.onStarted) this.onStarted();
      return;
    }
    const job = this.pending.get(message.id);
    if (!job) return;
    if (message.type === 'progress') {
      if (job.progress) job.progress(message.done, message.total);
      return;
    }
    this.pending.delete(message.id);
    if (message.type === 'ok') {
      // The wasm heap as of this answer (it only grows): what benchmarks read.
      if (message.heap && typeof document !== 'undefined') document.body.dataset.wasmHeap = String(message.heap);
      job.resolve(message.answer);
      return;
    }
    // `kind: 'view'`: the core refused the view the request named.
    job.reject(Object.assign(new Error(message.message), message.kind ? { kind: message.kind } : {}));
    if (message.fatal) this.crash('the analysis engine crashed: ' + message.message);
  }

  /** Asks the worker the request `type` (the table's name) with `fields`; resolves to its answer. */
  async call(type, fields) {
    const { progress, ...sent } = fields;
    await this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage(Object.assign({ id, type }, sent));
    });
  }
}

for (const [type, request] of Object.entries(REQUESTS)) {
  Object.defineProperty(Engine.prototype, type, {
    value(...args) {
      const asked = this.call(type, request.ask(...args));
      return request.read ? asked.then(request.read) : asked;
    },
  });
}
