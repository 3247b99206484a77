// The page's side of the analysis worker: requests by id, progress, and a new worker after
// a crash (a trap leaves the wasm instance unusable).

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
      job.resolve(message);
      return;
    }
    // `kind: 'view'`: the core refused the view the request named.
    job.reject(Object.assign(new Error(message.message), message.kind ? { kind: message.kind } : {}));
    if (message.fatal) this.crash('the analysis engine crashed: ' + message.message);
  }

  async call(request, progress) {
    await this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage(Object.assign({ id }, request));
    });
  }

  /**
   * Analyses files or bytes under `key`; resolves to the summary object. `calls`: keep
   * calls, for the timeline and range selections, at most `maxCalls` (else the engine's
   * default) before only the longest stay. `theme`: draw the graph a viewer opens on (the
   * summary's default thread and clock) in this theme right away, for `svg` to answer.
   */
  async analyze(key, inputs, progress, calls = false, maxCalls = undefined, theme = undefined) {
    const result = await this.call({ type: 'analyze', key, inputs, calls, maxCalls, theme }, progress);
    return { summary: JSON.parse(result.summary), wasmBytes: result.wasmBytes };
  }

  /** Whether two files are one split trace's halves (else two traces). */
  splitPair(inputs) {
    return this.call({ type: 'splitPair', inputs }).then((r) => r.split);
  }

  /** For each input, `mapping` (an R8/ProGuard mapping.txt) or `trace`. */
  kinds(inputs) {
    return this.call({ type: 'kinds', inputs }).then((r) => r.kinds);
  }

  /**
   * Applies mapping files to the analyses under `keys` (each gets the file that maps most
   * of its classes); resolves to `{key: {file, report, text}}`.
   */
  mappings(keys, inputs, progress) {
    return this.call({ type: 'mappings', keys, inputs }, progress).then((r) => r.applied);
  }

  /**
   * Shows the source `name` (as the summary's `sources` name it) of the analysis under
   * `key`, and a heap source's dump `dump` (null: as it is); resolves to the new summary.
   */
  selectSource(key, name, dump = null) {
    return this.call({ type: 'source', key, name, dump }).then((r) => JSON.parse(r.summary));
  }

  /** The summary of the analysis under `key`, as it is now. */
  summary(key) {
    return this.call({ type: 'summary', key }).then((r) => JSON.parse(r.summary));
  }

  /**
   * A flame graph in the view `view` (the core's JSON of transforms; '' for the plain view).
   * A view the core refuses rejects with an Error whose `kind` is `view`.
   */
  svg(key, thread, clock, theme, view = '') {
    return this.call({ type: 'svg', key, thread, clock, theme, view }).then((r) => r.svg);
  }

  /**
   * The call tree of one thread (index) or of all threads (-1) in the view `view` (as `svg`
   * takes it): the core's flat columns (`names`, and typed arrays `parent`, `name`,
   * `total_wall`, `self_wall`, `total_cpu`, `self_cpu`, `calls`). A view the core refuses
   * rejects as `svg` does.
   */
  tree(key, thread, view = '') {
    return this.call({ type: 'tree', key, thread, view }).then((r) => r.tree);
  }

  /** The methods table of one thread (index) or of all threads (-1), in the view `view` (as `svg`). */
  methods(key, thread, view = '') {
    return this.call({ type: 'methods', key, thread, view }).then((r) => JSON.parse(r.methods));
  }

  /** The view `view` as a file for other viewers: `speedscope`, `pprof` or `chrome` (bytes). */
  exported(key, format, clock, view = '') {
    return this.call({ type: 'exported', key, format, clock, view }).then((r) => r.bytes);
  }

  /** Many runs: opens an empty pair of groups measured on `clock` ('' for the first run's choice); resolves to their facts. */
  runsOpen(clock = '') {
    return this.call({ type: 'runsOpen', clock }).then((r) => JSON.parse(r.facts));
  }

  /**
   * Reads one run (a file) into `group` (`before` or `after`) under `label`, its names from
   * the mapping file `mapping` if given; resolves to `{facts, mapped}`: the groups' facts,
   * and what the mapping renamed (`{report, text}`) or null.
   */
  runsAdd(group, label, inputs, progress, mapping = null) {
    return this.call({ type: 'runsAdd', group, label, inputs, mapping }, progress)
      .then((r) => ({ facts: JSON.parse(r.facts), mapped: r.mapped }));
  }

  /** Every method of the runs tested at false-discovery rate `alpha` (on shares with `share`). */
  runsMethods(alpha, share) {
    return this.call({ type: 'runsMethods', alpha, share }).then((r) => JSON.parse(r.methods));
  }

  /** One method's totals run by run: `{before: [...], after: [...]}`. */
  runsMethodRuns(method) {
    return this.call({ type: 'runsMethodRuns', method }).then((r) => JSON.parse(r.runs));
  }

  /** A group's flame graph of `stat` (median, mean, sum) per stack. */
  runsGroupSvg(group, stat, thread, theme) {
    return this.call({ type: 'runsGroupSvg', group, stat, thread, theme }).then((r) => r.svg);
  }

  /**
   * The differential graph of the groups' medians, coloured where the methods changed as
   * the comparison at false-discovery rate `alpha` (on shares where `share`) finds.
   */
  runsDiffSvg(thread, widths, normalize, theme, colour, { alpha = 0.05, share = false, changedOnly = false } = {}) {
    return this.call({ type: 'runsDiffSvg', thread, widths, normalize, theme, colour, alpha, share, changedOnly }).then((r) => r.svg);
  }

  /** The call tree of `group`'s `stat` per stack, of the threads named `thread` ('' for all), as `tree` gives it. */
  runsTree(group, stat, thread) {
    return this.call({ type: 'runsTree', group, stat, thread }).then((r) => r.tree);
  }

  runsClose() {
    return this.call({ type: 'runsClose' });
  }

  /** Folded stacks in the view `view`, as `svg` takes it. */
  folded(key, clock, tid, view = '') {
    return this.call({ type: 'folded', key, clock, tid, view }).then((r) => r.folded);
  }

  /** The timeline's facts (length, per-thread span and depths) and the frame names. */
  timeline(key) {
    return this.call({ type: 'timeline', key })
      .then((r) => Object.assign(JSON.parse(r.timeline), { names: JSON.parse(r.names) }));
  }

  /**
   * A thread's boxes in a window, in the view `view` (transforms only, as `methods`):
   * `{boxes, made}`, a Float64Array of `depth, start_us, end_us, name` fours (names index
   * the timeline's names, then `made`: the names the view's transforms make).
   */
  boxes(key, thread, from, to, pixels, maxDepth, view = '') {
    return this.call({ type: 'boxes', key, thread, from, to, pixels, maxDepth, view })
      .then((r) => ({ boxes: r.boxes, made: JSON.parse(r.made) }));
  }

  /** A thread's scheduler states in a window: a Float64Array of `start_us, end_us, state, mixed` fours. */
  states(key, thread, from, to, pixels) {
    return this.call({ type: 'states', key, thread, from, to, pixels }).then((r) => r.boxes);
  }

  /** The scheduler state of a thread at `at` µs, whole (null where unknown). */
  stateAt(key, thread, at) {
    return this.call({ type: 'stateAt', key, thread, at }).then((r) => JSON.parse(r.state));
  }

  /** What every CPU ran in a window: a Float64Array of `cpu, start_us, end_us, thread, mixed` fives. */
  cpus(key, from, to, pixels) {
    return this.call({ type: 'cpus', key, from, to, pixels }).then((r) => r.boxes);
  }

  /** The thread on `cpu` at `at` µs with its state (null where none). */
  cpuAt(key, cpu, at) {
    return this.call({ type: 'cpuAt', key, cpu, at }).then((r) => JSON.parse(r.at));
  }

  /** A counter's steps in a window: a Float64Array of `start_us, end_us, min, max` fours. */
  counterSteps(key, counter, from, to, pixels) {
    return this.call({ type: 'counterSteps', key, counter, from, to, pixels }).then((r) => r.steps);
  }

  /** A counter's value at `at` µs: `{value, since_us}` (null before its first). */
  counterAt(key, counter, at) {
    return this.call({ type: 'counterAt', key, counter, at }).then((r) => JSON.parse(r.at));
  }

  /** The frames apps produced, with each layer's figures: `{layers, frames}`. */
  frames(key) {
    return this.call({ type: 'frames', key }).then((r) => JSON.parse(r.frames));
  }

  /** The summary of what graphs and tables cover (the range told, else the whole trace). */
  shownSummary(key) {
    return this.call({ type: 'shownSummary', key }).then((r) => JSON.parse(r.summary));
  }

  /** The libraries frames named `name` come from (`['libc.so']`): what a menu can collapse. */
  libraries(key, name) {
    return this.call({ type: 'libraries', key, name }).then((r) => JSON.parse(r.libraries));
  }

  /** The box at `depth` running at `at` µs, in the view `view` (as `boxes`), with its path. */
  callAt(key, thread, depth, at, view = '') {
    return this.call({ type: 'callAt', key, thread, depth, at, view }).then((r) => JSON.parse(r.call));
  }

  /**
   * Reads every call of one thread between `from` and `to` µs again, short ones included;
   * `progress(bytes)` while reading. Resolves to `{cancelled}`: true when a newer request
   * took over.
   */
  detail(key, thread, from, to, progress) {
    return this.call({ type: 'detail', key, thread, from, to }, progress).then((r) => ({ cancelled: r.cancelled }));
  }

  /** The longest calls of the frame `name` (one thread by index, or all for -1). */
  slowest(key, name, thread, count) {
    return this.call({ type: 'slowest', key, name, thread, count }).then((r) => JSON.parse(r.calls));
  }

  /** Graphs and tables of `key` show `from..to` µs from now on; `null` for the whole trace. */
  range(key, range) {
    return this.call({ type: 'range', key, from: range ? range.from : null, to: range ? range.to : null });
  }

  /**
   * Compares the analyses under `before` and `after` (kept under `key` until either is
   * released), both in the view `view` (as `svg`; the frames it names are before's): resolves to `{clock, warnings, threads: [{name, before_us, after_us}]}`.
   */
  compare(key, before, after, clock, view = '') {
    return this.call({ type: 'compare', key, before, after, clock, view }).then((r) => JSON.parse(r.facts));
  }

  /** The differential flame graph of one thread name ('' for all threads). */
  diffSvg(key, thread, widths, normalize, theme, colour = 'self', changedOnly = false) {
    return this.call({ type: 'diffSvg', key, thread, widths, normalize, theme, colour, changedOnly }).then((r) => r.svg);
  }

  /** The differential folded stacks, `stack before_us after_us` a line. */
  diffFolded(key) {
    return this.call({ type: 'diffFolded', key }).then((r) => r.folded);
  }

  /** Method deltas of one thread name ('' for all threads) on `clock`, in the view `view` (as `methods`). */
  methodDeltas(key, clock, thread, view = '') {
    return this.call({ type: 'methodDeltas', key, clock, thread, view }).then((r) => JSON.parse(r.methods));
  }

  release(key) {
    return this.call({ type: 'release', key });
  }
}

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

  boxes(thread, from, to, pixels, maxDepth, view = '') {
    return this.engine.boxes(this.key, thread, from, to, pixels, maxDepth, view);
  }

  callAt(thread, depth, at, view = '') {
    return this.engine.callAt(this.key, thread, depth, at, view);
  }

  states(thread, from, to, pixels) {
    return this.engine.states(this.key, thread, from, to, pixels);
  }

  stateAt(thread, at) {
    return this.engine.stateAt(this.key, thread, at);
  }

  frames() {
    return this.once('frames:' + this.generation, () => this.engine.frames(this.key));
  }

  cpus(from, to, pixels) {
    return this.engine.cpus(this.key, from, to, pixels);
  }

  cpuAt(cpu, at) {
    return this.engine.cpuAt(this.key, cpu, at);
  }

  counterSteps(counter, from, to, pixels) {
    return this.engine.counterSteps(this.key, counter, from, to, pixels);
  }

  counterAt(counter, at) {
    return this.engine.counterAt(this.key, counter, at);
  }

  /** The summary of what graphs and tables cover: its scheduling follows the range. */
  shownSummary() {
    const covered = this.covered();
    return this.once('shown-summary:' + this.generation, () => covered.then(() => this.engine.shownSummary(this.key)));
  }

  /** The libraries of frames named `name`; none where the engine cannot say. */
  libraries(name) {
    return this.engine.libraries(this.key, name).catch(() => []);
  }

  slowest(name, thread, count) {
    return this.covered().then(() => this.engine.slowest(this.key, name, thread, count));
  }

  detail(thread, from, to, progress) {
    return this.engine.detail(this.key, thread, from, to, progress);
  }
}
