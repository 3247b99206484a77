// One flame-graph view, used by the main screen (graph.js) and Compare (compare-graph.js):
// an SVG in a sandboxed frame (its script gives zoom; trace names are untrusted), driven
// from the page's search box and Reset zoom. The page and the frame talk only by messages
// (see graph-frame.js, whose text main.js hands over: a text import would keep this module
// from loading in the unit tests); the search term lives in the store, under the view's own key.

import { menuRequest } from './frame-menu.js';
import { changed } from '../shared/state.js';

// The frame's page colours; the graph's own come from the core's light or dark palette.
const FRAME_BACKGROUND = { light: '#ffffff', dark: '#16191d' };

// Typing pauses this long before the graph searches: each search walks every frame.
const SEARCH_DELAY_MS = 120;

/** The text of a graph frame: the SVG, then `script` (graph-frame.js), which lets the page drive it. */
export function frameDocument(svg, theme, script) {
  const body = svg.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/i, '');
  return '<!doctype html><meta charset="utf-8"><style>html,body{margin:0;background:' +
    (FRAME_BACKGROUND[theme] || FRAME_BACKGROUND.light) + '}body>svg{display:block;width:100%}' +
    '#frames>g.df-cursor>rect{stroke:#1a73e8;stroke-width:2}body>svg:focus-visible{outline:2px solid #1a73e8;outline-offset:-2px}' +
    // A differential graph's search keeps every colour as it is (fading would change their
    // hues): matches are outlined.
    'svg.df-searching #frames>g.df-match>rect{stroke:#c800c8;stroke-width:2.5}</style>' + body + '<script>' + script + '</script>';
}

/** The height the SVG says it draws at, in px (600 where it does not say). */
export function svgHeight(svg) {
  const height = /<svg[^>]*\sheight="(\d+)"/.exec(svg);
  return height ? Number(height[1]) : 600;
}

/** What a graph frame's `matched` message says: how many frames match, and their share. */
export function matchedText(message) {
  const term = String(message.term || '');
  if (!term) return '';
  return message.frames > 0
    ? message.frames + (message.frames === 1 ? ' frame' : ' frames') + ' · ' + String(message.text || '')
    : 'No frame matches';
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
    // Laid out before its document changes: a frame whose tab was just shown again and
    // whose next document is made before any layout stays blank in Chromium.
    void frame.offsetWidth;
    frame.srcdoc = html;
    set();
    return loaded;
  }));
  return isSet;
}

/**
 * A flame view over existing elements: `frame` (in the element that scrolls it), `search`,
 * `matched`, `cursor`, `resetZoom`, `error`, optionally `hint` (where it says how many
 * levels of deeper frames are scrolled out of sight above). `searchKey`: the store's key for its search term; `progressKey`: the
 * `body.dataset` key that says `loading`, `ready`, `empty` or `error` (tests and benchmarks
 * wait on it); `minHeight`: px; `openAtRoots`: a graph that fills its pane opens scrolled
 * to its roots (one inside a page that scrolls opens at its title, as the page does).
 * `onMenu({titles, left, top})`: a frame's menu was asked for (frame-menu.js' `menuRequest`);
 * `onReady(frames)`: a graph of that many frames is on show. `pathKey`: the store's key for
 * a path of frame names (from the one above the root) the graph zooms to, until zoomed out.
 * `script`: the frame's script (graph-frame.js' text; the policy allows it by its hash).
 */
export function createFlameView(store, options) {
  const { frame, search, matched, cursor, resetZoom, error, hint, searchKey, progressKey, minHeight, openAtRoots = false,
    onMenu = null, onReady = () => {}, pathKey = null, script } = options;
  const scroller = frame.parentElement;
  let height = 0;
  let searchTimer = 0;
  // The frame's current document has loaded: a `ready` before that comes from the one it
  // replaced, whose script can still answer while the new one loads.
  let loaded = true;
  // The graph loaded while its tab was hidden: it opens at its roots when the tab shows.
  let rootsPending = false;
  // The rows of the graph on show: the top of the deepest, their pitch and number (px).
  let rows = { top: 0, pitch: 0, count: 0 };

  const term = () => store.get()[searchKey];

  function post(message) {
    if (frame.contentWindow) frame.contentWindow.postMessage(message, '*');
  }

  // Where the frame starts in its scroller's content, whatever the scroller's position.
  function frameTop() {
    return frame.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
  }

  function progress(name) {
    document.body.dataset[progressKey] = name;
  }

  // Flame graphs grow upwards: start at the bottom of the graph, where the roots are (a
  // short graph's frame is padded below it).
  function showRoots() {
    rootsPending = false;
    scroller.scrollTop = Math.max(0, frameTop() + height + 8 - scroller.clientHeight);
    updateHint();
  }

  // How many rows of frames are scrolled out of sight above, from the rows the graph's
  // document reported: a short graph scrolled down hides just its title.
  function updateHint() {
    if (!hint) return;
    const above = frame.hidden || !rows.pitch ? 0
      : Math.min(rows.count, Math.max(0, Math.ceil((scroller.scrollTop - frameTop() - rows.top) / rows.pitch)));
    hint.hidden = above === 0;
    hint.textContent = '▲ ' + above + (above === 1 ? ' level' : ' levels') + ' of deeper frames above: scroll up';
  }

  frame.addEventListener('load', () => {
    loaded = true;
    if (!openAtRoots) return;
    // A graph that loaded out of sight (its tab was left meanwhile, as when two traces are
    // dropped to compare) cannot be scrolled yet; its frame lays it out again when shown.
    if (!frame.offsetWidth) rootsPending = true;
    else showRoots();
  });
  scroller.addEventListener('scroll', updateHint);

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== frame.contentWindow || !message || message.droidflame !== 'graph') return;
    if (message.type === 'ready') {
      if (!loaded) return;
      progress('ready');
      rows = message.rows || rows;
      updateHint();
      document.body.dataset[progressKey + 'ReadyAt'] = String(performance.now());
      // A message posted to the frame while it loaded went to the old document.
      if (term()) post({ type: 'search', term: term() });
      sendPath();
      onReady(Number(message.frames) || 0);
    } else if (message.type === 'matched') {
      matched.textContent = matchedText(message);
    } else if (message.type === 'find') {
      search.focus();
      search.select();
    } else if (message.type === 'cleared') {
      matched.textContent = '';
      store.update({ [searchKey]: '' });
    } else if (message.type === 'cursor') {
      const top = frameTop() + Number(message.top) - 24;
      const bottom = frameTop() + Number(message.bottom) + 8;
      // `keep`: a frame under the pointer, in sight already (a menu opens at it).
      if (!message.keep && top < scroller.scrollTop) scroller.scrollTop = top;
      else if (!message.keep && bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
      cursor.textContent = String(message.text || '');
    } else if (message.type === 'unzoomed' && pathKey && store.get()[pathKey]) {
      store.update({ [pathKey]: null });
    } else if (message.type === 'zoomed') {
      document.body.dataset[progressKey + 'Zoomed'] = message.found ? 'found' : 'missing';
    } else if (message.type === 'menu' && onMenu) {
      const request = menuRequest(message, frame.getBoundingClientRect());
      if (request) onMenu(request);
    }
  });

  // The box writes the store; the store's term reaches the box and, after a pause in the
  // typing, the graph (a cleared term at once).
  function sendSearch() {
    clearTimeout(searchTimer);
    post({ type: 'search', term: term() });
  }
  search.addEventListener('input', () => store.update({ [searchKey]: search.value }));
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') store.update({ [searchKey]: '' });
    else if (event.key === 'Enter') sendSearch();
  });
  store.subscribe((state, previous) => {
    if (!changed(state, previous, searchKey)) return;
    if (search.value !== state[searchKey]) search.value = state[searchKey];
    clearTimeout(searchTimer);
    if (state[searchKey]) searchTimer = setTimeout(sendSearch, SEARCH_DELAY_MS);
    else sendSearch();
  });
  resetZoom.addEventListener('click', () => {
    post({ type: 'reset-zoom' });
    if (pathKey && store.get()[pathKey]) store.update({ [pathKey]: null });
  });

  // The path to zoom to goes to the graph on show, and to each graph drawn while it stands.
  function sendPath() {
    const path = pathKey && store.get()[pathKey];
    if (path) post({ type: 'zoom-path', names: path });
  }
  if (pathKey) {
    store.subscribe((state, previous) => {
      if (changed(state, previous, pathKey) && state[pathKey] && loaded) sendPath();
    });
  }

  return {
    /** A graph is being made: the error goes, the page says `loading`. */
    loading() {
      error.hidden = true;
      progress('loading');
    },
    /** Says `name` (`empty`, …) on the body, for what waits on the view. */
    progress,
    /**
     * Shows `svg` (drawn in `theme`) once the frame's last document has loaded; `onSet()`
     * runs as it is set, for what changes with it (a title). Resolves when it is set.
     */
    show(svg, theme, onSet = () => {}) {
      return setFrameDocument(frame, frameDocument(svg, theme, script), () => {
        loaded = false;
        progress('loading');
        error.hidden = true;
        frame.hidden = false;
        // The new document has no cursor yet: the old one's frame may not be in it.
        cursor.textContent = '';
        height = svgHeight(svg);
        frame.style.height = Math.max(minHeight, height + 8) + 'px';
        onSet();
      });
    },
    /** No graph: `text` says why, and the page says `error`. */
    fail(text) {
      error.textContent = text;
      error.hidden = false;
      frame.hidden = true;
      progress('error');
    },
    /** A problem beside a graph that stays (a download that failed). */
    note(text) {
      error.textContent = text;
      error.hidden = false;
    },
    /** Keyboard focus back into the graph, at its cursor. */
    focus: () => frame.focus(),
    /** Its tab is on show: a graph that loaded out of sight opens at its roots now. */
    shown() {
      if (rootsPending) showRoots();
    },
  };
}
