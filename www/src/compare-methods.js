// The Compare tab's methods table: each method before and after, with the deltas, sortable
// by any column (by Δ inclusive, growth first, to begin with) and filterable.

import { $, element } from './dom.js';
import { count, frameNoun, methodNameParts } from './format.js';
import { changed } from './state.js';
import { cellText, cellTitle, columnGroups, deltaColumns, deltaOrder, DELTA_LIMIT } from './compare-table.js';

export function createCompareMethods(store, engine, key) {
  const body = $('compare-method-rows');
  const filter = $('compare-filter');
  let rows = null;
  // What the rows are of: the comparison's facts (a new comparison makes new ones) and the
  // thread name.
  let loadedFor = null;

  const idOf = (s) => ({ facts: s.compare.facts, thread: s.compareThread });
  const same = (a, b) => Boolean(a && b) && a.facts === b.facts && a.thread === b.thread;

  async function load(state) {
    const id = idOf(state);
    loadedFor = id;
    rows = null;
    $('compare-method-note').textContent = 'Loading…';
    let loaded;
    try {
      loaded = await engine.methodDeltas(key, state.compare.facts.clock, state.compareThread);
    } catch (error) {
      if (same(loadedFor, id)) $('compare-method-note').textContent = error.message;
      return;
    }
    const now = store.get();
    if (!now.compare || now.compare.phase !== 'done' || !same(idOf(now), id)) return;
    rows = loaded;
    render(now);
  }

  function renderHead(state, cols) {
    const sort = state.compareSort;
    const sortButton = (column, label) => {
      const sorted = sort.column === column.id;
      return element('button', {
        type: 'button',
        title: column.kind === 'delta' || column.kind === 'change' ? 'Largest growth first; again for largest shrink first' : null,
        onclick: () => {
          const s = store.get().compareSort;
          const same = s.column === column.id;
          store.update({ compareSort: { column: column.id, descending: same ? !s.descending : !column.text } });
        },
      }, label, sorted ? (sort.descending ? ' ▾' : ' ▴') : '');
    };
    const ariaSort = (column) => (sort.column === column.id ? (sort.descending ? 'descending' : 'ascending') : 'none');
    const name = cols[0];
    const top = [element('th', { scope: 'col', rowspan: '2', 'aria-sort': ariaSort(name) }, sortButton(name, name.label))];
    for (const g of columnGroups(cols)) {
      top.push(element('th', { scope: 'colgroup', colspan: String(g.span), class: 'group' }, g.group));
    }
    $('compare-method-head').replaceChildren(...top);
    $('compare-method-subhead').replaceChildren(...cols.slice(1).map((column) => element('th', {
      class: 'n' + (column.wide ? ' wide' : ''),
      scope: 'col',
      'aria-sort': ariaSort(column),
      'aria-label': column.group + ' ' + column.label,
    }, sortButton(column, column.label))));
  }

  function render(state) {
    const cols = deltaColumns(state.summary);
    renderHead(state, cols);
    const order = deltaOrder(rows, filter.value, state.compareSort, cols);
    body.replaceChildren();
    for (const index of order.slice(0, DELTA_LIMIT)) {
      const r = rows[index];
      const tr = element('tr', {});
      for (const c of cols) {
        if (c.text) {
          // The package gives way first; the class and method stay readable.
          const [head, tail] = methodNameParts(r);
          tr.append(element('td', { class: 'name', title: r.name + ' ' + r.signature },
            element('span', { class: 'label' }, element('span', { class: 'head', text: head }),
              tail ? element('span', { class: 'tail', text: tail }) : null,
              element('span', { class: 'sig', text: r.signature }))));
          continue;
        }
        const value = c.value(r);
        const text = cellText(c, r);
        // Growth red, shrinkage blue; a change with nothing before to compare with stays plain.
        const signed = c.kind === 'delta' || (c.kind === 'change' && text !== '—');
        const sign = signed ? (value > 0 ? ' grew' : value < 0 ? ' shrank' : '') : '';
        tr.append(element('td', { class: 'n' + sign + (c.wide ? ' wide' : ''), title: cellTitle(c, r), text }));
      }
      body.append(tr);
    }
    const noun = frameNoun(state.summary, true);
    const more = order.length - DELTA_LIMIT;
    $('compare-method-note').textContent = (more > 0
      ? 'Showing ' + DELTA_LIMIT + ' of ' + count(order.length) + '; filter to see others. '
      : count(order.length) + ' ' + noun + ' shown. ') +
      'Times on the ' + (state.compare.facts.clock === 'cpu' ? 'thread-CPU' : 'wall') + ' clock (hover for µs); Δ is after less before.';
  }

  filter.addEventListener('input', () => rows && render(store.get()));

  store.subscribe((state, previous) => {
    const c = state.compare;
    if (!c || c.phase !== 'done') {
      rows = null;
      loadedFor = null;
      return;
    }
    if (state.tab !== 'compare') return;
    if (!same(idOf(state), loadedFor)) {
      load(state);
      return;
    }
    if (rows && changed(state, previous, 'compareSort', 'summary')) render(state);
  });
}
