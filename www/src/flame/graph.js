// The main screen's flame graph: the selected thread (or all threads) on the chosen clock,
// within the selected range, in the store's view (transforms.js), in the flame view
// (flame-view.js) with its title, its empty state and its saving. A frame's menu (right
// click, the Menu key, Shift+F10) adds a transform to the view; a view the core refuses
// gives way to the one before it, and the graph's error area says why.

import { $ } from '../shared/dom.js';
import { createFlameView } from './flame-view.js';
import { createFrameMenu } from './frame-menu.js';
import { clockWords, threadLabel } from '../shared/format.js';
import { changed } from '../shared/state.js';
import { rangeText } from '../shared/timespan.js';
import { allThreadsTotal, threadTotal } from '../trace/threads.js';
import { chosenPatch, isPlain, menuItems, nameOfTitle, refused } from '../shared/transforms.js';

/** The time a graph of this scope would draw: 0 or null means there is nothing to draw. */
export function scopeTotal(summary, thread, clock) {
  return thread < 0 ? allThreadsTotal(summary, clock) : threadTotal(summary.threads[thread], clock);
}

export function createGraph({ store, products, frameScript }) {
  const frame = $('flame');
  const menu = createFrameMenu();
  const view = createFlameView(store, {
    frame,
    script: frameScript,
    search: $('graph-search'),
    matched: $('graph-matched'),
    cursor: $('graph-cursor'),
    resetZoom: $('graph-reset-zoom'),
    error: $('graph-error'),
    hint: $('graph-hint'),
    searchKey: 'search',
    pathKey: 'graphPath',
    progressKey: 'graph',
    minHeight: 240,
    openAtRoots: true,
    onMenu: openMenu,
    // The core's picture of no time says none was recorded: under a view, the view left none.
    onReady: (frames) => {
      if (frames === 0 && !isPlain(store.get().view)) view.note('This view leaves no time to draw: take a step out, or Undo.');
    },
  });

  // The frame's menu, where the graph asked for it; the keyboard goes back to the graph
  // after it, at the same frame.
  async function openMenu({ titles, left, top }) {
    const name = nameOfTitle(titles[titles.length - 1]);
    const libraries = await products.libraries(name);
    const s = store.get();
    const items = menuItems(titles, { allThreads: s.thread < 0, inverted: s.view.invert, libraries });
    menu.open(name, items, left, top, {
      choose: (item) => {
        choose(item);
        view.focus();
      },
      back: view.focus,
    });
  }

  function choose(item) {
    store.update(chosenPatch(store.get(), item));
  }
  let stale = true;
  let rendering = Promise.resolve();

  function setEmpty(text) {
    $('graph-empty').hidden = !text;
    $('graph-empty-text').textContent = text || '';
    frame.hidden = Boolean(text);
    $('graph-search-box').hidden = Boolean(text);
    $('save-svg').disabled = Boolean(text);
  }

  async function render(state) {
    stale = false;
    view.loading();
    const summary = state.summary;
    const t = state.thread < 0 ? null : summary.threads[state.thread];
    // The title changes with the graph it names, not before it arrives.
    const title = threadLabel(t) + ' — ' + clockWords(state.clock, summary) + (state.range ? ' in ' + rangeText(state.range) : '') +
      (state.view.invert ? ', bottom-up' : '');
    $('save-folded').disabled = !allThreadsTotal(summary, state.clock);
    // Within a range the summary's totals do not apply; the core says if nothing is left.
    if (!state.range && !scopeTotal(summary, state.thread, state.clock)) {
      $('graph-title').textContent = title;
      setEmpty(summary.threads.length === 0
        ? 'This trace has no frames to draw. The notes above say what it holds.'
        : threadLabel(t) + ' has no ' + clockWords(state.clock, summary) + ' to draw.');
      view.progress('empty');
      return;
    }
    let svg;
    try {
      svg = await products.svg(state.thread, state.clock, state.theme);
    } catch (error) {
      if (error.kind === 'view' && store.get().view === state.view) store.update(refused(store.get(), error.message));
      else if (error.kind !== 'view') view.fail(error.message);
      return;
    }
    const now = store.get();
    if (now.summary !== summary || now.thread !== state.thread || now.clock !== state.clock || now.theme !== state.theme ||
      now.range !== state.range || now.view !== state.view) return;
    // The title, the frame's size and its document change together.
    await view.show(svg, state.theme, () => {
      setEmpty('');
      $('graph-title').textContent = title;
    });
    if (state.viewError) view.note(state.viewError);
  }

  function refresh(state) {
    if (state.tab !== 'flame') {
      stale = true;
      return;
    }
    rendering = render(state);
  }

  store.subscribe((state, previous) => {
    // A menu names frames of the graph it was opened on.
    if (changed(state, previous, 'phase', 'summary', 'thread', 'view', 'tab')) menu.close();
    // A path to zoom to is one of the graph it was chosen for.
    if (state.graphPath && changed(state, previous, 'summary', 'thread', 'view') && !changed(state, previous, 'graphPath')) {
      store.update({ graphPath: null });
      return;
    }
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary', 'thread', 'clock', 'theme', 'range', 'view')) refresh(state);
    else if (state.tab === 'flame' && stale) refresh(state);
    else if (state.tab === 'flame') view.shown();
  });

  return {
    /** Resolves when the graph being drawn has been handed to its frame. */
    settled: () => rendering,
    /** The SVG on show, for saving. */
    current() {
      const s = store.get();
      return products.svg(s.thread, s.clock, s.theme);
    },
    /** A download that failed, said beside the graph, which stays. */
    note: (text) => view.note(text),
  };
}
