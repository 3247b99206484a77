// The Scheduling tab: every thread the scheduler saw, with the time it spent running,
// runnable (woken, waiting for a CPU), preempted, sleeping and in uninterruptible sleep
// (blocked in the kernel; the I/O wait part apart), who woke it most and the CPUs it ran
// on, busiest first, over the selected range (else the whole trace). The core's
// `scheduling` product gives the rows whichever source is shown; choosing a row shows that
// thread everywhere else.

import { $, element } from '../shared/dom.js';
import { millis, percent } from '../shared/format.js';
import { bindList, settle } from '../shared/list-keys.js';
import { changed } from '../shared/state.js';
import { rangeText } from '../shared/timespan.js';

const COLUMNS = 11;

/**
 * Rows of the table from the core's scheduling rows (most running first already): `index`
 * is the thread's in the shown source's summary (null: not in it, so not choosable).
 */
export function schedulingRows(scheduling) {
  return scheduling.map((r) => {
    const known = r.running_us + r.runnable_us + r.preempted_us + r.sleeping_us + r.uninterruptible_us;
    const cpuTotal = r.cpus.reduce((sum, c) => sum + c.us, 0);
    return {
      index: r.shown,
      tid: r.tid,
      thread: r.label,
      process: r.process || (r.pid !== null && r.pid !== undefined ? 'pid ' + r.pid : ''),
      running: r.running_us,
      runnable: r.runnable_us,
      preempted: r.preempted_us,
      sleeping: r.sleeping_us,
      uninterruptible: r.uninterruptible_us,
      ioWait: r.io_wait_us,
      share: known ? percent(r.running_us, known) : '—',
      waker: r.wakers.length ? r.wakers[0].name + ' ×' + r.wakers[0].count : '',
      wakers: r.wakers.map((w) => w.name + ': ' + w.count + ' of ' + r.wakeups + ' wakeups').join('\n'),
      cpus: r.cpus.map((c) => c.cpu + ' ' + percent(c.us, cpuTotal)).join(' · '),
      cpuTimes: r.cpus.map((c) => 'CPU ' + c.cpu + ': ' + millis(c.us)).join('\n'),
    };
  });
}

export function createScheduling({ store, products }) {
  const body = $('sched-rows');
  const button = $('tab-button-scheduling');
  // A thread of the stacks shown becomes the chosen thread; one they lack (a thread the
  // scheduler saw that wrote no slices, with CPU samples shown) is pinned in the timeline.
  bindList(body, 'tr[data-row]', (row) => {
    if (row.dataset.thread !== undefined) store.update({ thread: Number(row.dataset.thread) });
    else store.update({ pins: [...new Set([...store.get().pins, Number(row.dataset.tid)])], tab: 'timeline' });
  });
  let asked = 0;

  // The rows of what graphs and tables cover: the range's where one is selected.
  async function render(state) {
    const mine = ++asked;
    document.body.dataset.scheduling = 'loading';
    let rows;
    try {
      const facts = await products.timeline();
      const span = state.range || { from: 0, to: facts.length_us };
      rows = schedulingRows(await products.scheduling(span.from, span.to));
    } catch (error) {
      body.replaceChildren(element('tr', {}, element('td', { colspan: String(COLUMNS), class: 'muted', text: error.message })));
      return;
    }
    if (mine !== asked) return;
    const now = store.get();
    $('sched-scope').textContent = now.range ? ' in ' + rangeText(now.range) + ' of the trace' : '';
    body.replaceChildren(...rows.map((r) => element('tr', r.index === null
      ? { 'data-row': '', 'data-tid': String(r.tid), title: 'Not in the stacks shown: Enter or a click pins it in the timeline' }
      : { 'data-row': '', 'data-thread': String(r.index), 'aria-selected': String(now.thread === r.index) },
        element('td', { class: 'name', text: r.thread, title: r.thread }),
        element('td', { text: r.process, title: r.process }),
        element('td', { class: 'n', text: millis(r.running) }),
        element('td', { class: 'n', text: millis(r.runnable) }),
        element('td', { class: 'n', text: millis(r.preempted) }),
        element('td', { class: 'n', text: millis(r.sleeping) }),
        element('td', { class: 'n', text: millis(r.uninterruptible) }),
        element('td', { class: 'n', text: r.ioWait ? millis(r.ioWait) : '' }),
        element('td', { class: 'n', text: r.share }),
        element('td', { class: 'waker', text: r.waker, title: r.wakers }),
        element('td', { class: 'cpus', text: r.cpus, title: r.cpuTimes }))));
    settle(body, 'tr[data-row]');
    document.body.dataset.scheduling = 'shown';
  }

  store.subscribe(async (state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      const facts = await products.timeline().catch(() => null);
      button.hidden = !facts?.scheduling;
      if (button.hidden && store.get().tab === 'scheduling') store.update({ tab: 'flame' });
      state = store.get();
      if (!button.hidden && state.tab === 'scheduling') render(state);
      return;
    }
    if (button.hidden) return;
    if (changed(state, previous, 'range') || (changed(state, previous, 'tab') && state.tab === 'scheduling')) {
      if (state.tab === 'scheduling') render(state);
    } else if (changed(state, previous, 'thread')) {
      for (const tr of body.querySelectorAll('tr[data-thread]')) {
        tr.setAttribute('aria-selected', String(tr.dataset.thread === String(state.thread)));
      }
    }
  });
}
