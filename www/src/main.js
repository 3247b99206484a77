// droidflame's page: the UI on the main thread. All analysis runs in a worker; this code
// asks for products and shows them. Trace text is untrusted: it only ever becomes text
// nodes, and flame graphs live in sandboxed frames. One state (state.js) holds every
// choice; each view re-renders from it.

import frameScript from './flame/graph-frame.js' with { type: 'text' };
import { $, download } from './shared/dom.js';
import { Engine } from './engine/engine.js';
import { Products } from './engine/products.js';
import { clockWords, fileStem, unitOf } from './shared/format.js';
import { wireEmbed, analyzeApi, compareApi } from './input/embed.js';
import { sortFiles, wireInput } from './input/input.js';
import { createMapping } from './trace/mapping.js';
import { createProgress } from './shared/progress.js';
import { COMPARE_KEY } from './compare/compare.js';
import { createRuns, runsDataState } from './runs/runs.js';
import { changed, clocksOf, createStore, openedState, sourceState } from './shared/state.js';
import { createSourceSwitch } from './trace/sources.js';
import { createThreadList } from './trace/threads.js';
import { rangeText } from './shared/timespan.js';
import { viewJson } from './shared/transforms.js';
import { createAddress } from './link/address.js';
import { createViewCrumbs } from './flame/view-crumbs.js';
import { VIEWS } from './views/list.js';
import { createTabs } from './views/tabs.js';
import { bindToolbar } from './shared/toolbar-keys.js';

const engine = new Engine(window.DROIDFLAME_BOOT);
// `?calls=N`: the timeline keeps at most N calls before only the longest stay (fewer for a
// machine short of memory); the engine's default otherwise.
const asked = new URLSearchParams(window.location.search);
const maxCalls = Number(asked.get('calls')) || undefined;
// `?workers=N`: how many workers read one large file at once (the machine's cores
// otherwise); `?piecesFrom=BYTES`: from what size (the engine's choice otherwise).
const workers = Number(asked.get('workers')) || undefined;
const piecesFrom = asked.has('piecesFrom') ? Number(asked.get('piecesFrom')) : undefined;
const store = createStore();
const products = new Products(engine, 'ui', () => store.get().range, () => viewJson(store.get().view));
const page = { store, engine, products, frameScript };

// The page's phase and tabs come first, so that views render into visible places.
function layout(state, previous) {
  if (changed(state, previous, 'phase', 'busy', 'runs')) {
    document.body.dataset.state = state.busy ? 'loading' : state.phase === 'runs' ? runsDataState(state.runs) : state.phase;
  }
  if (changed(state, previous, 'phase')) {
    $('welcome').hidden = state.phase !== 'idle';
    $('progress').hidden = state.phase !== 'loading';
    $('error').hidden = state.phase !== 'error';
    // A report being replaced stays laid out behind the progress, unseen: a graph frame
    // taken out of the layout (display: none) while its next document is made may never
    // be laid out again in Chromium once shown, leaving its graph blank.
    $('report').hidden = state.phase !== 'done' && !(state.phase === 'loading' && state.summary);
    $('report').classList.toggle('behind', state.phase !== 'done');
  }
  if (state.phase === 'error' && changed(state, previous, 'error', 'name')) {
    $('error-title').textContent = state.name ? state.name + ' could not be read' : 'This file could not be read';
    $('error-text').textContent = state.error;
  }
  if (changed(state, previous, 'range', 'phase')) {
    $('range-bar').hidden = !state.range || state.phase !== 'done';
    if (state.range) $('range-text').textContent = 'Graphs and tables cover ' + rangeText(state.range) + ' of the trace.';
  }
  if (state.phase === 'done' && changed(state, previous, 'summary', 'clock')) {
    const available = clocksOf(state.summary);
    // One clock whose values are no time (a heap profile's bytes): nothing to switch.
    const single = ['wall', 'cpu'].filter((c) => available[c]);
    const noSwitch = single.length === 1 && unitOf(state.summary, single[0]) !== 'us';
    for (const box of document.querySelectorAll('fieldset.clock:has(input[data-clock])')) box.hidden = noSwitch;
    for (const input of document.querySelectorAll('input[data-clock]')) {
      const clock = input.dataset.clock;
      input.disabled = !available[clock];
      input.checked = state.clock === clock;
      input.parentElement.title = available[clock] ? clockWords(clock, state.summary) : 'This trace has no ' + clock + ' clock';
    }
  }
}
store.subscribe(layout);
createTabs(store);

createThreadList(store, products);
createViewCrumbs(store, products);
bindToolbar($('bar-tools'), 'Trace');
bindToolbar(document.querySelector('#view-bar .view-tools'), 'Stack view');
bindToolbar($('save-tools'), 'Save the graph');
// Each view, by its id: the flame graph and Compare are asked for more below.
const views = Object.fromEntries(VIEWS.map((view) => [view.id, view.create(page)]));
const graph = views.flame;
const compare = views.compare;
const runs = createRuns(page, (files) => openFiles(files).catch(() => {}));
// The open traces a mapping may name: the one on show, and the one it is compared with.
function openSides() {
  const s = store.get();
  const sides = [{ key: products.key, label: s.compare ? 'Before' : 'This trace' }];
  if (s.compare && s.compare.phase === 'done') sides.push({ key: COMPARE_KEY, label: 'After' });
  return sides;
}
// Renamed traces: every view re-renders from the new summaries.
async function renamed() {
  products.clear();
  const summary = await engine.summary(products.key);
  store.update({ summary });
  await compare.renamed();
  await graph.settled();
}
const mapping = createMapping(store, engine, openSides, renamed);

// Another source of the trace (its CPU samples, a heap dump): every view starts over on it.
async function showSource(name, dump) {
  store.update({ busy: true });
  try {
    products.opened();
    const summary = await engine.selectSource(products.key, name, dump);
    store.update(Object.assign(sourceState(summary), { busy: false }));
    await compare.resourced(name, dump);
    await graph.settled();
  } catch (error) {
    store.update({ busy: false });
    graph.note('The source could not be shown: ' + error.message);
  }
}
createSourceSwitch(store, showSource);

// When the files being opened were chosen (dropped or picked), for the time to the first
// graph the page reports in `body[data-first-graph-ms]`.
let chosenAt = null;
const progress = createProgress($('progress-bar'), $('progress-text'));

async function open(inputs, name) {
  store.update({ phase: 'loading', name, error: '' });
  progress.start(name);
  const started = chosenAt === null ? performance.now() : chosenAt;
  chosenAt = null;
  document.body.dataset.openedAt = String(started);
  try {
    const result = await engine.analyze(products.key, inputs, (done, total) => progress.read(name, done, total),
      true, maxCalls, store.get().theme, workers, piecesFrom);
    document.body.dataset.wasmBytes = String(result.wasmBytes);
    document.body.dataset.pieces = String(result.pieces);
    products.opened();
    store.update(openedState(result.summary, name));
    await address.applyLink();
    // The keyboard goes on from the view just opened (its tab), not from the open button or
    // the drop zone, which the page has left behind.
    const active = document.activeElement;
    if (!active || active === document.body || active.matches('[data-open], #picker, .drop, .welcome *')) {
      const tab = document.getElementById('tab-button-' + store.get().tab);
      if (tab && !tab.hidden) tab.focus({ preventScroll: true });
    }
    await graph.settled();
    document.body.dataset.firstGraphMs = String(Math.round(performance.now() - started));
    // The frames view's data, made while the person looks at the first graph.
    if (result.summary.app_frames) products.frames().catch(() => {});
    return result.summary;
  } catch (error) {
    store.update({ phase: 'error', error: error.message });
    throw error;
  }
}

function fail(message) {
  store.update({ phase: 'error', name: '', error: message });
}

// A download that fails (the folded text can pass the in-memory limit) says why, next to
// the graph, which stays as it is.
async function saving(save) {
  try {
    await save();
  } catch (error) {
    graph.note('Nothing was saved: ' + error.message);
  }
}

function wireControls() {
  $('range-clear').addEventListener('click', () => store.update({ range: null, frame: -1 }));
  for (const input of document.querySelectorAll('input[data-clock]')) {
    input.addEventListener('change', () => store.update({ clock: input.dataset.clock }));
  }
  $('save-svg').addEventListener('click', () => saving(async () => {
    const s = store.get();
    const scope = s.thread < 0 ? 'all-threads' : 'thread-' + s.summary.threads[s.thread].tid;
    download(fileStem(s.name) + '-' + scope + '-' + s.clock + '.svg', await graph.current(), 'image/svg+xml');
  }));
  $('save-folded').addEventListener('click', () => saving(async () => {
    const s = store.get();
    download(fileStem(s.name) + '-' + s.clock + '.folded', await products.folded(s.clock), 'text/plain');
  }));
  // Exports of the view: the worker makes the bytes; the file is named after the trace.
  const EXPORT_NAMES = { speedscope: '.speedscope.json', pprof: '.pb.gz', chrome: '.chrome.json' };
  const EXPORT_TYPES = { speedscope: 'application/json', pprof: 'application/gzip', chrome: 'application/json' };
  for (const button of document.querySelectorAll('[data-export]')) {
    button.addEventListener('click', () => saving(async () => {
      const s = store.get();
      const format = button.dataset.export;
      $('export-menu').open = false;
      download(fileStem(s.name) + '-' + s.clock + EXPORT_NAMES[format], await products.exported(format, s.clock), EXPORT_TYPES[format]);
    }));
  }
  // The export menu closes as menus do: a click elsewhere, or Escape (back to its button).
  document.addEventListener('pointerdown', (event) => {
    if (!$('export-menu').contains(event.target)) $('export-menu').open = false;
  });
  $('export-menu').addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !$('export-menu').open) return;
    $('export-menu').open = false;
    $('export-menu').querySelector('summary').focus();
  });
  $('save-summary').addEventListener('click', () => {
    const s = store.get();
    download(fileStem(s.name) + '-summary.json', JSON.stringify(s.summary, null, 2) + '\n', 'application/json');
  });
  // Graphs follow the page's light or dark scheme.
  const dark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const theme = () => (dark && dark.matches ? 'dark' : 'light');
  if (dark) dark.addEventListener('change', () => store.update({ theme: theme() }));
  store.update({ theme: theme() });
}

wireControls();

const address = createAddress(store, showSource);

/**
 * Opens files: one trace, a split trace's two halves, or two traces, which are compared
 * (the first is before, the second after); mapping files among them (or alone, for the
 * trace on show) are applied to the trace(s) whose classes they name.
 */
async function openFiles(files) {
  chosenAt = performance.now();
  store.update({ busy: true });
  try {
    await openSorted(files);
  } finally {
    store.update({ busy: false });
  }
}

// The files told apart (traces, mapping files), then opened or applied.
async function openSorted(files) {
  const kinds = await engine.kinds(files).catch(() => files.map(() => 'trace'));
  const sorted = sortFiles(files, kinds);
  if (sorted.error) return fail(sorted.error);
  const { traces, mappings } = sorted;
  // Runs being put in groups take more runs; three traces or more are runs.
  const choosing = store.get().phase === 'runs' && store.get().runs && store.get().runs.phase === 'choosing';
  if (traces.length > 2 || (choosing && (traces.length > 0 || mappings.length > 0))) return runs.add(traces, mappings);
  if (traces.length === 0) {
    if (store.get().phase !== 'done') {
      return fail('This is a mapping file (R8/ProGuard mapping.txt): open its trace first, or drop both together.');
    }
    return mapping.apply(mappings);
  }
  if (traces.length === 2 && !(await engine.splitPair(traces).catch(() => true))) {
    const started = performance.now();
    await open([traces[0]], traces[0].name);
    await compare.withFiles([traces[1]], traces[1].name);
    document.body.dataset.compareMs = String(Math.round(performance.now() - started));
  } else {
    await open(traces, traces.map((f) => f.name).join(' + '));
  }
  if (mappings.length) await mapping.apply(mappings);
}

wireInput((files) => openFiles(files).catch(() => {}), fail);
// The engine starts while the page waits for a file: compiling the wasm and starting its
// worker then cost the first trace nothing. A failure shows when a file is opened.
engine.onStarted = () => { document.body.dataset.engine = 'ready'; };
engine.ensure().catch(() => {});
wireEmbed(open, (bytes, name) => compare.withFiles([bytes], name));
window.droidflame = Object.freeze({ analyze: analyzeApi(engine), compare: compareApi(engine), version: '1' });
layout(store.get(), null);
