// Requests about a heap dump: its classes (or packages), objects, one object in full, its
// leaks, and two dumps compared. Entries of the request table (../requests.js says what an
// entry holds); each is asked anew (`fresh`): the Heap view keeps what it shows.

import { analyzeInto, sizeOf } from '../feed.js';

/** @typedef {import('../requests.js').Request} Request */

const json = (text) => JSON.parse(text);

/** @type {Record<string, Request>} */
export const HEAP_REQUESTS = {
  /** Classes (`byPackage`: packages) of heap `heap` (all where empty), largest retained first. */
  heapClasses: {
    calls: ['Session.heapClassesJson'],
    ask: (key, heap, byPackage) => ({ key, heap, byPackage }),
    answer: (m, w) => w.session(m.key).heapClassesJson(m.heap || undefined, Boolean(m.byPackage)),
    read: json,
    fresh: true,
  },
  /** Objects by retained bytes: at most `top`, of class `className`, in heap `heap`. */
  heapObjects: {
    calls: ['Session.heapObjectsJson'],
    ask: (key, top, className, heap) => ({ key, top, className, heap }),
    answer: (m, w) => w.session(m.key).heapObjectsJson(m.top, m.className || undefined, m.heap || undefined),
    read: json,
    fresh: true,
  },
  /** Object `id` (`0x…`) in full: path, references, referrers, what it dominates. */
  heapObject: {
    calls: ['Session.heapObjectJson'],
    // `object`, not `id`: a request's `id` is its number in the engine.
    ask: (key, id) => ({ key, object: id }),
    answer: (m, w) => w.session(m.key).heapObjectJson(m.object),
    read: json,
    fresh: true,
  },
  /** The leaks, one per object or (`grouped`) one per path: `{leaks, none}`, `none` what to say of none. */
  heapLeaks: {
    calls: ['Session.heapLeaksJson'],
    ask: (key, grouped) => ({ key, grouped }),
    answer: (m, w) => w.session(m.key).heapLeaksJson(Boolean(m.grouped)),
    read: json,
    fresh: true,
  },
  /** Copies of equal contents, the most bytes wasted first (at most `top`). */
  heapDuplicates: {
    calls: ['Session.heapDuplicatesJson'],
    ask: (key, top) => ({ key, top }),
    answer: (m, w) => w.session(m.key).heapDuplicatesJson(m.top),
    read: json,
    fresh: true,
  },
  /** The dump under `key` against the one under `after`, class by class. */
  heapDiff: {
    calls: ['Session.heapDiffJson'],
    ask: (key, after) => ({ key, after }),
    answer: (m, w) => w.session(m.key).heapDiffJson(w.session(m.after)),
    read: json,
    fresh: true,
  },
  /**
   * A series: the dump under `key` (named `name`), then `files` in the order taken, each
   * read and reduced before the next is read; what grows at every step, at most `top` rows
   * of each kind: `{dumps, classes: [{name, counts, bytes, objects_per_step,
   * bytes_per_step}], paths, classes_total, paths_total}`.
   */
  heapSeries: {
    calls: ['DumpSeries.constructor', 'DumpSeries.add', 'DumpSeries.growthJson', 'Session.constructor', 'Session.push',
      'Session.endOfKeyFile', 'Session.finish', 'splitKeyIsSecond'],
    ask: (key, name, files, progress, top) => ({ key, name, files, progress, top }),
    async answer(m, w) {
      const series = new w.wasm.DumpSeries();
      try {
        series.add(m.name, w.session(m.key));
        const whole = m.files.reduce((sum, file) => sum + sizeOf(file), 0);
        let before = 0;
        for (const file of m.files) {
          const dump = new w.wasm.Session();
          try {
            await analyzeInto(dump, [file], w.wasm.splitKeyIsSecond, (done) => w.progress(m.id, before + done, whole));
            series.add(file.name, dump);
          } catch (error) {
            throw new Error(file.name + ': ' + error.message);
          } finally {
            dump.free();
          }
          before += sizeOf(file);
        }
        return series.growthJson(m.top);
      } finally {
        series.free();
      }
    },
    read: json,
    fresh: true,
  },
};
