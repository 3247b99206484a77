// Requests about one trace: reading it (and telling files apart), its mapping files, its
// source, its range, and what is drawn of it in the view a request names. Entries of the
// request table (../requests.js says what an entry holds).

import { analyzeInto, feed, head, isBlob, sizeOf } from '../feed.js';
import { analyzeInPieces, workersFor } from '../pieces.js';
import { treeColumns } from '../sessions.js';

/** @typedef {import('../requests.js').Request} Request */

const json = (text) => JSON.parse(text);

/** @type {Record<string, Request>} */
export const TRACE_REQUESTS = {
  /**
   * Analyses files or bytes under `key`; resolves to `{summary, wasmBytes, pieces}` (the
   * pieces it was read in, 1 where read once). `calls`: keep
   * calls, for the timeline and range selections, at most `maxCalls` (else the engine's
   * default) before only the longest stay. `theme`: draw the graph a viewer opens on (the
   * summary's default thread and clock) in this theme right away, for `svg` to answer.
   * `workers`: how many workers read one large file at once (the machine's cores when not
   * given), where the worker can start helpers; `piecesFrom`: from what size in bytes
   * (the core's choice when not given).
   */
  analyze: {
    calls: ['Session.constructor', 'Session.withCalls', 'Session.push', 'Session.endOfKeyFile', 'Session.finish',
      'splitKeyIsSecond', 'Session.summaryJson', 'Session.isHeapDump', 'Session.defaultThread', 'Session.defaultClock',
      'Session.flameSvg', 'PieceJoin.constructor', 'PieceJoin.count', 'PieceJoin.range', 'PieceJoin.give',
      'PieceJoin.readFirst', 'PieceJoin.addPiece', 'PieceJoin.finish'],
    ask: (key, inputs, progress, calls = false, maxCalls = undefined, theme = undefined, workers = undefined,
      piecesFrom = undefined) => ({ key, inputs, progress, calls, maxCalls, theme, workers, piecesFrom }),
    async answer(m, w) {
      w.forget(m.key);
      const progress = (done, total) => w.progress(m.id, done, total);
      const helpers = w.helpers;
      // One large file, where this worker can start helpers: read in pieces if it splits.
      const read = helpers && m.inputs.length === 1 && isBlob(m.inputs[0])
        ? await analyzeInPieces(w, { file: m.inputs[0], calls: m.calls, maxCalls: m.maxCalls,
          workers: workersFor(m.workers, helpers.cores), piecesFrom: m.piecesFrom, helpers, progress })
        : null;
      let session = read && read.session;
      if (!session) {
        // The page's own analysis keeps calls for its timeline; embedders' analyses do not.
        session = m.calls ? w.wasm.Session.withCalls(m.maxCalls) : new w.wasm.Session();
        try {
          await analyzeInto(session, m.inputs, w.wasm.splitKeyIsSecond, progress);
        } catch (error) {
          session.free();
          throw error;
        }
      }
      w.opened(m.key, session, m.calls && m.inputs.length === 1 ? m.inputs[0] : null);
      // The graph the page opens on is drawn once the summary is on its way: the page lays
      // out the summary meanwhile, and its request for the graph then finds it drawn.
      if (m.theme) w.later(m.id, () => w.drawFirst(m.key, session, m.theme));
      // The wasm heap's size: what a trace costs in memory (it only grows).
      // How many pieces it was read in (1: once), for benchmarks and tests.
      return { summary: session.summaryJson(), wasmBytes: w.memory.buffer.byteLength, pieces: read ? read.pieces : 1 };
    },
    read: (answer) => ({ summary: json(answer.summary), wasmBytes: answer.wasmBytes, pieces: answer.pieces }),
  },
  /** Whether two files are one split trace's halves (else two traces). */
  splitPair: {
    calls: ['isSplitPair'],
    ask: (inputs) => ({ inputs }),
    answer: async (m, w) => w.wasm.isSplitPair(await head(m.inputs[0], 16), await head(m.inputs[1], 16)),
  },
  /** For each input, `mapping` (an R8/ProGuard mapping.txt, from its first bytes) or `trace`. */
  kinds: {
    calls: ['sniffMapping'],
    ask: (inputs) => ({ inputs }),
    async answer(m, w) {
      const kinds = [];
      for (const input of m.inputs) kinds.push(w.wasm.sniffMapping(await head(input, 64 << 10)) === 'mapping' ? 'mapping' : 'trace');
      return kinds;
    },
  },
  /**
   * Applies mapping files to the analyses under `keys`; resolves to `{key: {file, report,
   * text}}`. Each file is read once, in slices, keeping what every session needs; each
   * session gets the file that maps most of its classes, with the core's words for it.
   */
  mappings: {
    calls: ['MappingRead.constructor', 'MappingRead.want', 'MappingRead.push', 'MappingRead.finish', 'MappingRead.applyTo'],
    ask: (keys, inputs, progress) => ({ keys, inputs, progress }),
    async answer(m, w) {
      const reads = [];
      try {
        const total = m.inputs.reduce((sum, input) => sum + sizeOf(input), 0);
        let done = 0;
        for (const input of m.inputs) {
          const read = new w.wasm.MappingRead();
          reads.push(read);
          for (const key of m.keys) read.want(w.session(key));
          try {
            await feed(read, input, (n) => {
              done += n;
              w.progress(m.id, done, total);
            });
            read.finish();
          } catch (error) {
            throw new Error((input.name || 'the mapping') + ': ' + error.message);
          }
        }
        const applied = {};
        for (const key of m.keys) {
          w.forgetDrawn(key);
          let best = null;
          for (const [file, read] of reads.entries()) {
            const answer = JSON.parse(read.applyTo(w.session(key)));
            if (!best || answer.report.classes.mapped > best.report.classes.mapped) best = Object.assign({ file }, answer);
          }
          if (best.file !== reads.length - 1) reads[best.file].applyTo(w.session(key));
          applied[key] = best;
          w.viewOf.set(key, null);
        }
        return applied;
      } finally {
        for (const read of reads) read.free();
      }
    },
  },
  /**
   * Shows the source `name` (as the summary's `sources` name it) of the analysis under
   * `key`, and a heap source's dump `dump` (null: as it is); resolves to the new summary.
   * What was drawn goes.
   */
  selectSource: {
    calls: ['Session.selectSource', 'Session.summaryJson'],
    ask: (key, name, dump = null) => ({ key, name, dump }),
    answer(m, w) {
      w.forgetDrawn(m.key);
      const found = w.session(m.key);
      found.selectSource(m.name, m.dump === null || m.dump === undefined ? undefined : m.dump);
      w.viewOf.set(m.key, null);
      return found.summaryJson();
    },
    read: json,
  },
  /** The summary of the analysis under `key`, as it is now. */
  summary: {
    calls: ['Session.summaryJson'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.session(m.key).summaryJson(),
    read: json,
  },
  /** The summary of what graphs and tables cover (the range told, else the whole trace). */
  shownSummary: {
    calls: ['Session.shownSummaryJson'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.session(m.key).shownSummaryJson(),
    read: json,
  },
  /** Graphs and tables of `key` show `from..to` µs from now on; `null` for the whole trace. */
  range: {
    calls: ['Session.setRange', 'Session.clearRange'],
    ask: (key, range) => ({ key, from: range ? range.from : null, to: range ? range.to : null }),
    answer(m, w) {
      w.forgetDrawn(m.key);
      if (m.from === null) w.session(m.key).clearRange();
      else w.session(m.key).setRange(m.from, m.to);
      return null;
    },
  },
  /**
   * A flame graph in the view `view` (the core's JSON of transforms; '' for the plain view).
   * A view the core refuses rejects with an Error whose `kind` is `view`.
   */
  svg: {
    calls: ['Session.flameSvg', 'Session.setView'],
    ask: (key, thread, clock, theme, view = '') => ({ key, thread, clock, theme, view }),
    answer(m, w) {
      const view = m.view || '';
      const id = [m.key, m.thread, m.clock, m.theme].join(':');
      // Drawn first in the plain view, the one a new session has.
      const drawn = view === '' && w.viewOf.get(m.key) === '' ? w.drawnFirst.get(id) : undefined;
      w.forgetDrawn(m.key);
      return drawn !== undefined ? drawn : w.viewed(m.key, view).flameSvg(m.thread, m.clock, m.theme);
    },
  },
  /**
   * The call tree of one thread (index) or of all threads (-1) in the view `view` (as `svg`
   * takes it): the core's flat columns (`names`, and typed arrays `parent`, `name`,
   * `total_wall`, `self_wall`, `total_cpu`, `self_cpu`, `calls`).
   */
  tree: {
    calls: ['Session.callTree', 'Session.setView', 'CallTreeColumns.namesJson', 'CallTreeColumns.parent', 'CallTreeColumns.name',
      'CallTreeColumns.totalWall', 'CallTreeColumns.selfWall', 'CallTreeColumns.totalCpu', 'CallTreeColumns.selfCpu', 'CallTreeColumns.calls'],
    ask: (key, thread, view = '') => ({ key, thread, view }),
    answer: (m, w) => treeColumns(w.viewed(m.key, m.view || '').callTree(m.thread)),
  },
  /** The methods table of one thread (index) or of all threads (-1), in the view `view` (as `svg`). */
  methods: {
    calls: ['Session.methodsJson', 'Session.setView'],
    ask: (key, thread, view = '') => ({ key, thread, view }),
    answer: (m, w) => w.viewed(m.key, m.view || '').methodsJson(m.thread),
    read: json,
  },
  /** Folded stacks in the view `view`, as `svg` takes it. */
  folded: {
    calls: ['Session.folded', 'Session.setView'],
    ask: (key, clock, tid, view = '') => ({ key, clock, tid, view }),
    answer: (m, w) => w.viewed(m.key, m.view || '').folded(m.clock, m.tid),
  },
  /** The view `view` as a file for other viewers: `speedscope`, `pprof` or `chrome` (bytes). */
  exported: {
    calls: ['Session.exportView', 'Session.setView'],
    ask: (key, format, clock, view = '') => ({ key, format, clock, view }),
    answer: (m, w) => w.viewed(m.key, m.view || '').exportView(m.format, m.clock),
  },
  /** The libraries frames named `name` come from (`['libc.so']`): what a menu can collapse. */
  libraries: {
    calls: ['Session.librariesOfJson'],
    ask: (key, name) => ({ key, name }),
    answer: (m, w) => w.session(m.key).librariesOfJson(m.name),
    read: json,
  },
  /** The kinds of code the view can hide in the source shown (`["kernel", "native"]`). */
  hideable: {
    calls: ['Session.hideableJson'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.session(m.key).hideableJson(),
    read: json,
  },
  /** The longest calls of the frame `name` (one thread by index, or all for -1). */
  slowest: {
    calls: ['Session.slowestCallsJson'],
    ask: (key, name, thread, count) => ({ key, name, thread, count }),
    answer: (m, w) => w.session(m.key).slowestCallsJson(m.name, m.thread, m.count),
    read: json,
  },
  /** The frames apps produced, with each layer's figures: `{layers, frames}`. */
  frames: {
    calls: ['Session.framesJson'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.session(m.key).framesJson(),
    read: json,
  },
  /** Lets the analysis under `key` go, with its comparisons. */
  release: {
    calls: [],
    ask: (key) => ({ key }),
    answer(m, w) {
      w.forget(m.key);
      return null;
    },
  },
};
