// What the analysis worker holds between requests: the wasm core's sessions by key, their
// comparisons, the runs in two groups, and each session's view. The request table's answers
// (requests.js) work on it; only the worker makes one.

/** The wasm module's exports, as wasm-bindgen writes their types (`cargo xtask dist` puts them in dist/pkg/droidflame.d.ts). @typedef {typeof import('../../../dist/pkg/droidflame.js')} Wasm */
/** @typedef {import('../../../dist/pkg/droidflame.js').Session} Session */
/** @typedef {import('../../../dist/pkg/droidflame.js').Comparison} Comparison */
/** @typedef {import('../../../dist/pkg/droidflame.js').RunGroups} RunGroups */
/** @typedef {import('../../../dist/pkg/droidflame.js').CallTreeColumns} CallTreeColumns */

export class Sessions {
  /**
   * `wasm`: the initialised module's exports; `memory`: its memory (the wasm heap);
   * `post(message)`: to the page (progress).
   * @param {Wasm} wasm
   * @param {WebAssembly.Memory} memory
   * @param {(message: object) => void} post
   */
  constructor(wasm, memory, post) {
    this.wasm = wasm;
    this.memory = memory;
    this.post = post;
    /** @type {Map<string, Session>} */
    this.sessions = new Map();
    /** Comparisons by key, each of two sessions (`before`, `after` keys). @type {Map<string, {comparison: Comparison, before: string, after: string}>} */
    this.comparisons = new Map();
    /** The file each session read, by key, for reading parts of it again. */
    this.inputsOf = new Map();
    /** Bumped by each request to read calls again: an older one still reading stops. */
    this.rereadRun = 0;
    /**
     * The first graph of an analysis, drawn right after it (while the page reads the
     * summary), by `key:thread:clock:theme`, until the page asks for it.
     * @type {Map<string, string>}
     */
    this.drawnFirst = new Map();
    /**
     * Runs of one scenario in two groups, and its comparison of medians, made when first
     * drawn after the runs last changed.
     * @type {RunGroups | null}
     */
    this.runGroups = null;
    /** @type {Comparison | null} */
    this.runMedians = null;
    /**
     * Per session, the view (transforms, inverted or not) its stack products are drawn in,
     * as the JSON text it was given: '' for the plain view, null where a mapping renamed
     * the frames it names (it is given again).
     * @type {Map<string, string | null>}
     */
    this.viewOf = new Map();
    // Work answers do not wait for, by request id, done once each is posted (see `later`).
    this.tasks = new Map();
    /**
     * Helpers to read a file in pieces (pieces.js), where this worker can start them.
     * @type {import('./pieces.js').Helpers | null}
     */
    this.helpers = null;
  }

  /** `done` of `total` bytes read for the request `id`. */
  progress(id, done, total) {
    this.post({ type: 'progress', id, done, total });
  }

  /** Runs `task` once the answer to the request `id` is posted, before the next request is read. */
  later(id, task) {
    this.tasks.set(id, (this.tasks.get(id) || []).concat(task));
  }

  /** The tasks left for after the answer to the request `id`, taken. */
  takeTasks(id) {
    const tasks = this.tasks.get(id) || [];
    this.tasks.delete(id);
    return tasks;
  }

  /** @returns {Session} */
  session(key) {
    const found = this.sessions.get(key);
    if (!found) throw new Error('no analysis is loaded');
    return found;
  }

  comparison(key) {
    const found = this.comparisons.get(key);
    if (!found) throw new Error('no comparison is loaded');
    return found;
  }

  /**
   * The session under `key` drawing in the view `json` ('' for the plain one): given with
   * the request that draws, so that no other request's view comes in between. A view the
   * core refuses (no view, or a frame the trace lacks) is answered as such (`kind: view`).
   * @returns {Session}
   */
  viewed(key, json) {
    const found = this.session(key);
    if (this.viewOf.get(key) !== json) {
      try {
        found.setView(json);
      } catch (error) {
        throw Object.assign(new Error(error && error.message ? error.message : String(error)), { kind: 'view' });
      }
      this.viewOf.set(key, json);
    }
    return found;
  }

  /** A new analysis under `key`, which had none or another. */
  opened(key, session, input) {
    this.sessions.set(key, session);
    this.viewOf.set(key, '');
    // A File is a handle, not its bytes: keeping it costs nothing.
    if (input) this.inputsOf.set(key, input);
  }

  /**
   * The graph an analysis opens on (its default thread and clock), drawn for `svg` to answer;
   * none for a heap dump, which opens on its tables (a dump's graph costs memory as its
   * tables do).
   */
  drawFirst(key, session, theme) {
    if (this.sessions.get(key) !== session || session.isHeapDump()) return;
    const thread = session.defaultThread();
    const clock = session.defaultClock();
    try {
      this.drawnFirst.set([key, thread, clock, theme].join(':'), session.flameSvg(thread, clock, theme));
    } catch {
      // Nothing to draw: the page shows why without asking.
    }
  }

  forgetDrawn(key) {
    for (const id of this.drawnFirst.keys()) if (id.startsWith(key + ':')) this.drawnFirst.delete(id);
  }

  /** Lets the analysis under `key` go, with what was made of it. */
  forget(key) {
    this.forgetDrawn(key);
    // A reading of the old analysis stops before it touches a freed session.
    if (this.inputsOf.has(key)) this.rereadRun++;
    // A comparison of this session, or under this key, goes with it.
    for (const [id, found] of this.comparisons) {
      if (id === key || found.before === key || found.after === key) {
        found.comparison.free();
        this.comparisons.delete(id);
      }
    }
    const found = this.sessions.get(key);
    if (found) found.free();
    this.sessions.delete(key);
    this.inputsOf.delete(key);
    this.viewOf.delete(key);
  }

  /** @returns {RunGroups} */
  runs() {
    if (!this.runGroups) throw new Error('no groups of runs are open');
    return this.runGroups;
  }

  dropRuns() {
    if (this.runMedians) this.runMedians.free();
    if (this.runGroups) this.runGroups.free();
    this.runMedians = null;
    this.runGroups = null;
  }
}

/**
 * A call tree's columns (freed here) as typed arrays, which the worker hands over with
 * the answer (not copied).
 * @param {CallTreeColumns} columns
 */
export function treeColumns(columns) {
  try {
    return {
      names: JSON.parse(columns.namesJson()), parent: columns.parent(), name: columns.name(),
      total_wall: columns.totalWall(), self_wall: columns.selfWall(), total_cpu: columns.totalCpu(),
      self_cpu: columns.selfCpu(), calls: columns.calls(),
    };
  } finally {
    columns.free();
  }
}
