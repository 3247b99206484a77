// The Compare tab: the trace on show (before) against a second trace (after). This module
// reads the second trace, asks the worker for the comparison, and shows the two traces'
// facts, the core's warnings and the controls; the graph and the methods table are their
// own views (compare-graph.js, compare-methods.js).

import { $, element } from '../shared/dom.js';
import { createProgress } from '../shared/progress.js';
import { changed } from '../shared/state.js';
import { bindToolbar } from '../shared/toolbar-keys.js';
import { sideBySide } from './compare-table.js';
import { createCompareGraph } from './compare-graph.js';
import { createCompareMethods } from './compare-methods.js';
import { viewJson } from '../shared/transforms.js';

/** The worker's key for the second trace's analysis and for the comparison. */
export const COMPARE_KEY = 'compare';

export function createCompare({ store, engine, products, frameScript }) {
  const beforeKey = products.key;
  const graph = createCompareGraph(store, engine, COMPARE_KEY, frameScript);
  createCompareMethods(store, engine, COMPARE_KEY);
  const progress = createProgress($('compare-progress-bar'), $('compare-progress-text'));
  // Bumped by every comparison started: an older one's answer is dropped.
  let run = 0;

  /**
   * Reads `files` (one trace, or a split trace's halves) as the after side and compares;
   * resolves to the comparison's facts.
   */
  // The two traces compared on `clock` (null: the core's choice) in the store's view:
  // `{facts, view}`, the view being the one compared in.
  async function compared(clock) {
    const view = store.get().view;
    const facts = await engine.compare(COMPARE_KEY, beforeKey, COMPARE_KEY, clock, viewJson(view));
    return { facts, view };
  }

  async function withFiles(files, name) {
    const mine = ++run;
    store.update({ compare: { phase: 'loading', name }, tab: 'compare', compareThread: '' });
    progress.start(name);
    try {
      const analysed = await engine.analyze(COMPARE_KEY, files, (done, total) => {
        if (mine === run) progress.read(name, done, total);
      });
      if (mine !== run) return;
      const { wasmBytes } = analysed;
      // The same stacks on both sides: the source the trace on show shows, where it has it.
      const shown = store.get().summary.source;
      const summary = analysed.summary.source !== shown && (analysed.summary.sources || []).some((s) => s.name === shown)
        ? await engine.selectSource(COMPARE_KEY, shown, null) : analysed.summary;
      if (mine !== run) return;
      document.body.dataset.wasmBytes = String(wasmBytes);
      progress.say('Comparing…');
      const { facts, view } = await compared(null);
      if (mine !== run) return;
      store.update({
        compare: { phase: 'done', name, summary, facts, view },
        compareThread: facts.default_thread || '',
      });
      await graph.settled();
      return facts;
    } catch (error) {
      if (mine !== run) return;
      store.update({ compare: { phase: 'error', name, error: error.message } });
      throw error;
    }
  }

  // Another clock: the same two traces compared again.
  async function reclock(clock) {
    const compare = store.get().compare;
    if (!compare || compare.phase !== 'done') return;
    const mine = ++run;
    try {
      const made = await compared(clock);
      if (mine === run) store.update({ compare: Object.assign({}, store.get().compare, made) });
    } catch (error) {
      if (mine === run) store.update({ compare: { phase: 'error', name: compare.name, error: error.message } });
    }
  }

  // The two traces renamed (a mapping applied): their summaries and comparison anew.
  async function renamed() {
    const compare = store.get().compare;
    if (!compare || compare.phase !== 'done') return;
    const mine = ++run;
    try {
      const summary = await engine.summary(COMPARE_KEY);
      const made = await compared(compare.facts.clock);
      if (mine === run) store.update({ compare: Object.assign({}, store.get().compare, { summary }, made) });
    } catch (error) {
      if (mine === run) store.update({ compare: { phase: 'error', name: compare.name, error: error.message } });
    }
  }

  // The trace on show moved to another source: the other side follows, where it has it.
  async function resourced(name, dump) {
    const compare = store.get().compare;
    if (!compare || compare.phase !== 'done') return;
    try {
      await engine.selectSource(COMPARE_KEY, name, dump);
    } catch (error) {
      store.update({ compare: { phase: 'error', name: compare.name, error: error.message } });
      return;
    }
    await renamed();
  }

  function close() {
    run++;
    store.update({ compare: null, tab: store.get().tab === 'compare' ? 'flame' : store.get().tab });
    engine.release(COMPARE_KEY).catch(() => {});
  }

  function renderStatus(state) {
    const c = state.compare;
    $('tab-button-compare').hidden = !c;
    $('compare-progress').hidden = !c || c.phase !== 'loading';
    $('compare-error').hidden = !c || c.phase !== 'error';
    $('compare-body').hidden = !c || c.phase !== 'done';
    if (c && c.phase === 'error') $('compare-error').textContent = c.name + ' could not be compared: ' + c.error;
  }

  function renderFacts(state) {
    const c = state.compare;
    const facts = sideBySide(state.summary, c.summary, [state.name, c.name]);
    $('compare-facts-head').replaceChildren(element('th', { scope: 'col' }),
      ...facts.head.map((label) => element('th', { scope: 'col', text: label })));
    $('compare-facts').replaceChildren(...facts.rows.map((cells, i) => element('tr', {},
      element('th', { scope: 'row', text: i === 0 ? 'Before' : 'After' }), ...cells.map((text) => element('td', { text })))));
    const warnings = c.facts.warnings;
    $('compare-warnings').replaceChildren(...warnings.map((text) => element('li', { text })));
    $('compare-warnings').hidden = warnings.length === 0;
    const select = $('compare-thread');
    const options = [element('option', { value: '', text: 'All threads' })];
    for (const t of c.facts.threads) {
      const side = t.before_us === 0 ? ' (after only)' : t.after_us === 0 ? ' (before only)' : '';
      options.push(element('option', { value: t.name, text: t.name + side }));
    }
    select.replaceChildren(...options);
    select.value = state.compareThread;
    for (const clock of ['wall', 'cpu']) {
      const both = [state.summary, c.summary].every((s) => s.format.clocks.includes(clock));
      const input = $('compare-clock-' + clock);
      input.disabled = !both;
      input.checked = c.facts.clock === clock;
      input.parentElement.title = both ? '' : 'Both traces need the ' + clock + ' clock to be compared on it';
    }
  }

  store.subscribe((state, previous) => {
    if (changed(state, previous, 'compare')) renderStatus(state);
    if (changed(state, previous, 'phase')) $('compare-open').hidden = state.phase !== 'done';
    // A newly opened trace ends the comparison (the worker dropped it with the old trace),
    // and one still being read is not finished.
    if (changed(state, previous, 'summary') && previous && !state.compare) {
      run++;
      if (previous.compare) engine.release(COMPARE_KEY).catch(() => {});
      if (state.tab === 'compare') store.update({ tab: 'flame' });
    }
    const c = state.compare;
    if (!c || c.phase !== 'done') return;
    // Another view: both sides compared again in it.
    if (c.view !== state.view && changed(state, previous, 'view')) reclock(c.facts.clock);
    if (changed(state, previous, 'compare')) renderFacts(state);
    else if (changed(state, previous, 'compareThread')) $('compare-thread').value = state.compareThread;
    $('compare-widths-' + state.compareWidths).checked = true;
    $('compare-normalize').checked = state.compareNormalize;
    $('compare-colour').value = state.compareColour;
    $('compare-changed').checked = state.compareChanged;
    // Choosing a thread in the thread list compares that thread, where both sides know its name.
    if (changed(state, previous, 'thread') && previous && previous.summary === state.summary && state.thread >= 0) {
      const name = state.summary.threads[state.thread].name;
      if (c.facts.threads.some((t) => t.name === name)) store.update({ compareThread: name });
    }
  });

  $('compare-open').addEventListener('click', () => $('compare-picker').click());
  $('compare-picker').addEventListener('change', (event) => {
    const files = Array.from(event.target.files || []);
    event.target.value = '';
    if (files.length === 0) return;
    if (files.length > 2) {
      store.update({ compare: { phase: 'error', name: files.length + ' files', error: 'choose one trace, or the .key and .data files of a split trace' }, tab: 'compare' });
      return;
    }
    withFiles(files, files.map((f) => f.name).join(' + ')).catch(() => {});
  });
  $('compare-thread').addEventListener('change', (event) => store.update({ compareThread: event.target.value }));
  for (const clock of ['wall', 'cpu']) $('compare-clock-' + clock).addEventListener('change', () => reclock(clock));
  for (const side of ['after', 'before']) $('compare-widths-' + side).addEventListener('change', () => store.update({ compareWidths: side }));
  $('compare-normalize').addEventListener('change', (event) => store.update({ compareNormalize: event.target.checked }));
  $('compare-colour').addEventListener('change', (event) => store.update({ compareColour: event.target.value }));
  $('compare-changed').addEventListener('change', (event) => store.update({ compareChanged: event.target.checked }));
  bindToolbar($('compare-tools'), 'Save or stop comparing');
  $('compare-close').addEventListener('click', close);

  return { withFiles, renamed, resourced, settled: () => graph.settled() };
}
