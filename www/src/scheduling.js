// The Scheduling tab: every thread the scheduler saw, with the time it spent running,
// runnable (woken, waiting for a CPU) and sleeping, busiest first. Choosing a row shows
// that thread everywhere else.

import { $, element } from './dom.js';
import { millis, percent, threadLabel } from './format.js';
import { bindList, settle } from './list-keys.js';
import { changed } from './state.js';

/** Rows of the table: threads with scheduler times, most running first. */
export function schedulingRows(summary) {
  return summary.threads
    .map((t, index) => ({ index, t }))
    .filter(({ t }) => typeof t.running_us === 'number')
    .map(({ index, t }) => {
      const known = t.running_us + t.runnable_us + t.sleeping_us;
      return {
        index,
        thread: threadLabel(t),
        process: t.process || (t.pid !== undefined ? 'pid ' + t.pid : ''),
        running: t.running_us,
        runnable: t.runnable_us,
        sleeping: t.sleeping_us,
        share: known ? percent(t.running_us, known) : '—',
      };
    })
    .sort((a, b) => b.running - a.running || b.runnable - a.runnable || a.index - b.index);
}

export function createScheduling(store) {
  const body = $('sched-rows');
  const button = $('tab-button-scheduling');
  bindList(body, 'tr[data-thread]', (row) => store.update({ thread: Number(row.dataset.thread) }));

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      const rows = schedulingRows(state.summary);
      button.hidden = rows.length === 0;
      if (button.hidden && state.tab === 'scheduling') store.update({ tab: 'flame' });
      body.replaceChildren(...rows.map((r) => element('tr', { 'data-thread': String(r.index), 'aria-selected': String(state.thread === r.index) },
        element('td', { class: 'name', text: r.thread, title: r.thread }),
        element('td', { text: r.process }),
        element('td', { class: 'n', text: millis(r.running) }),
        element('td', { class: 'n', text: millis(r.runnable) }),
        element('td', { class: 'n', text: millis(r.sleeping) }),
        element('td', { class: 'n', text: r.share }))));
      settle(body, 'tr[data-thread]');
    } else if (changed(state, previous, 'thread')) {
      for (const tr of body.querySelectorAll('tr[data-thread]')) {
        tr.setAttribute('aria-selected', String(tr.dataset.thread === String(state.thread)));
      }
    }
  });
}
