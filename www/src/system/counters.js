// The Counters tab: each counter the trace wrote (per process and name), with how many
// values it holds and their range and last value.

import { $, element } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { changed } from '../shared/state.js';

/** Rows of the table, in the core's order (process, then name). */
export function counterRows(summary) {
  const processes = new Map();
  for (const t of summary.threads) {
    if (t.pid !== undefined && t.process && !processes.has(t.pid)) processes.set(t.pid, t.process);
  }
  return (summary.counters || []).map((c) => ({
    process: (processes.get(c.pid) || 'process') + ' (pid ' + c.pid + ')',
    name: c.name,
    samples: count(c.samples),
    min: count(c.min),
    max: count(c.max),
    last: count(c.last),
  }));
}

export function createCounters({ store }) {
  const body = $('counter-rows');
  const button = $('tab-button-counters');
  store.subscribe((state, previous) => {
    if (state.phase !== 'done' || !changed(state, previous, 'summary')) return;
    const rows = counterRows(state.summary);
    button.hidden = rows.length === 0;
    if (button.hidden && state.tab === 'counters') store.update({ tab: 'flame' });
    body.replaceChildren(...rows.map((r) => element('tr', {},
      element('td', { text: r.process }),
      element('td', { class: 'name', text: r.name, title: r.name }),
      element('td', { class: 'n', text: r.samples }),
      element('td', { class: 'n', text: r.min }),
      element('td', { class: 'n', text: r.max }),
      element('td', { class: 'n', text: r.last }))));
  });
}
