// Requests about a heap dump: its classes (or packages), objects, one object in full, its
// leaks, and two dumps compared. Entries of the request table (../requests.js says what an
// entry holds); each is asked anew (`fresh`): the Heap view keeps what it shows.

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
  /** The leaks, one per object or (`grouped`) one per path. */
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
};
