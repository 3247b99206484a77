// The view in the page's address: its hash says the file's name, the tab, the thread (by name and id), the
// clock, the range, the view's transforms, the searches, the selected function, the
// timeline's chosen call and whether a comparison was on, so that a link opened with the
// same file shows the same view. The hash never leaves the page (no request carries it).
// Anyone can craft a link: the hash is read as untrusted text; names in it are only ever
// shown as text; unknown keys and bad values are left out, each with a note saying so.
// Pure logic (unit-tested).

import { threadLabel } from '../shared/format.js';
import { showsHeap } from '../trace/sources.js';
import { clocksOf } from '../shared/state.js';
import { viewAround } from '../shared/timespan.js';
import { PLAIN_VIEW, TRANSFORM_KINDS, isPlain } from '../shared/transforms.js';
import { viewOf } from '../views/list.js';

// A hash longer than this is not read at all; a name longer than this is no frame's.
export const MAX_HASH = 64 * 1024;
const MAX_TEXT = 4096;
const MAX_STEPS = 64;
const MAX_PATH = 512;

/** The hash (without `#`) of the view in `state`; empty for a page with nothing open. */
export function hashOf(state) {
  if (state.phase !== 'done' || !state.summary) return '';
  const params = new URLSearchParams();
  // The file it was made with, to name where the link is opened without it.
  if (state.name) params.set('file', state.name.slice(0, MAX_TEXT));
  params.set('tab', state.tab);
  // The source first: the thread and everything else are of it.
  const sources = state.summary.sources || [];
  if (sources.length > 1 || (sources[0] && sources[0].name !== state.summary.source)) params.set('source', state.summary.source);
  const dumps = state.summary.dumps;
  if (dumps && dumps.count > 1 && showsHeap(state.summary)) params.set('dump', String(dumps.selected + 1));
  params.set('thread', state.thread < 0 ? 'all' : threadLabel(state.summary.threads[state.thread]));
  params.set('clock', state.clock);
  if (state.range) params.set('range', round(state.range.from) + '-' + round(state.range.to));
  // The timeline's window and the threads pinned in it.
  if (state.timelineView) params.set('window', round(state.timelineView.from) + '-' + round(state.timelineView.to));
  if (state.pins && state.pins.length > 0) params.set('pins', state.pins.join('.'));
  // The process groups opened (by key) or closed (`-key`) by hand, the chosen thread's every
  // depth, the frame chosen.
  const groups = Object.entries(state.timelineGroups || {}).map(([key, open]) => (open ? key : '-' + key));
  if (groups.length > 0) params.set('groups', groups.join('.'));
  if (state.timelineDeep) params.set('deep', 'on');
  if (state.frame >= 0) params.set('frame', String(state.frame));
  if (!isPlain(state.view)) params.set('view', JSON.stringify({ transforms: state.view.transforms, invert: state.view.invert }));
  if (state.search) params.set('search', state.search);
  if (state.treeSearch) params.set('tree_search', state.treeSearch);
  if (state.treeFunction) params.set('function', state.treeFunction);
  if (state.compare) params.set('compare', 'on');
  if (state.summary.heap_dump) {
    if (state.heapHeap) params.set('heap', state.heapHeap);
    if (state.heapByPackage) params.set('packages', 'on');
    if (state.heapClass) params.set('class', state.heapClass);
    if (state.heapObject) params.set('object', state.heapObject);
  }
  const call = state.focus;
  if (call && state.summary.threads[call.thread]) {
    params.set('call', [call.depth, round(call.start_us), round(call.end_us), threadLabel(state.summary.threads[call.thread])].join('~'));
  }
  return params.toString();
}

/** A call from the hash's `call` (`depth~start~end~thread`) in `summary`, or null. */
export function callFromText(value, summary) {
  const found = /^(\d{1,5})~(\d+(?:\.\d+)?)~(\d+(?:\.\d+)?)~([\s\S]+)$/.exec(value);
  if (!found) return null;
  const [depth, start_us, end_us] = [1, 2, 3].map((i) => Number(found[i]));
  const thread = summary.threads.findIndex((t) => threadLabel(t) === found[4]);
  const length = summary.elapsed_us;
  if (thread < 0 || !(start_us <= end_us) || (typeof length === 'number' && end_us > length + 1)) return null;
  return { thread, depth, start_us, end_us };
}

function round(us) {
  return Math.round(us * 1000) / 1000;
}

/** The file a link was made with (its `file`), or '' where it does not say. */
export function linkFile(params) {
  const file = params && params.get('file');
  return file ? file.slice(0, 200) : '';
}

/** The hash's keys and values, or a note where it cannot be read. */
export function parseHash(hash) {
  const text = String(hash || '').replace(/^#/, '');
  if (!text) return { params: null, notes: [] };
  if (text.length > MAX_HASH) return { params: null, notes: ['The link\'s view is too long to read: the trace opens as it would without it.'] };
  try {
    return { params: new URLSearchParams(text), notes: [] };
  } catch {
    return { params: null, notes: ['The link\'s view could not be read: the trace opens as it would without it.'] };
  }
}

function text(value) {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

/** A view from the hash's JSON, checked for shape (the core checks its names); null if bad. */
export function viewFromText(value) {
  let parsed;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { transforms = [], invert = false } = parsed;
  if (Object.keys(parsed).some((k) => k !== 'transforms' && k !== 'invert')) return null;
  if (!Array.isArray(transforms) || transforms.length > MAX_STEPS || typeof invert !== 'boolean') return null;
  const steps = [];
  for (const step of transforms) {
    if (!step || typeof step !== 'object' || Array.isArray(step)) return null;
    const keys = Object.keys(step);
    if (keys.length !== 1 || !TRANSFORM_KINDS.includes(keys[0])) return null;
    const subject = step[keys[0]];
    const ok = keys[0] === 'focus_subtree'
      ? Array.isArray(subject) && subject.length > 0 && subject.length <= MAX_PATH && subject.every(text)
      : text(subject);
    if (!ok) return null;
    steps.push({ [keys[0]]: subject });
  }
  return steps.length === 0 && !invert ? PLAIN_VIEW : { transforms: steps, invert };
}

/**
 * The source (and a heap source's dump, from 0) the link asks for, where it differs from
 * what `summary` shows and the trace has it: `{name, dump}` or null; and a note for each
 * part left out.
 */
export function linkSource(params, summary) {
  const notes = [];
  if (!params || !summary) return { wanted: null, notes };
  const sources = summary.sources || [];
  let name = summary.source;
  if (params.has('source')) {
    const asked = params.get('source');
    if (sources.some((s) => s.name === asked)) name = asked;
    else notes.push('This trace has no ' + JSON.stringify(asked.slice(0, 40)) + ' stacks: the link\'s source was left out.');
  }
  let dump = null;
  if (params.has('dump')) {
    const asked = Number(params.get('dump'));
    const count = summary.dumps ? summary.dumps.count : 0;
    if (Number.isInteger(asked) && asked >= 1 && asked <= count) dump = asked - 1;
    else notes.push('This trace has no heap dump ' + JSON.stringify(params.get('dump').slice(0, 20)) + ': the link\'s dump was left out.');
  }
  const changes = name !== summary.source || (dump !== null && summary.dumps && dump !== summary.dumps.selected);
  return { wanted: changes ? { name, dump } : null, notes };
}

/**
 * The store patch that shows the link's view of the trace in `state` (its summary), and a
 * note for each part left out. Only what the trace has is taken: a thread it lacks, a clock
 * it lacks, a range outside it. A view is taken as it is; the core checks its names.
 */
export function linkPatch(params, state) {
  const patch = {};
  const notes = [];
  if (!params) return { patch, notes };
  const summary = state.summary;
  const known = ['file', 'tab', 'source', 'dump', 'thread', 'clock', 'range', 'window', 'pins', 'groups', 'deep', 'frame', 'view', 'search', 'tree_search',
    'function', 'compare', 'call', 'heap', 'packages', 'class', 'object'];
  const unknown = [...new Set([...params.keys()].filter((k) => !known.includes(k)))];
  if (unknown.length) notes.push('The link has ' + (unknown.length === 1 ? 'a part' : 'parts') + ' this page does not know, left out: ' + unknown.map((k) => '"' + k.slice(0, 40) + '"').join(', ') + '.');
  const bad = (what) => notes.push('The link\'s ' + what + ' was left out.');
  const get = (key) => (params.has(key) ? params.get(key) : null);

  const file = get('file');
  if (file !== null && state.name && file !== state.name) {
    notes.push('The link was made with ' + JSON.stringify(file.slice(0, 200)) + '; this is ' + JSON.stringify(state.name.slice(0, 200)) + '.');
  }
  const tab = get('tab');
  if (tab !== null) {
    if (viewOf(tab)) patch.tab = tab;
    else bad('tab');
  }
  const thread = get('thread');
  if (thread !== null) {
    const index = thread === 'all' ? -1 : summary.threads.findIndex((t) => threadLabel(t) === thread);
    if (thread === 'all' || index >= 0) patch.thread = index;
    else notes.push('This trace has no thread ' + JSON.stringify(thread.slice(0, 200)) + ': the link\'s thread was left out.');
  }
  const clock = get('clock');
  if (clock !== null) {
    if ((clock === 'wall' || clock === 'cpu') && clocksOf(summary)[clock]) patch.clock = clock;
    else bad('clock');
  }
  const span = (key, field, what) => {
    const value = get(key);
    if (value === null) return;
    const found = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(value);
    const from = found ? Number(found[1]) : NaN;
    const to = found ? Number(found[2]) : NaN;
    const length = summary.elapsed_us;
    if (found && from < to && (typeof length !== 'number' || to <= length + 1)) patch[field] = { from, to };
    else bad(what);
  };
  span('range', 'range', 'range');
  span('window', 'timelineView', 'timeline window');
  const pins = get('pins');
  if (pins !== null) {
    // Thread ids: the timeline leaves out any the trace lacks.
    const tids = pins.split('.').slice(0, MAX_STEPS).map(Number);
    if (pins.length <= MAX_TEXT && tids.every((tid) => Number.isInteger(tid) && tid >= 0 && tid < 2 ** 32)) patch.pins = tids;
    else bad('pinned threads');
  }
  const groups = get('groups');
  if (groups !== null) {
    // Process ids, or `none` (threads of no process) and `none-counters`; `-` for closed.
    const items = groups.split('.').slice(0, MAX_STEPS).map((item) => /^(-?)(\d{1,10}|none|none-counters)$/.exec(item));
    if (groups.length <= MAX_TEXT && items.every(Boolean)) patch.timelineGroups = Object.fromEntries(items.map((m) => [m[2], m[1] !== '-']));
    else bad('process groups opened or closed');
  }
  const deep = get('deep');
  if (deep !== null) {
    if (deep === 'on') patch.timelineDeep = true;
    else bad('deep view');
  }
  const frame = get('frame');
  if (frame !== null) {
    // An index into the frames the core lists: apps' then the display's.
    const index = /^\d{1,7}$/.test(frame) ? Number(frame) : -1;
    if (index >= 0 && summary.app_frames) patch.frame = index;
    else bad('frame chosen');
  }
  const view = get('view');
  if (view !== null) {
    const parsed = viewFromText(view);
    if (parsed) patch.view = parsed;
    else bad('view (its transforms)');
  }
  for (const [key, field, what] of [['search', 'search', 'search'], ['tree_search', 'treeSearch', 'call tree search'], ['function', 'treeFunction', 'function']]) {
    const value = get(key);
    if (value === null) continue;
    if (value.length <= MAX_TEXT) patch[field] = value;
    else bad(what);
  }
  const call = get('call');
  if (call !== null) {
    const focus = call.length <= MAX_TEXT ? callFromText(call, summary) : null;
    // The timeline opens around the call, unless the link keeps a window of its own.
    if (focus) Object.assign(patch, { focus, timelineView: patch.timelineView || viewAround(focus.start_us, focus.end_us, Infinity) });
    else bad('chosen call');
  }
  const compare = get('compare');
  if (compare !== null) {
    if (compare !== 'on') bad('comparison');
    else if (!state.compare) notes.push('The link was made comparing two traces: open the second with Compare with… to see it.');
  }
  Object.assign(patch, heapPatch(get, summary, bad));
  if (patch.tab === 'compare' && !state.compare) delete patch.tab;
  return { patch, notes };
}

/**
 * A heap dump's choices from the link: its heap (one the dump has), packages, class, object;
 * one the link leaves out is none (Back from a class or an object goes to the view without).
 */
function heapPatch(get, summary, bad) {
  const dump = summary.heap_dump;
  if (!dump) {
    if (['heap', 'packages', 'class', 'object'].some((k) => get(k) !== null)) bad('heap dump\'s choices (this is no heap dump)');
    return {};
  }
  const patch = { heapHeap: '', heapByPackage: false, heapClass: '', heapObject: '' };
  const heap = get('heap');
  if (heap !== null) {
    if (dump.heaps.some((h) => h.name === heap)) patch.heapHeap = heap;
    else bad('heap');
  }
  if (get('packages') !== null) patch.heapByPackage = get('packages') === 'on';
  const className = get('class');
  if (className !== null) {
    if (className.length <= MAX_TEXT) patch.heapClass = className;
    else bad('class');
  }
  const object = get('object');
  if (object !== null) {
    if (/^0x[0-9a-f]{1,16}$/.test(object)) patch.heapObject = object;
    else bad('object');
  }
  return patch;
}
