// The analysis worker: owns the wasm core and its sessions. `cargo xtask dist` bundles this
// file and puts wasm-bindgen's "no-modules" glue (which defines `wasm_bindgen`) in front
// of it, so the same text runs as worker.js (hosted) and from a Blob URL (single file).

/* global wasm_bindgen */
import { analyzeInto, feed, head, readAgain, sizeOf } from './src/engine/feed.js';

let ready = null;
let wasmMemory = null;
const sessions = new Map();
// Comparisons by key, each of two sessions (`before`, `after` keys).
const comparisons = new Map();
// The file each session read, by key, for reading parts of it again.
const inputsOf = new Map();
// Bumped by each request to read calls again: an older one still reading stops.
let rereadRun = 0;
// The first graph of an analysis, drawn right after it (while the page reads the summary),
// by `key:thread:clock:theme`, until the page asks for it.
const drawnFirst = new Map();
// Runs of one scenario in two groups (RunGroups), and its comparison of medians, made when
// first drawn after the runs last changed.
let runGroups = null;
let runMedians = null;
// Per session, the view (transforms, inverted or not) its stack products are drawn in, as
// the JSON text it was given: '' for the plain view, null where a mapping renamed the
// frames it names (it is given again).
const viewOf = new Map();

function reply(message) {
  self.postMessage(message);
}

async function analyze(message) {
  await ready;
  forget(message.key);
  // The page's own analysis keeps calls for its timeline; embedders' analyses do not.
  const session = message.calls ? wasm_bindgen.Session.withCalls(message.maxCalls) : new wasm_bindgen.Session();
  try {
    await analyzeInto(session, message.inputs, wasm_bindgen.splitKeyIsSecond, (done, total) =>
      reply({ type: 'progress', id: message.id, done, total }));
  } catch (error) {
    session.free();
    throw error;
  }
  sessions.set(message.key, session);
  viewOf.set(message.key, '');
  // A File is a handle, not its bytes: keeping it costs nothing.
  if (message.calls && message.inputs.length === 1) inputsOf.set(message.key, message.inputs[0]);
  // The wasm heap's size: what a trace costs in memory (it only grows).
  const result = { summary: session.summaryJson(), wasmBytes: wasmMemory.buffer.byteLength };
  // The graph the page opens on is drawn once the summary is on its way: the page lays
  // out the summary meanwhile, and its request for the graph then finds it drawn.
  if (message.theme) result.afterwards = () => drawFirst(message.key, session, message.theme);
  return result;
}

function drawFirst(key, session, theme) {
  if (sessions.get(key) !== session) return;
  const thread = session.defaultThread();
  const clock = session.defaultClock();
  try {
    drawnFirst.set([key, thread, clock, theme].join(':'), session.flameSvg(thread, clock, theme));
  } catch {
    // Nothing to draw: the page shows why without asking.
  }
}

function forgetDrawn(key) {
  for (const id of drawnFirst.keys()) if (id.startsWith(key + ':')) drawnFirst.delete(id);
}

function forget(key) {
  forgetDrawn(key);
  // A reading of the old analysis stops before it touches a freed session.
  if (inputsOf.has(key)) rereadRun++;
  // A comparison of this session, or under this key, goes with it.
  for (const [id, found] of comparisons) {
    if (id === key || found.before === key || found.after === key) {
      found.comparison.free();
      comparisons.delete(id);
    }
  }
  const found = sessions.get(key);
  if (found) found.free();
  sessions.delete(key);
  inputsOf.delete(key);
  viewOf.delete(key);
}

function comparison(key) {
  const found = comparisons.get(key);
  if (!found) throw new Error('no comparison is loaded');
  return found;
}

function session(key) {
  const found = sessions.get(key);
  if (!found) throw new Error('no analysis is loaded');
  return found;
}

// The session under `key` drawing in the view `json` ('' for the plain one): given with
// the request that draws, so that no other request's view comes in between. A view the
// core refuses (no view, or a frame the trace lacks) is answered as such (`kind: view`).
function viewed(key, json) {
  const found = session(key);
  if (viewOf.get(key) !== json) {
    try {
      found.setView(json);
    } catch (error) {
      throw Object.assign(new Error(error && error.message ? error.message : String(error)), { kind: 'view' });
    }
    viewOf.set(key, json);
  }
  return found;
}

const requests = {
  analyze,
  // Two files: one split trace, or two traces to compare?
  async splitPair(m) {
    await ready;
    return { split: wasm_bindgen.isSplitPair(await head(m.inputs[0], 16), await head(m.inputs[1], 16)) };
  },
  // Which inputs are mapping files (R8/ProGuard mapping.txt), from their first bytes.
  async kinds(m) {
    await ready;
    const kinds = [];
    for (const input of m.inputs) {
      kinds.push(wasm_bindgen.sniffMapping(await head(input, 64 << 10)) === 'mapping' ? 'mapping' : 'trace');
    }
    return { kinds };
  },
  // Mapping files applied to the sessions under `keys`: each file is read once, in
  // slices, keeping what every session needs; each session gets the file that maps most
  // of its classes. Answers each session's report and the core's words for it.
  async mappings(m) {
    await ready;
    const reads = [];
    try {
      const total = m.inputs.reduce((sum, input) => sum + sizeOf(input), 0);
      let done = 0;
      for (const input of m.inputs) {
        const read = new wasm_bindgen.MappingRead();
        reads.push(read);
        for (const key of m.keys) read.want(session(key));
        try {
          await feed(read, input, (n) => {
            done += n;
            reply({ type: 'progress', id: m.id, done, total });
          });
          read.finish();
        } catch (error) {
          throw new Error((input.name || 'the mapping') + ': ' + error.message);
        }
      }
      const applied = {};
      for (const key of m.keys) {
        forgetDrawn(key);
        let best = null;
        for (const [file, read] of reads.entries()) {
          const answer = JSON.parse(read.applyTo(session(key)));
          if (!best || answer.report.classes.mapped > best.report.classes.mapped) best = Object.assign({ file }, answer);
        }
        if (best.file !== reads.length - 1) reads[best.file].applyTo(session(key));
        applied[key] = best;
        viewOf.set(key, null);
      }
      return { applied };
    } finally {
      for (const read of reads) read.free();
    }
  },
  async summary(m) {
    await ready;
    return { summary: session(m.key).summaryJson() };
  },
  // Another source of the same trace (and a heap source's dump): what was drawn goes.
  async source(m) {
    await ready;
    forgetDrawn(m.key);
    const found = session(m.key);
    found.selectSource(m.name, m.dump === null || m.dump === undefined ? undefined : m.dump);
    viewOf.set(m.key, null);
    return { summary: found.summaryJson() };
  },
  async svg(m) {
    await ready;
    const view = m.view || '';
    const id = [m.key, m.thread, m.clock, m.theme].join(':');
    // Drawn first in the plain view, the one a new session has.
    const drawn = view === '' && viewOf.get(m.key) === '' ? drawnFirst.get(id) : undefined;
    forgetDrawn(m.key);
    return { svg: drawn !== undefined ? drawn : viewed(m.key, view).flameSvg(m.thread, m.clock, m.theme) };
  },
  // The view as a file for other viewers (bytes, handed over).
  async exported(m) {
    await ready;
    const bytes = viewed(m.key, m.view || '').exportView(m.format, m.clock);
    return { bytes, transfer: [bytes.buffer] };
  },
  // A call tree's columns as typed arrays, handed over (not copied) with the reply.
  async tree(m) {
    await ready;
    return treeReply(viewed(m.key, m.view || '').callTree(m.thread));
  },
  async libraries(m) {
    await ready;
    return { libraries: session(m.key).librariesOfJson(m.name) };
  },
  async methods(m) {
    await ready;
    return { methods: viewed(m.key, m.view || '').methodsJson(m.thread) };
  },
  async folded(m) {
    await ready;
    return { folded: viewed(m.key, m.view || '').folded(m.clock, m.tid) };
  },
  async timeline(m) {
    await ready;
    const found = session(m.key);
    return { timeline: found.timelineJson(), names: found.frameNamesJson() };
  },
  // The timeline in the view `m.view` (its transforms: a timeline is never inverted).
  async boxes(m) {
    await ready;
    const found = viewed(m.key, m.view || '');
    const boxes = new Float64Array(found.timelineBoxes(m.thread, m.from, m.to, m.pixels, m.maxDepth));
    const made = m.view ? found.madeNamesJson() : '[]';
    return { boxes, made, transfer: [boxes.buffer] };
  },
  // A thread's scheduler states in a window: `start_us, end_us, state, mixed` fours.
  async states(m) {
    await ready;
    const boxes = new Float64Array(session(m.key).stateBoxes(m.thread, m.from, m.to, m.pixels));
    return { boxes, transfer: [boxes.buffer] };
  },
  async stateAt(m) {
    await ready;
    return { state: session(m.key).stateAtJson(m.thread, m.at) };
  },
  async cpus(m) {
    await ready;
    const boxes = new Float64Array(session(m.key).cpuBoxes(m.from, m.to, m.pixels));
    return { boxes, transfer: [boxes.buffer] };
  },
  async cpuAt(m) {
    await ready;
    return { at: session(m.key).cpuAtJson(m.cpu, m.at) };
  },
  async counterSteps(m) {
    await ready;
    const steps = new Float64Array(session(m.key).counterSteps(m.counter, m.from, m.to, m.pixels));
    return { steps, transfer: [steps.buffer] };
  },
  async counterAt(m) {
    await ready;
    return { at: session(m.key).counterAtJson(m.counter, m.at) };
  },
  async frames(m) {
    await ready;
    return { frames: session(m.key).framesJson() };
  },
  async shownSummary(m) {
    await ready;
    return { summary: session(m.key).shownSummaryJson() };
  },
  async callAt(m) {
    await ready;
    return { call: viewed(m.key, m.view || '').callAtJson(m.thread, m.depth, m.at) };
  },
  async slowest(m) {
    await ready;
    return { calls: session(m.key).slowestCallsJson(m.name, m.thread, m.count) };
  },
  async range(m) {
    await ready;
    forgetDrawn(m.key);
    if (m.from === null) session(m.key).clearRange();
    else session(m.key).setRange(m.from, m.to);
    return {};
  },
  // Every call of one thread in a window, short ones read again from the file; answers
  // `cancelled` when a newer request took over.
  async detail(m) {
    await ready;
    const found = session(m.key);
    const input = inputsOf.get(m.key);
    if (!input) throw new Error('the file is not at hand to read again; open it again');
    const run = ++rereadRun;
    const offset = found.rereadStart(m.thread, m.from, m.to);
    const reading = { push: (chunk) => found.rereadPush(chunk) };
    let finished;
    try {
      finished = await readAgain(reading, input, offset, () => run !== rereadRun,
        (read) => reply({ type: 'progress', id: m.id, done: read, total: 0 }));
    } catch (error) {
      // The browser refuses to read a file changed or removed since it was picked.
      if (!['NotReadableError', 'NotFoundError'].includes(error && error.name)) throw error;
      throw new Error('the file could not be read again (was it changed or moved since it was opened?): ' + error.message);
    }
    if (finished) found.rereadFinish();
    return { cancelled: !finished };
  },
  // Two loaded sessions compared; answers the comparison's facts.
  async compare(m) {
    await ready;
    const made = viewed(m.before, m.view || '').compareWith(session(m.after), m.clock || undefined);
    const old = comparisons.get(m.key);
    if (old) old.comparison.free();
    comparisons.set(m.key, { comparison: made, before: m.before, after: m.after });
    return { facts: made.factsJson() };
  },
  async diffSvg(m) {
    await ready;
    return { svg: comparison(m.key).comparison.diffSvg(m.thread || undefined, m.widths, Boolean(m.normalize), m.theme, m.colour, Boolean(m.changedOnly)) };
  },
  async diffFolded(m) {
    await ready;
    return { folded: comparison(m.key).comparison.folded() };
  },
  async methodDeltas(m) {
    await ready;
    const found = comparison(m.key);
    return { methods: viewed(found.before, m.view || '').methodDeltasJson(session(found.after), m.clock, m.thread || undefined) };
  },
  async release(m) {
    forget(m.key);
    return {};
  },
  // Many runs: a new, empty pair of groups (`clock`: '' for the first run's choice).
  async runsOpen(m) {
    await ready;
    dropRuns();
    runGroups = new wasm_bindgen.RunGroups(m.clock || undefined);
    return { facts: runGroups.factsJson() };
  },
  // One run (a file) read, reduced into its group and let go: only the reduction stays.
  // With `mapping` (a mapping file), the run's names are deobfuscated first: the file is
  // read again for each run, keeping only what that run's classes need.
  async runsAdd(m) {
    await ready;
    if (!runGroups) throw new Error('no groups of runs are open');
    const run = new wasm_bindgen.Session();
    let mapped = null;
    try {
      const traceSize = m.inputs.reduce((sum, input) => sum + sizeOf(input), 0);
      const whole = traceSize + (m.mapping ? sizeOf(m.mapping) : 0);
      const progress = (done) => reply({ type: 'progress', id: m.id, done, total: whole });
      await analyzeInto(run, m.inputs, wasm_bindgen.splitKeyIsSecond, progress);
      if (m.mapping) mapped = await mapRun(run, m.mapping, (done) => progress(traceSize + done));
      runGroups.add(m.label, m.group, run);
    } finally {
      run.free();
    }
    if (runMedians) runMedians.free();
    runMedians = null;
    return { facts: runGroups.factsJson(), mapped };
  },
  async runsMethods(m) {
    return { methods: openRuns().methodsJson(m.alpha, Boolean(m.share)) };
  },
  async runsMethodRuns(m) {
    return { runs: openRuns().methodRunsJson(m.method) };
  },
  async runsGroupSvg(m) {
    return { svg: openRuns().groupSvg(m.group, m.stat || undefined, m.thread || undefined, m.theme) };
  },
  async runsTree(m) {
    return treeReply(openRuns().groupTree(m.group, m.stat || undefined, m.thread || undefined));
  },
  async runsDiffSvg(m) {
    if (!runMedians) runMedians = openRuns().medianComparison();
    // Frames are coloured where the runs show their method changed, not by size alone.
    const shown = openRuns().changedNames(m.alpha, Boolean(m.share));
    return { svg: runMedians.diffSvg(m.thread || undefined, m.widths, Boolean(m.normalize), m.theme, m.colour, Boolean(m.changedOnly), shown) };
  },
  async runsClose() {
    dropRuns();
    return {};
  },
};

// `run`'s names from the mapping file `input`: `{report, text}` as `mappings` answers.
async function mapRun(run, input, progress) {
  const read = new wasm_bindgen.MappingRead();
  try {
    read.want(run);
    let done = 0;
    try {
      await feed(read, input, (n) => progress(done += n));
      read.finish();
    } catch (error) {
      throw new Error((input.name || 'the mapping') + ': ' + error.message);
    }
    return JSON.parse(read.applyTo(run));
  } finally {
    read.free();
  }
}

// A call tree's columns (freed here) as typed arrays, handed over (not copied) with the reply.
function treeReply(columns) {
  try {
    const tree = {
      names: JSON.parse(columns.namesJson()), parent: columns.parent(), name: columns.name(),
      total_wall: columns.totalWall(), self_wall: columns.selfWall(), total_cpu: columns.totalCpu(),
      self_cpu: columns.selfCpu(), calls: columns.calls(),
    };
    const transfer = Object.values(tree).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer);
    return { tree, transfer };
  } finally {
    columns.free();
  }
}

function openRuns() {
  if (!runGroups) throw new Error('no groups of runs are open');
  return runGroups;
}

function dropRuns() {
  if (runMedians) runMedians.free();
  if (runGroups) runGroups.free();
  runMedians = null;
  runGroups = null;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'init') {
    ready = wasm_bindgen({ module_or_path: message.module });
    wasmMemory = (await ready).memory;
    reply({ type: 'started' });
    return;
  }
  try {
    const handle = requests[message.type];
    if (!handle) throw new Error('unknown request ' + message.type);
    const result = await handle(message);
    // `afterwards`: work the answer does not wait for, done before the next request is read.
    const { transfer = [], afterwards } = result;
    delete result.transfer;
    delete result.afterwards;
    // The wasm heap's size after each answer: what the products cost in memory too.
    const heap = wasmMemory ? wasmMemory.buffer.byteLength : 0;
    self.postMessage(Object.assign({ type: 'ok', id: message.id, heap }, result), transfer);
    if (afterwards) afterwards();
  } catch (error) {
    // A trap (a Rust panic, or running out of memory) leaves the instance unusable: the
    // page must replace this worker.
    const fatal = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
    const text = error && error.message ? error.message : String(error);
    reply({ type: 'error', id: message.id, message: text, fatal, kind: error && error.kind });
  }
};
