// The flame graph: inferno's SVG in a sandboxed frame (its script gives zoom; trace names
// are untrusted), driven from the page's own toolbar: a search box, Reset zoom, the clock.
// The page and the frame talk only by messages (see graph-frame.js).

import frameScript from './graph-frame.js' with { type: 'text' };
import { $ } from './dom.js';
import { clockWords, threadLabel } from './format.js';
import { changed } from './state.js';
import { rangeText } from './timespan.js';
import { allThreadsTotal, threadTotal } from './threads.js';

// The frame's page colours; the graph's own come from the core's light or dark palette.
const FRAME_BACKGROUND = { light: '#ffffff', dark: '#16191d' };

/** The text of a graph frame: the SVG, then the script that lets the page drive it. */
export function frameDocument(svg, theme) {
  const body = svg.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/i, '');
  return '<!doctype html><meta charset="utf-8"><style>html,body{margin:0;background:' +
    (FRAME_BACKGROUND[theme] || FRAME_BACKGROUND.light) + '}body>svg{display:block;width:100%}' +
    '#frames>g.df-cursor>rect{stroke:#1a73e8;stroke-width:2}</style>' + body + '<script>' + frameScript + '</script>';
}

// Per frame, its last document change: the next waits for it to load.
const frameChanges = new WeakMap();
// Per frame, the number of its latest document change: older ones still queued are skipped.
const frameLatest = new WeakMap();

/**
 * Gives `frame` the document `html` once the document set before has loaded: Chromium
 * drops a `srcdoc` set while an earlier one is still loading and goes on showing the
 * earlier (a graph drawn again at once, as when a mapping renames it right after it
 * opened). `onSet()` runs as the document is set. Resolves when it is set (or skipped for
 * a newer one).
 */
export function setFrameDocument(frame, html, onSet = () => {}) {
  const mine = (frameLatest.get(frame) || 0) + 1;
  frameLatest.set(frame, mine);
  const previous = frameChanges.get(frame) || Promise.resolve();
  let set;
  const isSet = new Promise((resolve) => { set = resolve; });
  frameChanges.set(frame, previous.then(() => {
    if (frameLatest.get(frame) !== mine) return set();
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    onSet();
    frame.srcdoc = html;
    set();
    return loaded;
  }));
  return isSet;
}

/** What a graph frame's `matched` message says: how many frames match, and their share. */
export function matchedText(message) {
  const term = String(message.term || '');
  if (!term) return '';
  return message.frames > 0
    ? message.frames + (message.frames === 1 ? ' frame' : ' frames') + ' · ' + String(message.text || '')
    : 'No frame matches';
}

/** The time a graph of this scope would draw: 0 or null means there is nothing to draw. */
export function scopeTotal(summary, thread, clock) {
  return thread < 0 ? allThreadsTotal(summary, clock) : threadTotal(summary.threads[thread], clock);
}

export function createGraph(store, products) {
  const frame = $('flame');
  const scroller = frame.parentElement;
  const search = $('graph-search');
  const matched = $('graph-matched');
  let stale = true;
  let rendering = Promise.resolve();
  let searchTimer = 0;
  let svgHeight = 0;
  // The graph loaded while its tab was hidden: it opens at its roots when the tab shows.
  let rootsPending = false;
  // The frame's current document has loaded: a `ready` before that comes from the one it
  // replaced, whose script can still answer while the new one loads.
  let loaded = true;

  function post(message) {
    if (frame.contentWindow) frame.contentWindow.postMessage(message, '*');
  }

  function setEmpty(text) {
    $('graph-empty').hidden = !text;
    $('graph-empty-text').textContent = text || '';
    frame.hidden = Boolean(text);
    $('graph-search-box').hidden = Boolean(text);
    $('save-svg').disabled = Boolean(text);
  }

  async function render(state) {
    stale = false;
    document.body.dataset.graph = 'loading';
    const summary = state.summary;
    const t = state.thread < 0 ? null : summary.threads[state.thread];
    // The title changes with the graph it names, not before it arrives.
    const title = threadLabel(t) + ' — ' + clockWords(state.clock, summary) + (state.range ? ' in ' + rangeText(state.range) : '');
    $('graph-error').hidden = true;
    $('save-folded').disabled = !allThreadsTotal(summary, state.clock);
    // Within a range the summary's totals do not apply; the core says if nothing is left.
    if (!state.range && !scopeTotal(summary, state.thread, state.clock)) {
      $('graph-title').textContent = title;
      setEmpty(summary.threads.length === 0
        ? 'This trace has no frames to draw. The notes above say what it holds.'
        : threadLabel(t) + ' has no ' + clockWords(state.clock, summary) + ' to draw.');
      document.body.dataset.graph = 'empty';
      return;
    }
    let svg;
    try {
      svg = await products.svg(state.thread, state.clock, state.theme);
    } catch (error) {
      $('graph-error').textContent = error.message;
      $('graph-error').hidden = false;
      frame.hidden = true;
      return;
    }
    const now = store.get();
    if (now.summary !== summary || now.thread !== state.thread || now.clock !== state.clock || now.theme !== state.theme ||
      now.range !== state.range) return;
    const height = /<svg[^>]*\sheight="(\d+)"/.exec(svg);
    // The title, the frame's size and its document change together.
    await setFrameDocument(frame, frameDocument(svg, state.theme), () => {
      loaded = false;
      setEmpty('');
      $('graph-title').textContent = title;
      document.body.dataset.graph = 'loading';
      svgHeight = height ? Number(height[1]) : 600;
      frame.style.height = Math.max(240, svgHeight + 8) + 'px';
    });
  }

  function refresh(state) {
    if (state.tab !== 'flame') {
      stale = true;
      return;
    }
    rendering = render(state);
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary', 'thread', 'clock', 'theme', 'range')) refresh(state);
    else if (state.tab === 'flame' && stale) refresh(state);
    else if (state.tab === 'flame' && rootsPending) showRoots();
  });

  // Flame graphs grow upwards: start at the bottom of the graph, where the roots are (a
  // short graph's frame is padded below it).
  function showRoots() {
    rootsPending = false;
    scroller.scrollTop = Math.max(0, frame.offsetTop + svgHeight + 8 - scroller.clientHeight);
    updateHint();
  }

  frame.addEventListener('load', () => {
    loaded = true;
    // A graph that loaded out of sight (its tab was left meanwhile, as when two traces are
    // dropped to compare) cannot be scrolled yet; its frame lays it out again when shown.
    if (!frame.offsetWidth) rootsPending = true;
    else showRoots();
  });

  // Only a graph taller than its pane has frames out of sight above; a short one scrolled
  // down hides just its title.
  function updateHint() {
    $('graph-hint').hidden = frame.hidden || scroller.scrollTop < 4 || svgHeight <= scroller.clientHeight;
  }
  scroller.addEventListener('scroll', updateHint);
  $('graph-hint').addEventListener('click', () => { scroller.scrollTop = 0; });

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== frame.contentWindow || !message || message.droidflame !== 'graph') return;
    if (message.type === 'ready') {
      if (!loaded) return;
      document.body.dataset.graph = 'ready';
      document.body.dataset.graphReadyAt = String(performance.now());
      // What the box holds now: a search typed while the graph loaded may not be in the
      // state yet, and a message posted to the frame then went to the old document.
      if (search.value) post({ type: 'search', term: search.value });
    } else if (message.type === 'matched') {
      matched.textContent = matchedText(message);
    } else if (message.type === 'find') {
      search.focus();
      search.select();
    } else if (message.type === 'cleared') {
      search.value = '';
      store.update({ search: '' });
      matched.textContent = '';
    } else if (message.type === 'cursor') {
      const top = frame.offsetTop + Number(message.top) - 24;
      const bottom = frame.offsetTop + Number(message.bottom) + 8;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
      $('graph-cursor').textContent = String(message.text || '');
    }
  });

  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      store.update({ search: search.value });
      post({ type: 'search', term: search.value });
    }, 120);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      search.value = '';
      store.update({ search: '' });
      post({ type: 'search', term: '' });
    } else if (event.key === 'Enter') {
      clearTimeout(searchTimer);
      store.update({ search: search.value });
      post({ type: 'search', term: search.value });
    }
  });
  $('graph-reset-zoom').addEventListener('click', () => post({ type: 'reset-zoom' }));

  return {
    /** Resolves when the graph being drawn has been handed to its frame. */
    settled: () => rendering,
    /** The SVG on show, for saving. */
    current() {
      const s = store.get();
      return products.svg(s.thread, s.clock, s.theme);
    },
  };
}
