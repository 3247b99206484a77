// The differential flame graph of the Compare tab: the core's SVG in the flame view
// (flame-view.js, the same frame script as the main graph, so the same
// Content-Security-Policy hash), with a legend that says what widths and colours mean, and
// saving.

import { $, download } from '../shared/dom.js';
import { createFlameView } from '../flame/flame-view.js';
import { fileStem } from '../shared/format.js';
import { changed } from '../shared/state.js';
import { legendText } from './compare-table.js';

export function createCompareGraph(store, engine, key, frameScript) {
  const view = createFlameView(store, {
    frame: $('compare-flame'),
    script: frameScript,
    search: $('compare-search'),
    matched: $('compare-matched'),
    cursor: $('compare-cursor'),
    resetZoom: $('compare-reset-zoom'),
    error: $('compare-graph-error'),
    searchKey: 'compareSearch',
    progressKey: 'compareGraph',
    minHeight: 160,
  });
  let rendering = Promise.resolve();
  let current = '';
  // What the frame shows: the comparison's facts (a new comparison makes new ones) and the
  // choices the picture depends on.
  let shown = null;

  const idOf = (s) => ({ facts: s.compare.facts, choice: [s.compareThread, s.compareWidths, s.compareNormalize, s.compareColour, s.compareChanged, s.theme].join('\u0000') });
  const same = (a, b) => Boolean(a && b) && a.facts === b.facts && a.choice === b.choice;

  async function render(state) {
    const id = idOf(state);
    if (same(id, shown)) return;
    shown = id;
    view.loading();
    $('compare-legend').textContent = legendText(state);
    let svg;
    try {
      svg = await engine.diffSvg(key, state.compareThread, state.compareWidths, state.compareNormalize, state.theme, state.compareColour, state.compareChanged);
    } catch (error) {
      shown = null;
      view.fail(error.message);
      return;
    }
    const now = store.get();
    if (!now.compare || now.compare.phase !== 'done' || !same(idOf(now), id)) return;
    await view.show(svg, state.theme, () => { current = svg; });
  }

  store.subscribe((state, previous) => {
    const c = state.compare;
    if (!c || c.phase !== 'done') {
      shown = null;
      return;
    }
    if (state.tab !== 'compare') return;
    if (changed(state, previous, 'compare', 'compareThread', 'compareWidths', 'compareNormalize', 'compareColour', 'compareChanged', 'theme', 'tab')) {
      rendering = render(state);
    }
    view.shown();
  });

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
      view.note('Nothing was saved: ' + error.message);
    }
  });

  return { settled: () => rendering };
}
