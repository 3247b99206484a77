// The products of the trace on show, as the page's views ask for them: made once and kept
// where they cost (graphs, trees, tables), after the engine is told the store's range, in
// the view each names; the rest asked anew each time (the table's `fresh` requests).

import { REQUESTS } from './requests.js';

// Products kept at most: graphs of a large trace take megabytes each.
const MAX_CACHED = 48;

/**
 * Products of the trace on show, each made once: graphs by view, thread, clock and theme,
 * method tables by thread. Forgotten when another trace is opened. Graphs and tables cover
 * the range `rangeOf()` says (the store's): the engine is told of a new one before anything
 * else is asked of it. Graphs and folded stacks are drawn in the view `viewOf()` says (the
 * store's, as the core's JSON): it goes with each request that draws, so undoing a change
 * finds the graph drawn before it.
 */
export class Products {
  constructor(engine, key, rangeOf = () => null, viewOf = () => '') {
    this.engine = engine;
    this.key = key;
    this.rangeOf = rangeOf;
    this.viewOf = viewOf;
    this.cache = new Map();
    // Bumped when what the products cover changes, so an answer to an older request is
    // never kept under a newer key.
    this.generation = 0;
    // The range the engine's analysis covers, and its answer to being told it.
    this.told = null;
    this.ranged = Promise.resolve();
  }

  clear() {
    this.generation++;
    this.cache.clear();
  }

  /** Another analysis under the key: nothing made yet, and it covers the whole trace. */
  opened() {
    this.clear();
    this.told = null;
    this.ranged = Promise.resolve();
  }

  // Resolves once the engine covers the store's range.
  covered() {
    const range = this.rangeOf();
    if (range !== this.told) {
      this.told = range;
      this.clear();
      this.ranged = this.engine.range(this.key, range);
    }
    return this.ranged;
  }

  once(id, make) {
    if (!this.cache.has(id)) {
      const made = make();
      // Each view, thread, clock and theme makes a graph: the oldest made goes first.
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(id, made);
      made.catch(() => this.cache.delete(id));
    }
    return this.cache.get(id);
  }

  svg(thread, clock, theme) {
    const covered = this.covered();
    const view = this.viewOf();
    return this.once(JSON.stringify(['svg', this.generation, view, thread, clock, theme]),
      () => covered.then(() => this.engine.svg(this.key, thread, clock, theme, view)));
  }

  /** A call tree in the view `view` (the core's JSON; the store's where not given). */
  tree(thread, view = this.viewOf()) {
    const covered = this.covered();
    return this.once(JSON.stringify(['tree', this.generation, view, thread]),
      () => covered.then(() => this.engine.tree(this.key, thread, view)));
  }

  /** The methods table in the view `view` (transforms.js' `tableViewJson`; '' for the plain view). */
  methods(thread, view = '') {
    const covered = this.covered();
    return this.once(JSON.stringify(['methods', this.generation, view, thread]),
      () => covered.then(() => this.engine.methods(this.key, thread, view)));
  }

  folded(clock) {
    const view = this.viewOf();
    return this.covered().then(() => this.engine.folded(this.key, clock, undefined, view));
  }

  /** The store's view as a file for other viewers (engine.js' `exported`). */
  exported(format, clock) {
    const view = this.viewOf();
    return this.covered().then(() => this.engine.exported(this.key, format, clock, view));
  }

  timeline() {
    return this.once('timeline:' + this.generation, () => this.engine.timeline(this.key));
  }

  tracks() {
    return this.once('tracks:' + this.generation, () => this.engine.tracks(this.key));
  }

  frames() {
    return this.once('frames:' + this.generation, () => this.engine.frames(this.key));
  }

  /** The summary of what graphs and tables cover: its scheduling follows the range. */
  shownSummary() {
    const covered = this.covered();
    return this.once('shown-summary:' + this.generation, () => covered.then(() => this.engine.shownSummary(this.key)));
  }

  /** The kinds of code the view can hide; none where the engine cannot say. */
  hideable() {
    return this.once('hideable:' + this.generation, () => this.engine.hideable(this.key).catch(() => []));
  }

  /** The libraries of frames named `name`; none where the engine cannot say. */
  libraries(name) {
    return this.engine.libraries(this.key, name).catch(() => []);
  }

  slowest(name, thread, count) {
    return this.covered().then(() => this.engine.slowest(this.key, name, thread, count));
  }
}

// The requests the table marks `fresh`, asked of the engine as they are with the key:
// `products.boxes(thread, …)` is `engine.boxes(key, thread, …)`.
for (const [type, request] of Object.entries(REQUESTS)) {
  if (!request.fresh) continue;
  Object.defineProperty(Products.prototype, type, {
    value(...args) {
      return this.engine[type](this.key, ...args);
    },
  });
}
