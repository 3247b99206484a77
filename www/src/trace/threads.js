// The thread list: every thread (and track) with its wall and CPU time and share, grouped
// under its process where the trace names processes, filterable, one Tab stop. With a range
// selected, times and shares are the range's.

import { $, element } from '../shared/dom.js';
import { amount, clockHeading, countText, millis, percent, splitName, threadLabel, unitOf } from '../shared/format.js';
import { rangeText } from '../shared/timespan.js';
import { bindList, settle } from '../shared/list-keys.js';
import { changed } from '../shared/state.js';

export function threadTotal(thread, clock) {
  return clock === 'cpu' ? thread.cpu_us : thread.wall_us;
}

/** The time of all threads on a clock, as the core adds it up (tracks left out). */
export function allThreadsTotal(summary, clock) {
  return clock === 'cpu' ? summary.totals.cpu_us : summary.totals.wall_us;
}

/** What a thread's share on `clock` is of (the core's `wholes`): `{value, of}`, or null. */
export function wholeOf(summary, clock) {
  return (summary.wholes && summary.wholes[clock]) || null;
}

/**
 * Thread indices in display order: busiest first, by CPU time where the trace has a CPU clock
 * (threads blocked in a wait for the whole trace have the most wall time, so wall time does
 * not tell the busy ones), then by wall time; where the trace names processes, grouped under
 * them, the busiest process first. The order does not change with the clock shown.
 */
export function threadOrder(threads) {
  const cpu = threads.some((t) => typeof t.cpu_us === 'number');
  const key = (t) => [cpu ? (t.cpu_us ?? -1) : 0, t.wall_us ?? -1];
  const busier = (x, y) => y[0] - x[0] || y[1] - x[1];
  const order = threads.map((_, i) => i).sort((a, b) => busier(key(threads[a]), key(threads[b])) || a - b);
  if (!threads.some((t) => t.pid !== undefined)) return order;
  const groupTotal = new Map();
  for (const t of threads) {
    const [sum0, sum1] = groupTotal.get(t.pid) || [0, 0];
    const [k0, k1] = key(t);
    groupTotal.set(t.pid, [sum0 + Math.max(k0, 0), sum1 + Math.max(k1, 0)]);
  }
  const rank = new Map(Array.from(groupTotal.keys()).sort((a, b) =>
    busier(groupTotal.get(a), groupTotal.get(b)) || (a === undefined) - (b === undefined) || a - b).map((pid, i) => [pid, i]));
  return order.map((index, position) => [rank.get(threads[index].pid), position, index])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((entry) => entry[2]);
}

/** Whether a thread matches the filter text (name, tid, process name or pid). */
export function threadMatches(thread, filter) {
  if (!filter) return true;
  const haystack = (thread.name + ' ' + thread.tid + ' ' + (thread.process || '') + ' ' + (thread.pid ?? '')).toLowerCase();
  return haystack.includes(filter.trim().toLowerCase());
}

function nameCell(t, share, all) {
  const label = t ? threadLabel(t) : all;
  const [head, tail] = splitName(t ? t.name : all);
  const states = t && typeof t.running_us === 'number'
    ? '\nrunning ' + millis(t.running_us) + ' · runnable ' + millis(t.runnable_us) + ' · sleeping ' + millis(t.sleeping_us) + ' · uninterruptible ' + millis(t.uninterruptible_us)
    : '';
  // A process's main thread has the process's id.
  const main = Boolean(t && !t.track && t.pid !== undefined && t.tid === t.pid);
  // Marked by its weight, not a badge: a badge would cut the names of a narrow column shorter.
  return element('td', { class: main ? 'name main-thread' : 'name', title: label + (t && t.process ? ' — ' + t.process : '') + (main ? ' (its main thread)' : '') + states },
    element('span', { class: 'label' },
      element('span', { class: 'head', text: head }),
      tail ? element('span', { class: 'tail', text: tail }) : null),
    t && t.track ? element('span', { class: 'badge', text: 'async', title: 'A track of async slices, not a thread: it has no CPU time and is not in the All-threads total' }) : null,
    element('span', { class: 'share', style: 'width:' + (share * 100).toFixed(2) + '%' }));
}

export function createThreadList(store, products) {
  const body = $('thread-rows');
  const filter = $('thread-filter');
  bindList(body, 'tr[data-thread]', (row) => store.update({ thread: Number(row.dataset.thread) }));
  filter.addEventListener('input', () => store.update({ threadFilter: filter.value }));
  let asked = 0;

  // The times of what graphs and tables cover: the range's where one is selected.
  async function load(state) {
    const mine = ++asked;
    let shown = state.summary;
    if (state.range) {
      try {
        shown = await products.shownSummary();
      } catch {
        shown = state.summary;
      }
      if (mine !== asked) return;
    }
    render(store.get(), shown);
  }

  function render(state, shown) {
    // Names, order and grouping are the trace's; times and shares what is shown.
    const summary = shown.threads.length === state.summary.threads.length ? shown : state.summary;
    const scope = $('thread-scope');
    if (scope) scope.textContent = state.range && summary !== state.summary ? ' in ' + rangeText(state.range) : '';
    body.replaceChildren();
    const threads = summary.threads;
    // Shares are of a whole the trace has: its duration for wall time (threads run side by
    // side, so their wall times add up to more), all threads' time on the CPU clock.
    const whole = wholeOf(summary, state.clock);
    const total = whole ? whole.value : allThreadsTotal(summary, state.clock);
    const text = state.threadFilter;
    // A heap dump's "threads" are its heaps.
    const dump = Boolean(summary.heap_dump);
    $('thread-heading').textContent = dump ? 'Heap' : 'Thread';
    // A heap has no tid and no second clock: those columns go.
    body.closest('table').classList.toggle('heaps', dump);
    filter.placeholder = dump ? 'Filter heaps' : 'Filter threads';
    filter.setAttribute('aria-label', filter.placeholder);
    let group = null;
    // All threads' row: each clock's whole, named.
    const allCell = (clock) => {
      const w = wholeOf(summary, clock);
      const value = w ? w.value : allThreadsTotal(summary, clock);
      return element('td', { class: 'n', text: amount(value, unitOf(summary, clock)), title: w ? w.of : '' });
    };
    const row = (index) => {
      const t = index < 0 ? null : threads[index];
      const value = t ? threadTotal(t, state.clock) : total;
      const share = t ? (total && !t.track ? Math.min(1, (value || 0) / total) : 0) : 1;
      return element('tr', { 'aria-selected': String(state.thread === index), 'data-thread': String(index) },
        nameCell(t, share, dump ? 'All heaps' : 'All threads'),
        // A heap of a dump is no thread: it has no tid.
        element('td', { class: 'n', text: t && !t.track && !t.heap ? t.tid : '' }),
        // A thread known only from its scheduling has no frames of its own.
        t ? element('td', { class: 'n', text: t.records === 0 ? '—' : amount(t.wall_us, unitOf(summary, 'wall')) }) : allCell('wall'),
        t ? element('td', { class: 'n', text: t.records === 0 ? '—' : amount(t.cpu_us, unitOf(summary, 'cpu')) }) : allCell('cpu'),
        element('td', { class: 'n', text: t && !t.track && t.records > 0 ? percent(value, total) : '',
          title: t && whole ? 'Of ' + whole.of : '' }));
    };
    $('thread-wall-heading').textContent = clockHeading(summary, 'wall');
    $('thread-cpu-heading').textContent = clockHeading(summary, 'cpu');
    body.append(row(-1));
    // Grouped where the trace names any process: the threads of none come last, under a
    // header of their own (not under the last process's).
    const grouped = threads.some((t) => t.pid !== undefined);
    for (const index of threadOrder(threads)) {
      const t = threads[index];
      if (!threadMatches(t, text)) continue;
      if (grouped && t.pid !== group) {
        group = t.pid;
        const words = t.pid === undefined ? 'No process named in the trace' : (t.process || 'process') + ' (pid ' + t.pid + ')';
        // Four cells and a fifth under Share, so that hiding that column hides it here too.
        body.append(element('tr', { class: 'process' },
          element('th', { colspan: '4', scope: 'rowgroup', text: words }),
          element('td')));
      }
      body.append(row(index));
    }
    settle(body, 'tr[data-thread]');
    const tracks = threads.filter((t) => t.track).length;
    $('thread-count').textContent = countText(threads.length - tracks, dump ? 'heap' : 'thread') + (tracks ? ', ' + countText(tracks, 'track') : '');
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary', 'clock', 'threadFilter', 'range')) {
      if (filter.value !== state.threadFilter) filter.value = state.threadFilter;
      load(state);
    } else if (changed(state, previous, 'thread')) {
      for (const tr of body.querySelectorAll('tr[data-thread]')) {
        tr.setAttribute('aria-selected', String(tr.dataset.thread === String(state.thread)));
      }
    }
  });
}
