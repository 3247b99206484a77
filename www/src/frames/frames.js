// The Frames tab: each layer's app frames in figures (janky share, jank types, frame-time
// percentiles), and every frame in a table that opens janky-first, most late first. Choosing
// a frame selects its time: the flame graph, call tree, methods, timeline and scheduling then
// cover exactly that frame, on the app's main thread.

import { $, element } from '../shared/dom.js';
import { count, percent } from '../shared/format.js';
import { frameName, framePatch, frameTone, jankRank, shortLayer, TONE_WORDS } from './frame-marks.js';
import { createSortTable } from '../shared/sort-table.js';
import { changed } from '../shared/state.js';
import { bindToolbar } from '../shared/toolbar-keys.js';
import { rangeText, timeText, viewAround } from '../shared/timespan.js';

/** Frames listed at most; the filter and the layer choice reach the others. */
const FRAME_LIMIT = 1000;

const time = (us) => (us === null || us === undefined ? '—' : timeText(us));

/** The table's columns (sort-table.js); `layers` names a frame's layer. */
export function frameColumns(layers) {
  const columns = [
    { id: 'jank', label: 'Jank', value: jankRank, cell: (f) => f.jank, tone: (f) => 'tone-' + frameTone(f),
      hint: 'Janky frames first, the most late first', title: (f) => f.jank },
    { id: 'start', label: 'Starts at', value: (f) => f.start_us, cell: (f) => timeText(f.start_us), className: 'n' },
    { id: 'duration', label: 'Duration', value: (f) => (f.end_us === null ? null : f.end_us - f.start_us),
      cell: (f) => (f.end_us === null ? 'never ended' : timeText(f.end_us - f.start_us)), className: 'n' },
    { id: 'expected', label: 'Expected', value: (f) => (f.expected_end_us === null ? null : f.expected_end_us - f.expected_start_us),
      cell: (f) => (f.expected_end_us === null ? '—' : timeText(f.expected_end_us - f.expected_start_us)), className: 'n' },
    { id: 'late', label: 'Late by', value: (f) => f.overrun_us, cell: (f) => (f.overrun_us > 0 ? timeText(f.overrun_us) : '—'), className: 'n',
      hint: 'How long after its expected end the frame ended' },
    { id: 'present', label: 'Present', value: (f) => f.present, cell: (f) => f.present, text: true },
    { id: 'token', label: 'Token', value: (f) => f.token, cell: (f) => (f.token ? String(f.token) : '—'), className: 'n',
      hint: 'The vsync id the frame was drawn for' },
  ];
  // Which app a frame is of comes right after its jank: a wide table scrolls it out of sight last.
  if (layers.length > 1) {
    columns.splice(1, 0, { id: 'layer', label: 'Layer', value: (f) => f.layer_name, cell: (f) => shortLayer(f.layer_name), text: true, title: (f) => f.layer_name });
  }
  return columns;
}

/** Rows for the table: each frame with its index and what the filter matches. */
export function frameRows(data, layer) {
  return data.frames
    .map((f, index) => Object.assign({}, f, {
      index,
      layer_name: data.layers[f.layer] ? data.layers[f.layer].layer : '',
      // What the filter looks in (sort-table.js matches `name` and `signature`).
      name: f.jank + ' · ' + f.present,
      signature: data.layers[f.layer] ? data.layers[f.layer].layer : '',
    }))
    // All layers: the apps' (the compositor's display frames when chosen alone).
    .filter((f) => (layer < 0 ? !(data.layers[f.layer] && data.layers[f.layer].display) : f.layer === layer));
}

/** A layer's jank types in one line (`App Deadline Missed 12 · Buffer Stuffing 47`). */
export function jankTypesLine(layer) {
  return layer.jank_types.length === 0 ? 'none' : layer.jank_types.map(([kind, n]) => kind + ' ' + count(n)).join(' · ');
}

export function createFrames({ store, products }) {
  const button = $('tab-button-frames');
  let data = null;
  let rows = [];
  const table = createSortTable(store, {
    head: $('frame-head'),
    subhead: $('frame-subhead'),
    body: $('frame-rows'),
    filter: $('frame-filter'),
    note: $('frame-note'),
    sortKey: 'frameSort',
    filterKey: 'frameFilter',
    fallback: 'jank',
    limit: FRAME_LIMIT,
    rowKey: 'frame',
    activate: (i) => rows[i] && choose(rows[i].index),
  });
  $('frame-layer').addEventListener('change', () => store.update({ frameLayer: Number($('frame-layer').value) }));
  bindToolbar($('frame-go'), 'Open the frame in');
  for (const go of document.querySelectorAll('[data-frame-go]')) {
    go.addEventListener('click', () => store.update({ tab: go.dataset.frameGo }));
  }
  $('frame-legend').replaceChildren(...Object.entries(TONE_WORDS).map(([tone, words]) =>
    element('span', { class: 'legend-item' }, element('span', { class: 'swatch tone-' + tone }), words)));

  // The timeline's length: frames never ended select up to it.
  let length = Infinity;

  // The timeline then opens around the frame.
  function choose(index) {
    const patch = framePatch(store.get().summary, data, index, length);
    store.update(Object.assign(patch, { timelineView: viewAround(patch.range.from, patch.range.to, length) }));
  }

  function renderLayers(state) {
    // Recorded by the compositor, or derived from the apps' slices.
    $('frame-layers-about').textContent = data.layers.some((l) => l.derived)
      ? '(derived from the apps\' slices: this trace has no frame timeline; janky past one display refresh)'
      : '(as the compositor\'s frame timeline judged them; times are frame durations)';
    $('frame-layer-rows').replaceChildren(...data.layers.map((l, i) => element('tr', { 'data-layer': String(i) },
      element('td', { class: 'name', text: l.layer + ' (pid ' + l.pid + ')', title: l.layer }),
      element('td', { class: 'n', text: count(l.frames) + (l.unfinished ? ' (' + count(l.unfinished) + ' never ended)' : '') }),
      element('td', { class: 'n', text: count(l.janky) + ' (' + percent(l.janky, l.frames) + ')' }),
      element('td', { class: 'n', text: l.p50_us === null ? '—' : timeText(l.p50_us) }),
      element('td', { class: 'n', text: l.p90_us === null ? '—' : timeText(l.p90_us) }),
      element('td', { class: 'n', text: l.p99_us === null ? '—' : timeText(l.p99_us) }),
      element('td', { class: 'n', text: l.max_us === null ? '—' : timeText(l.max_us) }),
      element('td', { text: jankTypesLine(l) }))));
    const select = $('frame-layer');
    const appFrames = data.layers.filter((l) => !l.display).reduce((sum, l) => sum + l.frames, 0);
    select.replaceChildren(element('option', { value: '-1', text: 'All app layers (' + count(appFrames) + ' frames)' }),
      ...data.layers.map((l, i) => element('option', { value: String(i), text: l.layer })));
    select.value = String(state.frameLayer);
  }

  function renderRows(state) {
    rows = frameRows(data, state.frameLayer);
    const selected = rows.findIndex((r) => r.index === state.frame);
    table.show(state, { columns: frameColumns(data.layers), rows, selected, noun: 'frame',
      about: 'Choose a frame: graphs and tables then cover its time.' });
  }

  function renderChosen(state) {
    const frame = state.frame >= 0 && data ? data.frames[state.frame] : null;
    $('frame-chosen').hidden = !frame || !state.range;
    if (!frame || !state.range) return;
    $('frame-chosen-text').textContent = frameName(frame) + ' (' + frame.jank + ', '
      + (frame.end_us === null ? 'never ended' : time(frame.end_us - frame.start_us)) + ') is selected: '
      + rangeText(state.range) + '. Show it in';
    $('frame-go-scheduling').hidden = $('tab-button-scheduling').hidden;
  }

  async function load(state) {
    table.say('Loading…');
    try {
      const loaded = await products.frames();
      if (store.get().summary !== state.summary) return;
      data = loaded;
      length = loaded.length_us;
    } catch (error) {
      table.say(error.message);
      return;
    }
    const now = store.get();
    const started = performance.now();
    renderLayers(now);
    renderRows(now);
    renderChosen(now);
    // How long the view took to draw from its data (benchmarks read it).
    document.body.dataset.framesDrawMs = String(Math.round(performance.now() - started));
    document.body.dataset.frames = 'shown';
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      data = null;
      button.hidden = !state.summary.app_frames;
      if (button.hidden && state.tab === 'frames') store.update({ tab: 'flame' });
    }
    if (state.tab !== 'frames' || button.hidden) return;
    if (!data) {
      if (changed(state, previous, 'summary', 'tab')) load(state);
      return;
    }
    if (changed(state, previous, 'frameLayer')) {
      $('frame-layer').value = String(state.frameLayer);
      renderRows(state);
    } else if (changed(state, previous, 'frame')) {
      table.select(rows.findIndex((r) => r.index === state.frame));
    }
    if (changed(state, previous, 'frame', 'range', 'tab')) renderChosen(state);
  });
}
