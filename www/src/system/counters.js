// The Counters tab: each counter the trace wrote (per process and name), with its unit,
// how many values it wrote and the range and last of its values over the selected range
// (else the whole trace). The core summarises them: the range's summary counts the values
// written in it and the one in force at its start, and leaves out counters with no value
// yet.

import { $, element } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { changed } from '../shared/state.js';
import { rangeText } from '../shared/timespan.js';

/** Rows of the table, in the core's order (process, then name). */
export function counterRows(summary) {
  const processes = new Map();
  for (const t of summary.threads) {
    if (t.pid !== undefined && t.process && !processes.has(t.pid)) processes.set(t.pid, t.process);
  }
  return (summary.counters || []).map((c) => ({
    process: c.pid === 0 ? 'no process (the system\'s)' : (processes.get(c.pid) || 'process') + ' (pid ' + c.pid + ')',
    name: c.name,
    unit: c.unit || '',
    samples: count(c.samples),
    min: count(c.min),
    max: count(c.max),
    last: count(c.last),
  }));
}

export function createCounters({ store, products }) {
  const body = $('counter-rows');
  const button = $('tab-button-counters');
  let asked = 0;

  async function render() {
    const mine = ++asked;
    document.body.dataset.counters = 'loading';
    const state = store.get();
    let rows;
    try {
      rows = counterRows(state.range ? await products.shownSummary() : state.summary);
    } catch (error) {
      body.replaceChildren(element('tr', {}, element('td', { colspan: '7', class: 'muted', text: error.message })));
      return;
    }
    if (mine !== asked) return;
    $('counters-scope').textContent = state.range ? ' in ' + rangeText(state.range) + ' of the trace' : '';
    // A trace whose counters say no unit (atrace's never do) has no Unit column.
    $('counters-table').classList.toggle('no-units', rows.every((r) => !r.unit));
    body.replaceChildren(...(rows.length ? rows.map((r) => element('tr', {},
      element('td', { text: r.process }),
      element('td', { class: 'name', text: r.name, title: r.name }),
      element('td', { text: r.unit }),
      element('td', { class: 'n', text: r.samples }),
      element('td', { class: 'n', text: r.min }),
      element('td', { class: 'n', text: r.max }),
      element('td', { class: 'n', text: r.last })))
      : [element('tr', {}, element('td', { colspan: '7', class: 'muted', text: 'No counter has a value yet in this range.' }))]));
    document.body.dataset.counters = 'shown';
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      button.hidden = counterRows(state.summary).length === 0;
      if (button.hidden && state.tab === 'counters') store.update({ tab: 'flame' });
      if (!button.hidden && store.get().tab === 'counters') render();
      return;
    }
    if (button.hidden || state.tab !== 'counters') return;
    if (changed(state, previous, 'range', 'tab')) render();
  });
}
