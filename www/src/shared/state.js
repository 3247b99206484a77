// The page's one state. Views read it and re-render from it when it changes; only
// `update` changes it, so what is shown always follows one set of choices.

import { viewAround } from './timespan.js';
import { plainViewState } from './transforms.js';

/** What the page starts with, and what a newly opened trace resets to. */
export function initialState() {
  return {
    phase: 'idle', // idle | loading | done | error | runs
    // Picked files are being told apart, or a mapping applied: the page reports itself
    // loading (`body[data-state]`) whatever view it shows meanwhile.
    busy: false,
    name: '', // the file(s) shown
    summary: null,
    error: '',
    thread: -1, // index into summary.threads; -1 for all threads
    clock: 'wall',
    tab: 'flame', // the view on show: an id in views/list.js
    // {from, to} in µs from the timeline's start: graphs and tables cover only it. Kept
    // here alone: the engine's products follow it (engine.js).
    range: null,
    frame: -1, // the app frame (index into the core's frames) whose time is the range; -1 for none
    frameSort: { column: 'jank', descending: true },
    frameFilter: '', // the frames table's filter
    frameLayer: -1, // the layer the frames table lists (index into the core's layers); -1 for all
    heapHeap: '', // the heap a dump's tables cover ('' for all)
    heapByPackage: false, // the classes table lists packages instead
    heapClass: '', // the class whose instances are listed ('' for none)
    heapObject: '', // the object shown in full (`0x…`; '' for none)
    heapSort: { column: 'retained', descending: true },
    heapFilter: '', // the classes table's filter
    heapInstanceSort: { column: 'retained', descending: true },
    heapInstanceFilter: '', // the instances table's filter
    focus: null, // a call to show in the timeline: {thread, depth, start_us, end_us}
    timelineView: null, // {from, to} µs: the timeline's window (kept inside the trace where drawn); null for the span with data
    pins: [], // thread ids the timeline shows at the top, beside the chosen thread
    timelineDeep: false, // the chosen thread's every depth, whatever else the timeline shows
    timelineGroups: {}, // a process's group open (true) or closed (false) where the reader chose, by groupKey
    threadFilter: '', // the thread list's filter
    method: null, // the selected method's key (see methodKey)
    methodSort: { column: 'incl', descending: true },
    methodFilter: '', // the methods table's filter
    theme: 'light',
    search: '', // the flame graph's search term
    graphPath: null, // frame names from the one above the root: the flame graph zooms to the last

    treeSearch: '', // the call tree's search term
    treeFunction: '', // the function whose sandwich the call tree shows ('' for none)
    // The main graph's view: `{transforms, invert}` (transforms.js), the views before it
    // for Undo (last is newest), and why the core refused the last one tried ('' if not).
    ...plainViewState(),
    // The trace on show (before) compared with a second one (after):
    // null, or {phase: 'loading' | 'done' | 'error', name, summary, facts, error}.
    compare: null,
    compareThread: '', // a thread name both sides are shown for; '' for all threads
    compareWidths: 'after', // the side whose time sets the graph's widths
    compareNormalize: false, // scale the other side to the same total
    compareColour: 'self', // what a frame's colour measures the change of: self | total
    compareChanged: false, // fade the frames whose change is drawn neutral
    compareSort: { column: 'incl-delta', descending: true },
    compareSearch: '', // the differential graph's search term
    compareFilter: '', // the compared methods table's filter
    // Many runs of one scenario in two groups (phase 'runs'): null, or {phase: 'choosing' |
    // 'reading' | 'done' | 'error', files: [{file, name, size, group, status, error}], why,
    // facts, error} (runs.js).
    runs: null,
    runsSort: { column: 'verdict', descending: false }, // the core's order: significant first
    runsFilter: '', // the runs' methods table's filter
    runsMethod: -1, // the method (the core's id) whose runs are shown; -1 for none
    runsGraph: 'diff', // diff | before | after
    runsThread: '', // a thread name; '' for all threads
    runsShare: false, // test shares of run time instead of µs
    runsClock: '', // wall | cpu: the clock the runs are read on; '' for the first run's
    runsSearch: '', // the runs graph's search term
    runsTreeGroup: 'after', // before | after: the group whose call tree is shown
    runsTreeSearch: '', // the runs call tree's search term
  };
}

/**
 * A store: `get()` the state, `update(patch)` merges a patch and tells every subscriber
 * `(state, previous)` once, `subscribe(fn)` returns an unsubscribe function.
 */
export function createStore(state = initialState()) {
  const listeners = new Set();
  return {
    get: () => state,
    update(patch) {
      const previous = state;
      state = Object.assign({}, state, patch);
      for (const listener of listeners) listener(state, previous);
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** True when any of `keys` differs between two states. */
export function changed(state, previous, ...keys) {
  return !previous || keys.some((key) => state[key] !== previous[key]);
}

/** The clocks a summary offers, from the core's list. */
export function clocksOf(summary) {
  const list = summary && summary.format.clocks ? summary.format.clocks : [];
  return { wall: list.includes('wall'), cpu: list.includes('cpu') };
}

/** The state for a newly analysed trace: the core's default thread and clock. */
export function openedState(summary, name) {
  const clocks = clocksOf(summary);
  const thread = summary.default_thread === null || summary.default_thread === undefined ? -1 : summary.default_thread;
  return {
    phase: 'done', summary, name, error: '', thread, clock: summary.format.default_clock || (clocks.wall ? 'wall' : 'cpu'),
    method: null, search: '', graphPath: null, threadFilter: '', treeSearch: '', treeFunction: '',
    range: null, frame: -1, frameFilter: '', frameLayer: -1, focus: null, timelineView: null, pins: [], timelineGroups: {}, timelineDeep: false, compare: null,
    heapHeap: '', heapByPackage: false, heapClass: '', heapObject: '', heapFilter: '', heapInstanceFilter: '',
    // A heap dump opens on its overview.
    ...(summary.heap_dump ? { tab: 'heap' } : {}),
    ...plainViewState(),
  };
}

/** The state for another source of the trace on show: as opened, on the same tab. */
export function sourceState(summary) {
  // A dump's choices (its class, its object) are of the dump, whatever stacks are drawn.
  const { phase, name, compare, tab, heapHeap, heapByPackage, heapClass, heapObject, heapFilter, heapInstanceFilter, ...rest } =
    openedState(summary, '');
  return rest;
}

/** The state that shows `call` (`{thread, depth, start_us, end_us}`) in the timeline. */
export function focusOn(call) {
  // With a margin each side; the timeline keeps the window inside the trace.
  return { tab: 'timeline', thread: call.thread, focus: call, timelineView: viewAround(call.start_us, call.end_us, Infinity) };
}

/** A method's identity across tables of different threads. */
export function methodKey(method) {
  return method.name + '\u0000' + method.signature;
}
