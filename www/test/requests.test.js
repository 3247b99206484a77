import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NOT_ASKED, REQUESTS, transferOf } from '../src/engine/requests.js';
import { Engine } from '../src/engine/engine.js';
import { Products } from '../src/engine/products.js';
import { Sessions, treeColumns } from '../src/engine/sessions.js';
import { analyzeInto, feed, readAgain } from '../src/engine/feed.js';
import { mapRun } from '../src/engine/requests/runs.js';
import { analyzeInPieces } from '../src/engine/pieces.js';

// wasm-bindgen's types of the wasm module, as `cargo xtask dist` writes them. `cargo xtask
// test` builds them first and names them in DROIDFLAME_WASM_TYPES: there, missing is a failure.
const typesPath = process.env.DROIDFLAME_WASM_TYPES || fileURLToPath(new URL('../../dist/pkg/droidflame.d.ts', import.meta.url));
const types = fs.existsSync(typesPath) ? fs.readFileSync(typesPath, 'utf8') : null;
const needsTypes = types || process.env.DROIDFLAME_WASM_TYPES ? {} : { skip: 'no ' + typesPath + ': run cargo xtask dist first' };

/** The module's exports in the `.d.ts`: `Class.method`, `Class.constructor`, functions; wasm-bindgen's own left out. */
function exportsOf(text) {
  const names = new Set();
  for (const [, name, body] of text.matchAll(/^export class (\w+) \{\n([\s\S]*?)^\}/gm)) {
    for (const line of body.split('\n')) {
      // `private constructor();` is no export: the module makes those objects itself.
      const member = /^ {4}(?:static )?(\w+)\(/.exec(line);
      if (member && member[1] !== 'free') names.add(name + '.' + member[1]);
    }
  }
  for (const [, name] of text.matchAll(/^export function (\w+)\(/gm)) if (name !== 'initSync') names.add(name);
  return names;
}

// The text an answer runs: its own and that of the helpers it calls, for what it calls of the module.
const HELPERS = { viewed: Sessions.prototype.viewed, drawFirst: Sessions.prototype.drawFirst, analyzeInto, analyzeInPieces, feed, readAgain, treeColumns, mapRun };
function reachOf(answer) {
  let text = answer.toString();
  const seen = new Set();
  for (let grown = true; grown;) {
    grown = false;
    for (const [name, helper] of Object.entries(HELPERS)) {
      if (seen.has(name) || !new RegExp('\\b' + name + '\\(').test(text)) continue;
      seen.add(name);
      text += '\n' + helper.toString();
      grown = true;
    }
  }
  return text;
}

function calledIn(text, name) {
  const [owner, member] = name.includes('.') ? name.split('.') : [null, name];
  if (member === 'constructor') return text.includes('new w.wasm.' + owner + '(');
  if (!owner) return new RegExp('w\\.wasm\\.' + member + '\\b').test(text);
  return new RegExp('\\.' + member + '\\(').test(text);
}

test('every export a request names is in the generated types, and every export is called by a request or said not to be', needsTypes, () => {
  const exported = exportsOf(types);
  assert.ok(exported.has('Session.flameSvg') && exported.has('Session.constructor') && exported.has('isSplitPair') && !exported.has('CallTreeColumns.constructor'),
    'the types are read: ' + [...exported].slice(0, 5).join(', '));
  const called = new Set();
  for (const [type, request] of Object.entries(REQUESTS)) {
    for (const name of request.calls) {
      assert.ok(exported.has(name), type + ' calls ' + name + ', which the module does not export');
      called.add(name);
    }
  }
  for (const name of Object.keys(NOT_ASKED)) {
    assert.ok(exported.has(name), name + ' is said not to be asked, but the module does not export it');
    assert.equal(called.has(name), false, name + ' is called by a request');
  }
  const unaccounted = [...exported].filter((name) => !called.has(name) && !(name in NOT_ASKED));
  assert.deepEqual(unaccounted, [], 'exports no request calls and none says why');
});

test('each request\'s answer calls the exports it names', () => {
  for (const [type, request] of Object.entries(REQUESTS)) {
    const text = reachOf(request.answer);
    for (const name of request.calls) assert.ok(calledIn(text, name), type + ' names ' + name + ' but its answer does not call it');
  }
  assert.equal(calledIn(reachOf(REQUESTS.summary.answer), 'Session.flameSvg'), false);
});

test('every request is a method of the engine, and the fresh ones of the products too', () => {
  for (const type of Object.keys(REQUESTS)) assert.equal(typeof Engine.prototype[type], 'function', type);
  const fresh = Object.keys(REQUESTS).filter((type) => REQUESTS[type].fresh);
  assert.deepEqual(fresh, ['boxes', 'callAt', 'states', 'scheduling', 'stateAt', 'cpus', 'cpuAt', 'threadStates', 'threadStateAt', 'sampleMarks',
    'samplesInStates', 'sampleAt', 'counterSteps', 'counterAt', 'detail',
    'heapClasses', 'heapObjects', 'heapObject', 'heapLeaks', 'heapDuplicates', 'heapDiff', 'heapSeries']);
  const asked = [];
  const engine = Object.fromEntries(fresh.map((type) => [type, (...args) => asked.push([type, ...args])]));
  const products = new Products(engine, 'ui');
  products.boxes(1, 0, 10, 100, 8, 'V');
  products.stateAt(2, 5.5);
  assert.deepEqual(asked, [['boxes', 'ui', 1, 0, 10, 100, 8, 'V'], ['stateAt', 'ui', 2, 5.5]]);
});

// A worker that answers each request with `answer(message)`, after a progress message where asked.
function fakeBoot(answer) {
  const sent = [];
  const worker = {
    postMessage(message) {
      sent.push(message);
      if (message.type === 'init') return;
      queueMicrotask(() => {
        if (message.type === 'mappings') worker.onmessage({ data: { type: 'progress', id: message.id, done: 3, total: 9 } });
        worker.onmessage({ data: { type: 'ok', id: message.id, heap: 0, answer: answer(message) } });
      });
    },
    terminate() {},
  };
  return { sent, boot: { wasmModule: async () => 'module', createWorker: () => worker } };
}

test('the engine sends what the table asks and resolves to what it reads of the answer', async () => {
  const { sent, boot } = fakeBoot((m) => (m.type === 'selectSource' ? '{"source":"samples"}' : { ui: { file: 0 } }));
  const engine = new Engine(boot);
  assert.deepEqual(await engine.selectSource('ui', 'samples'), { source: 'samples' });
  const heard = [];
  assert.deepEqual(await engine.mappings(['ui'], ['bytes'], (done, total) => heard.push([done, total])), { ui: { file: 0 } });
  assert.deepEqual(heard, [[3, 9]]);
  assert.deepEqual(sent, [
    { type: 'init', module: 'module' },
    { id: 1, type: 'selectSource', key: 'ui', name: 'samples', dump: null },
    { id: 2, type: 'mappings', keys: ['ui'], inputs: ['bytes'] },
  ], 'the progress callback stays on the page');
});

// The wasm module's Session, as far as opening and drawing go.
function fakeWasm() {
  const drawn = [];
  class Session {
    static withCalls(max) {
      return Object.assign(new Session(), { max });
    }
    push(bytes) {
      this.bytes = (this.bytes || 0) + bytes.length;
    }
    endOfKeyFile() {}
    finish() {}
    summaryJson() {
      return JSON.stringify({ bytes: this.bytes, max: this.max });
    }
    isHeapDump() {
      return this.bytes === 7;
    }
    defaultThread() {
      return 2;
    }
    defaultClock() {
      return 'cpu';
    }
    setView(json) {
      if (json.includes('refused')) throw new Error('no frame is named "refused"');
      this.view = json;
    }
    flameSvg(thread, clock, theme) {
      drawn.push([thread, clock, theme, this.view || '']);
      return '<svg ' + [thread, clock, theme].join(' ') + '>';
    }
    free() {}
  }
  return { wasm: { Session, splitKeyIsSecond: () => false }, drawn };
}

test('the worker draws the first graph once the summary is posted, and answers the first svg request with it', async () => {
  const { wasm, drawn } = fakeWasm();
  const posted = [];
  const w = new Sessions(wasm, { buffer: { byteLength: 1 << 20 } }, (message) => posted.push(message));
  const asked = REQUESTS.analyze.ask('ui', [new Uint8Array(10)], () => {}, true, 5, 'dark');
  const answer = await REQUESTS.analyze.answer(Object.assign({ id: 7 }, asked), w);
  assert.deepEqual(REQUESTS.analyze.read(answer), { summary: { bytes: 10, max: 5 }, wasmBytes: 1 << 20, pieces: 1 });
  assert.deepEqual(posted, [{ type: 'progress', id: 7, done: 10, total: 10 }]);
  assert.deepEqual(drawn, [], 'nothing is drawn before the answer is posted');
  assert.deepEqual(w.takeTasks(8), [], 'another request has no work left after it');
  for (const task of w.takeTasks(7)) task();
  assert.deepEqual(drawn, [[2, 'cpu', 'dark', '']]);
  const first = { key: 'ui', thread: 2, clock: 'cpu', theme: 'dark', view: '' };
  assert.equal(REQUESTS.svg.answer(first, w), '<svg 2 cpu dark>');
  assert.equal(drawn.length, 1, 'the graph drawn first answers');
  assert.equal(REQUESTS.svg.answer(first, w), '<svg 2 cpu dark>');
  assert.equal(drawn.length, 2, 'once: then it is drawn again');
  assert.throws(() => REQUESTS.svg.answer(Object.assign({}, first, { view: '{"refused":1}' }), w),
    (error) => error.kind === 'view' && /no frame is named "refused"/.test(error.message));
});

test('a heap dump opens on its tables: no graph is drawn for it first', async () => {
  const { wasm, drawn } = fakeWasm();
  const w = new Sessions(wasm, { buffer: { byteLength: 1 << 20 } }, () => {});
  // The fake's dump is the input of 7 bytes.
  const asked = REQUESTS.analyze.ask('ui', [new Uint8Array(7)], () => {}, true, 5, 'dark');
  await REQUESTS.analyze.answer(Object.assign({ id: 3 }, asked), w);
  for (const task of w.takeTasks(3)) task();
  assert.deepEqual(drawn, []);
});

test('typed arrays in an answer are handed over, once each; nothing else is', () => {
  const boxes = new Float64Array(4);
  assert.deepEqual(transferOf(boxes), [boxes.buffer]);
  const parent = new Uint32Array(2);
  const wall = new Float64Array(2);
  assert.deepEqual(transferOf({ names: ['a'], parent, total_wall: wall, self_wall: new Float64Array(wall.buffer) }), [parent.buffer, wall.buffer]);
  assert.deepEqual(transferOf('<svg>'), []);
  assert.deepEqual(transferOf(null), []);
  assert.deepEqual(transferOf([new Float64Array(1)]), []);
});
