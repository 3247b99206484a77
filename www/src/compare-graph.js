// The differential flame graph of the Compare tab: the core's SVG in a sandboxed frame
// (the same frame script as the main graph, so the same Content-Security-Policy hash),
// with its own search box, a legend that says what widths and colours mean, and saving.

import { $, download } from './dom.js';
import { fileStem } from './format.js';
import { frameDocument, matchedText, setFrameDocument } from './graph.js';
import { changed } from './state.js';
import { legendText } from './compare-table.js';

export function createCompareGraph(store, engine, key) {
  const frame = $('compare-flame');
  const search = $('compare-search');
  let rendering = Promise.resolve();
  let current = '';
  // What the frame shows: the comparison's facts (a new comparison makes new ones) and the
  // choices the picture depends on.
  let shown = null;

  function post(message) {
    if (frame.contentWindow) frame.contentWindow.postMessage(message, '*');
  }

  const idOf = (s) => ({ facts: s.compare.facts, choice: [s.compareThread, s.compareWidths, s.compareNormalize, s.theme].join('\u0000') });
  const same = (a, b) => Boolean(a && b) && a.facts === b.facts && a.choice === b.choice;

  async function render(state) {
    const id = idOf(state);
    if (same(id, shown)) return;
    shown = id;
    document.body.dataset.compareGraph = 'loading';
    $('compare-legend').textContent = legendText(state);
    $('compare-graph-error').hidden = true;
    let svg;
    try {
      svg = await engine.diffSvg(key, state.compareThread, state.compareWidths, state.compareNormalize, state.theme);
    } catch (error) {
      shown = null;
      $('compare-graph-error').textContent = error.message;
      $('compare-graph-error').hidden = false;
      document.body.dataset.compareGraph = 'error';
      return;
    }
    const now = store.get();
    if (!now.compare || now.compare.phase !== 'done' || !same(idOf(now), id)) return;
    const height = /<svg[^>]*\sheight="(\d+)"/.exec(svg);
    await setFrameDocument(frame, frameDocument(svg, state.theme), () => {
      current = svg;
      frame.style.height = Math.max(160, (height ? Number(height[1]) : 600) + 8) + 'px';
    });
  }

  store.subscribe((state, previous) => {
    const c = state.compare;
    if (!c || c.phase !== 'done') {
      shown = null;
      return;
    }
    if (state.tab !== 'compare') return;
    if (changed(state, previous, 'compare', 'compareThread', 'compareWidths', 'compareNormalize', 'theme', 'tab')) {
      rendering = render(state);
    }
  });

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== frame.contentWindow || !message || message.droidflame !== 'graph') return;
    if (message.type === 'ready') {
      document.body.dataset.compareGraph = 'ready';
      if (search.value) post({ type: 'search', term: search.value });
    } else if (message.type === 'matched') {
      $('compare-matched').textContent = matchedText(message);
    } else if (message.type === 'find') {
      search.focus();
      search.select();
    } else if (message.type === 'cleared') {
      search.value = '';
      $('compare-matched').textContent = '';
    } else if (message.type === 'cursor') {
      $('compare-cursor').textContent = String(message.text || '');
    }
  });
  search.addEventListener('input', () => post({ type: 'search', term: search.value }));
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      search.value = '';
      post({ type: 'search', term: '' });
    }
  });
  $('compare-reset-zoom').addEventListener('click', () => post({ type: 'reset-zoom' }));

  const stem = () => {
    const s = store.get();
    return fileStem(s.name) + '-vs-' + fileStem(s.compare.name);
  };
  $('compare-save-svg').addEventListener('click', () => {
    const s = store.get();
    const scope = s.compareThread ? fileStem(s.compareThread) : 'all-threads';
    download(stem() + '-' + scope + '-' + s.compare.facts.clock + '.svg', current, 'image/svg+xml');
  });
  $('compare-save-folded').addEventListener('click', async () => {
    const s = store.get();
    try {
      download(stem() + '-' + s.compare.facts.clock + '.diff.folded', await engine.diffFolded(key), 'text/plain');
    } catch (error) {
      $('compare-graph-error').textContent = 'Nothing was saved: ' + error.message;
      $('compare-graph-error').hidden = false;
    }
  });

  return { settled: () => rendering };
}
