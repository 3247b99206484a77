// The timeline: each call where and when it ran, time to the right. One thread as a flame
// chart, or every thread stacked in its own lane (as Traceview drew them). The worker
// answers with boxes already merged to the pixels of the window, so a draw costs the same
// however many calls the trace holds. Wheel and keys zoom and pan; a drag selects a range
// that the flame graph and the tables then cover (timeline-pointer.js). The view's
// transforms reach it: the worker draws, at each moment, the stack that ran there as the
// view makes it. A click shows that call's details (timeline-call.js); a right click, the
// Menu key or Shift+F10 its frame menu. The canvas lays out and paints (timeline-canvas.js).

import { $ } from '../shared/dom.js';
import { changed } from '../shared/state.js';
import { createCallPanel } from './timeline-call.js';
import { createTimelineCanvas } from './timeline-canvas.js';
import { createDetailReader, showDetail } from './timeline-detail.js';
import { tableViewJson } from '../shared/transforms.js';
import { clampView } from '../shared/timespan.js';
import { createFrameLanes, legendItems } from './timeline-marks.js';
import { wireTimelinePointer } from './timeline-pointer.js';
import { createSystemLanes } from './timeline-system.js';

export function createTimeline({ store, products }) {
  const canvas = $('timeline-canvas');
  // What is shown, shared with the canvas and the pointer: the timeline's facts
  // ({length_us, threads: [...], names: [...]}, null before they come), the names the
  // view's transforms make (box names past facts.names), the window drawn (the store's
  // `timelineView` kept inside the trace; null before facts), the lanes ([{thread, top,
  // rowHeight, depths, boxes, strip: {top, height} | null, states}]) and a drag ({x0, x1, y0}).
  const scene = { facts: null, made: [], view: null, lanes: [], drag: null };
  // App frames, a lane per layer, where the trace has them.
  const frameLanes = createFrameLanes();
  let fetching = false;
  let refetch = false;
  // Past the engine's call limit, one thread zoomed in has its short calls read again.
  const detail = createDetailReader(products, () => fetchBoxes());

  const dark = () => store.get().theme === 'dark';
  // The view as the timeline takes it: its transforms (a timeline is never bottom-up).
  const viewOf = () => tableViewJson(store.get().view);
  const panel = createCallPanel(store, products, viewOf);
  // CPU lanes and counter tracks, in the all-threads view.
  const system = createSystemLanes(products);
  const paper = createTimelineCanvas(canvas, store, scene, frameLanes, system);

  // Boxes for every lane in the current window; one request round at a time, and one more
  // if the window moved meanwhile.
  async function fetchBoxes() {
    // Until the window on show is drawn with its own boxes, the page says so (tests and
    // benchmarks wait on `drawn`).
    document.body.dataset.timeline = 'drawing';
    if (fetching) {
      refetch = true;
      return;
    }
    fetching = true;
    const want = scene.view;
    const summary = store.get().summary;
    const shown = viewOf();
    const lanes = scene.lanes;
    const status = detail.status(want, store.get().thread, paper.width(), scene.facts);
    try {
      const [answers, strips] = await Promise.all([
        Promise.all(lanes.map((lane) => products.boxes(lane.thread, want.from, want.to, paper.width(), lane.depths, shown))),
        Promise.all(lanes.map((lane) => (lane.strip ? products.states(lane.thread, want.from, want.to, paper.width()) : null))),
        system.fetch(want, paper.width()),
      ]);
      if (store.get().summary !== summary) return;
      answers.forEach((answer, i) => {
        if (scene.lanes[i]) Object.assign(scene.lanes[i], { boxes: answer.boxes, states: strips[i] });
      });
      scene.made = answers.length > 0 ? answers[0].made : [];
      $('timeline-empty').hidden = true;
      paper.draw();
      // While reading, the progress shows instead.
      if (status.kind !== 'reading') showDetail(status);
      if (!refetch) document.body.dataset.timeline = 'drawn';
    } catch (error) {
      // A view the core refuses: the graph's error area says why; the timeline says so too.
      if (error.kind !== 'view') throw error;
      $('timeline-empty').textContent = error.message;
      $('timeline-empty').hidden = false;
      document.body.dataset.timeline = 'refused';
    } finally {
      fetching = false;
      if (refetch) {
        refetch = false;
        fetchBoxes();
      }
    }
  }

  const windowOf = (state) => clampView(state.timelineView || { from: 0, to: scene.facts.length_us }, scene.facts.length_us);

  // The window is the store's: its subscriber below draws it.
  function setView(next) {
    store.update({ timelineView: clampView(next, scene.facts.length_us) });
  }

  wireTimelinePointer(canvas, store, products, { scene, paper, frameLanes, system, panel, viewOf, setView, refetch: () => fetchBoxes() });

  // What the strips and frame lanes' colours say, where they are drawn.
  function showLegend(state) {
    const strips = scene.lanes.some((l) => l.strip) || scene.facts.threads.some((t) => t.states > 0);
    const items = legendItems(strips ? scene.facts.state_legend : [], frameLanes.shown(), dark());
    $('timeline-legend').replaceChildren(...items);
    $('timeline-legend').hidden = items.length === 0;
  }

  async function show(state) {
    if (!scene.facts) {
      document.body.dataset.timeline = 'loading';
      scene.facts = await products.timeline();
      const data = scene.facts.frames ? await products.frames() : null;
      if (store.get().summary !== state.summary) return;
      frameLanes.set(data, scene.facts.length_us);
    }
    const facts = scene.facts;
    scene.view = windowOf(store.get());
    showLegend(state);
    $('timeline-note').textContent = facts.left_out ? 'Note: ' + facts.left_out + '.' : '';
    $('timeline-note').hidden = !facts.left_out;
    $('timeline-range-keys').hidden = Boolean(facts.left_out);
    paper.layout(state);
    if ((scene.lanes.length === 0 && !frameLanes.shown() && !(state.thread < 0 && facts.cpus > 0)) || !facts.calls_kept) {
      $('timeline-empty').textContent = facts.calls_kept ? 'This trace has no calls to place in time.'
        : 'This trace has too many calls for the timeline; the notes above say more.';
      $('timeline-empty').hidden = false;
      document.body.dataset.timeline = 'empty';
      return;
    }
    $('timeline-empty').hidden = true;
    paper.draw();
    fetchBoxes();
    panel.showFocus(state.focus).catch(() => {});
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      Object.assign(scene, { facts: null, made: [], view: null, lanes: [] });
      frameLanes.set(null, 0);
      detail.reset();
    }
    if (state.tab !== 'timeline') return;
    if (changed(state, previous, 'summary', 'thread', 'tab', 'focus')) {
      show(state).catch((error) => {
        $('timeline-empty').hidden = false;
        $('timeline-empty').textContent = error.message;
      });
    } else if (changed(state, previous, 'timelineView') && scene.view) {
      scene.view = windowOf(state);
      paper.draw();
      fetchBoxes();
    } else if (changed(state, previous, 'view') && scene.view && viewOf() !== tableViewJson(previous.view)) {
      panel.show(null);
      fetchBoxes();
    } else if (changed(state, previous, 'range', 'theme', 'frame') && scene.view) {
      if (changed(state, previous, 'theme')) showLegend(state);
      paper.draw();
    }
  });
}
