// The timeline: tracks of what ran when, time to the right. The chosen thread as a flame
// chart, the threads pinned beside it (a chosen frame pins its app's main thread and
// RenderThreads), the CPUs; with "All threads", every process's threads and counters in
// groups (track-layout.js). A thread's track shows its calls, its scheduler states and its
// CPU samples as ticks, whichever source each comes from. The worker answers with boxes
// already merged to the pixels of the window, so a draw costs the same however many calls
// the trace holds, and only tracks in view are asked for. Wheel and keys zoom and pan; a
// drag selects a range that the flame graph and the tables then cover
// (timeline-pointer.js). The view's transforms reach the calls. A click shows a call's
// details (timeline-call.js); a right click, the Menu key or Shift+F10 its frame menu.

import { $ } from '../shared/dom.js';
import { changed } from '../shared/state.js';
import { createCallPanel } from './timeline-call.js';
import { createTimelineCanvas } from './timeline-canvas.js';
import { createDetailReader, showDetail } from './timeline-detail.js';
import { tableViewJson } from '../shared/transforms.js';
import { clampView } from '../shared/timespan.js';
import { createFrameLanes, legendItems } from './timeline-marks.js';
import { wireTimelinePointer } from './timeline-pointer.js';

export function createTimeline({ store, products }) {
  const canvas = $('timeline-canvas');
  // What is shown, shared with the canvas and the pointer: the timeline's facts
  // ({length_us, threads, names, ...}) and tracks (the core's catalog), null before they
  // come; the names the view's transforms make (box names past facts.names); the window
  // drawn (the store's `timelineView` kept inside the trace); the layout (track-layout.js);
  // each track's data by key ({view, boxes, states, marks, cpus, steps}); the header's
  // height; a drag ({x0, x1, y0}).
  const scene = { facts: null, catalog: null, made: [], view: null, layout: { tracks: [], height: 0 }, data: new Map(), header: 0, drag: null };
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
  const paper = createTimelineCanvas(canvas, store, scene, frameLanes);

  // What a track needs for a window: one request per part it has.
  function ask(track, want, pixels, shown) {
    const { from, to } = want;
    if (track.kind === 'cpus') return products.cpus(from, to, pixels).then((cpus) => ({ cpus }));
    if (track.kind === 'counter') return products.counterSteps(track.counter.index, from, to, pixels).then((steps) => ({ steps }));
    if (track.kind !== 'thread') return null;
    return Promise.all([
      track.depths > 0 ? products.boxes(track.thread, from, to, pixels, track.skip + track.depths, shown) : null,
      track.strip ? products.threadStates(track.tid, from, to, pixels) : null,
      track.marks ? products.sampleMarks(track.tid, from, to, pixels) : null,
    ]).then(([answer, states, marks]) => ({ boxes: answer && answer.boxes, made: answer && answer.made, states, marks }));
  }

  // Data for every track in view (and a screen each way) in the current window; one
  // request round at a time, and one more if the window or the scroll moved meanwhile.
  async function fetchBoxes() {
    // Until the window on show is drawn with its own data, the page says so (tests and
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
    const status = detail.status(want, store.get().thread, paper.width(), scene.facts);
    const pixels = paper.width();
    const stale = paper.shown().filter((t) => {
      const had = scene.data.get(t.key);
      return !had || had.view !== want || had.shown !== shown || had.pixels !== pixels;
    });
    try {
      const answers = await Promise.all(stale.map((t) => ask(t, want, pixels, shown)));
      if (store.get().summary !== summary) return;
      stale.forEach((t, i) => {
        if (answers[i]) scene.data.set(t.key, { view: want, shown, pixels, ...answers[i] });
        if (answers[i] && answers[i].made) scene.made = answers[i].made;
      });
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

  // The window: the store's, else the span of the trace that has thread data.
  const windowOf = (state) => {
    const length = scene.facts.length_us;
    const data = scene.catalog && scene.catalog.data_us;
    const opening = data && data[1] > data[0] ? { from: data[0], to: data[1] } : { from: 0, to: length };
    return clampView(state.timelineView || opening, length);
  };

  // The window is the store's: its subscriber below draws it.
  function setView(next) {
    store.update({ timelineView: clampView(next, scene.facts.length_us) });
  }

  wireTimelinePointer(canvas, store, products, { scene, paper, frameLanes, panel, viewOf, setView, refetch: () => fetchBoxes() });

  // Scrolling draws what comes into view at once, then asks for what it lacks.
  canvas.parentElement.addEventListener('scroll', () => {
    if (!scene.view) return;
    paper.draw();
    fetchBoxes();
  }, { passive: true });
  new ResizeObserver(() => {
    if (!scene.view || store.get().tab !== 'timeline') return;
    // Pinned threads share the pane's height: a new height lays them out again.
    paper.layout(store.get());
    paper.draw();
    fetchBoxes();
  }).observe(canvas.parentElement);

  // What the strips and frame lanes' colours say, where they are drawn.
  function showLegend() {
    // Every state's colour where any thread has states (not just those in view): opening a
    // group then moves nothing.
    const strips = scene.catalog.processes.some((p) => p.threads.some((t) => t.states > 0));
    const items = legendItems(strips ? scene.facts.state_legend : [], frameLanes.shown(), dark());
    $('timeline-legend').replaceChildren(...items);
    $('timeline-legend').hidden = items.length === 0;
  }

  async function show(state) {
    if (!scene.facts) {
      document.body.dataset.timeline = 'loading';
      const [facts, catalog] = await Promise.all([products.timeline(), products.tracks()]);
      const data = facts.frames ? await products.frames() : null;
      if (store.get().summary !== state.summary) return;
      Object.assign(scene, { facts, catalog });
      frameLanes.set(data, facts.length_us);
    }
    const facts = scene.facts;
    state = store.get();
    scene.view = windowOf(state);
    $('timeline-note').textContent = facts.left_out ? 'Note: ' + facts.left_out + '.' : '';
    $('timeline-note').hidden = !facts.left_out;
    $('timeline-range-keys').hidden = Boolean(facts.left_out);
    paper.layout(state);
    showLegend();
    if ((scene.layout.tracks.length === 0 && !frameLanes.shown()) || !facts.calls_kept) {
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
      Object.assign(scene, { facts: null, catalog: null, made: [], view: null, layout: { tracks: [], height: 0 }, data: new Map() });
      frameLanes.set(null, 0);
      detail.reset();
    }
    // Another thread chosen while the timeline shows: the one before stays, pinned.
    if (previous && state.tab === 'timeline' && previous.tab === 'timeline' && changed(state, previous, 'thread') &&
        !changed(state, previous, 'summary', 'pins') && state.thread >= 0 && previous.thread >= 0 && state.summary.threads[previous.thread]) {
      const tid = state.summary.threads[previous.thread].tid;
      if (!(state.pins || []).includes(tid)) {
        store.update({ pins: [...(state.pins || []), tid] });
        return;
      }
    }
    if (state.tab !== 'timeline') return;
    if (changed(state, previous, 'summary', 'thread', 'tab', 'focus', 'pins', 'timelineGroups', 'timelineDeep')) {
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
      if (changed(state, previous, 'theme')) showLegend();
      paper.draw();
    }
  });
}
