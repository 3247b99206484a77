// The Compare tab's methods table: each method before and after, with the deltas, in the
// sortable table (sort-table.js), by Δ inclusive, growth first, to begin with.

import { $ } from '../shared/dom.js';
import { frameNoun, unitOf, unitSymbol } from '../shared/format.js';
import { createSortTable } from '../shared/sort-table.js';
import { compareClockWords, deltaColumns, DELTA_LIMIT } from './compare-table.js';
import { tableViewJson } from '../shared/transforms.js';

export function createCompareMethods(store, engine, key) {
  const table = createSortTable(store, {
    head: $('compare-method-head'),
    subhead: $('compare-method-subhead'),
    body: $('compare-method-rows'),
    filter: $('compare-filter'),
    note: $('compare-method-note'),
    sortKey: 'compareSort',
    filterKey: 'compareFilter',
    fallback: 'incl-delta',
    limit: DELTA_LIMIT,
  });
  // What the rows are of: the comparison's facts (a new comparison makes new ones) and the
  // thread name.
  let loadedFor = null;

  const idOf = (s) => ({ facts: s.compare.facts, thread: s.compareThread });
  const same = (a, b) => Boolean(a && b) && a.facts === b.facts && a.thread === b.thread;

  async function load(state) {
    const id = idOf(state);
    loadedFor = id;
    table.say('Loading…');
    let rows;
    try {
      rows = await engine.methodDeltas(key, state.compare.facts.clock, state.compareThread, tableViewJson(state.compare.view));
    } catch (error) {
      if (same(loadedFor, id)) table.say(error.message);
      return;
    }
    const now = store.get();
    if (!now.compare || now.compare.phase !== 'done' || !same(idOf(now), id)) return;
    const unit = unitOf(now.summary, now.compare.facts.clock);
    table.show(now, {
      columns: deltaColumns(now.summary, unit),
      rows,
      noun: frameNoun(now.summary, false),
      about: (unit === 'us' ? 'Times: ' : 'Values: ') + compareClockWords(now) + ' (hover for ' + unitSymbol(unit) + '); Δ is after less before.',
    });
  }

  store.subscribe((state) => {
    const c = state.compare;
    if (!c || c.phase !== 'done') {
      loadedFor = null;
      return;
    }
    if (state.tab !== 'compare') return;
    if (!same(idOf(state), loadedFor)) load(state);
  });
}
