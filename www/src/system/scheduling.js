// The Scheduling tab: every thread the scheduler saw, with the time it spent running,
// runnable (woken, waiting for a CPU), sleeping and in uninterruptible sleep (blocked in
// the kernel, I/O wait among it), busiest first, over the selected range
// (else the whole trace). Choosing a row shows that thread everywhere else.

import { $, element } from '../shared/dom.js';
import { millis, percent, threadLabel } from '../shared/format.js';
import { bindList, settle } from '../shared/list-keys.js';
import { changed } from '../shared/state.js';
import { rangeText } from '../shared/timespan.js';

/** Rows of the table: threads with scheduler times, most running first. */
export function schedulingRows(summary) {
  return summary.threads
    .map((t, index) => ({ index, t }))
    .filter(({ t }) => typeof t.running_us === 'number')
    .map(({ index, t }) => {
      const known = t.running_us + t.runnable_us + t.sleeping_us + t.uninterruptible_us;
      return {
        index,
        thread: threadLabel(t),
        process: t.process || (t.pid !== undefined ? 'pid ' + t.pid : ''),
        running: t.running_us,
        runnable: t.runnable_us,
        sleeping: t.sleeping_us,
        uninterruptible: t.uninterruptible_us,
        share: known ? percent(t.running_us, known) : '—',
      };
    })
    .sort((a, b) => b.running - a.running || b.runnable - a.runnable || a.index - b.index);
}

export function createScheduling({ store, products }) {
  const body = $('sched-rows');
  const button = $('tab-button-scheduling');
  bindList(body, 'tr[data-thread]', (row) => store.update({ thread: Number(row.dataset.thread) }));
  let asked = 0;

  // The rows of what graphs and tables cover: the range's where one is selected.
  async function render(state) {
    const mine = ++asked;
    let summary = state.summary;
    if (state.range) {
      document.body.dataset.scheduling = 'loading';
      try {
        summary = await products.shownSummary();
      } catch (error) {
        body.replaceChildren(element('tr', {}, element('td', { colspan: '7', class: 'muted', text: error.message })));
        return;
      }
      if (mine !== asked) return;
    }
    const now = store.get();
    $('sched-scope').textContent = now.range ? ' in ' + rangeText(now.range) + ' of the trace' : '';
    const rows = schedulingRows(summary);
    body.replaceChildren(...rows.map((r) => element('tr', { 'data-thread': String(r.index), 'aria-selected': String(now.thread === r.index) },
        element('td', { class: 'name', text: r.thread, title: r.thread }),
        element('td', { text: r.process }),
        element('td', { class: 'n', text: millis(r.running) }),
        element('td', { class: 'n', text: millis(r.runnable) }),
        element('td', { class: 'n', text: millis(r.sleeping) }),
        element('td', { class: 'n', text: millis(r.uninterruptible) }),
        element('td', { class: 'n', text: r.share }))));
    settle(body, 'tr[data-thread]');
    document.body.dataset.scheduling = 'shown';
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      button.hidden = schedulingRows(state.summary).length === 0;
      if (button.hidden && state.tab === 'scheduling') store.update({ tab: 'flame' });
    }
    if (button.hidden) return;
    // The range's rows are asked for when shown; the whole trace's are at hand.
    if (changed(state, previous, 'summary', 'range') || (changed(state, previous, 'tab') && state.tab === 'scheduling')) {
      if (state.tab === 'scheduling' || !state.range) render(state);
    } else if (changed(state, previous, 'thread')) {
      for (const tr of body.querySelectorAll('tr[data-thread]')) {
        tr.setAttribute('aria-selected', String(tr.dataset.thread === String(state.thread)));
      }
    }
  });
}
