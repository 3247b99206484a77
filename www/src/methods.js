// The methods table of the selected thread (or of all threads), sortable and filterable,
// and the callers and callees of the selected method. It follows the thread, the clock
// and the selection in the state, and says what its numbers cover.

import { $, element } from './dom.js';
import { count, micros, millis, methodNameParts, methodTitle, percent, threadLabel, clockWords, frameNoun, frameTitle } from './format.js';
import { bindList, settle } from './list-keys.js';
import { changed, clocksOf, methodKey } from './state.js';
import { rangeText, timeText } from './timespan.js';

/** Rows shown at most; the filter reaches the others. */
export const METHOD_LIMIT = 500;

/** Slowest calls listed for the selected method. */
const SLOWEST = 10;

const otherClock = (clock) => (clock === 'wall' ? 'cpu' : 'wall');

/** The columns for a clock; `other` columns show the other clock where the trace has it. */
export function columns(clock, summary) {
  const value = (kind, c) => (m) => m[kind + '_' + c + '_us'];
  const other = otherClock(clock);
  return [
    { id: 'name', label: frameTitle(summary), value: (m) => m.name, text: true },
    { id: 'incl', label: 'Inclusive', value: value('incl', clock), time: true },
    { id: 'incl%', label: '%', value: value('incl', clock), share: true },
    { id: 'excl', label: 'Exclusive', value: value('excl', clock), time: true },
    { id: 'excl%', label: '%', value: value('excl', clock), share: true },
    { id: 'other-incl', label: 'Inclusive ' + (other === 'cpu' ? 'CPU' : 'wall'), value: value('incl', other), time: true, other: true },
    { id: 'other-excl', label: 'Exclusive ' + (other === 'cpu' ? 'CPU' : 'wall'), value: value('excl', other), time: true, other: true },
    { id: 'calls', label: 'Calls', value: (m) => m.calls },
    { id: 'recursive', label: 'Recursive', value: (m) => m.recursive_calls },
  ];
}

function cellClass(column) {
  if (column.text) return '';
  return 'n' + (column.other ? ' other' : '') + (column.id === 'recursive' ? ' col-recursive' : '');
}

/** Indices of `methods` that match `filter`, in the order of `sort`. */
export function methodOrder(methods, filter, sort, cols) {
  const text = filter.trim().toLowerCase();
  const column = cols.find((c) => c.id === sort.column) || cols[1];
  const sign = sort.descending ? -1 : 1;
  return methods.map((_, i) => i)
    .filter((i) => !text || [methods[i].name, methods[i].signature, methods[i].obfuscated || '']
      .some((field) => field.toLowerCase().includes(text)))
    .sort((a, b) => {
      const x = column.value(methods[a]);
      const y = column.value(methods[b]);
      if (column.text) return sign * String(x).localeCompare(String(y)) || a - b;
      return sign * ((x || 0) - (y || 0)) || a - b;
    });
}

/** Callers or callees of method `index`, most time on `clock` first, as named rows. */
export function relatives(table, index, side, clock) {
  const mine = side === 'callers' ? (e) => e.callee === index : (e) => e.caller === index;
  const other = side === 'callers' ? (e) => e.caller : (e) => e.callee;
  const key = 'incl_' + clock + '_us';
  return table.edges.filter(mine)
    .map((e) => ({ method: other(e), calls: e.calls, recursive: e.recursive_calls, us: e[key] }))
    .sort((a, b) => (b.us || 0) - (a.us || 0) || a.calls - b.calls);
}

export function createMethods(store, products) {
  const body = $('method-rows');
  const filter = $('method-filter');
  let table = null;
  let stale = true;
  let order = [];
  bindList(body, 'tr[data-method]', (row) => select(Number(row.dataset.method)));
  for (const id of ['callers', 'callees']) {
    bindList($(id), 'tr[data-method]', (row) => select(Number(row.dataset.method)));
  }
  filter.addEventListener('input', () => table && renderRows(store.get()));
  let slowest = [];
  bindList($('slowest'), 'tr[data-call]', (row) => {
    const call = slowest[Number(row.dataset.call)];
    if (call) store.update({ tab: 'timeline', thread: call.thread, focus: call });
  });

  function select(index) {
    if (!table || !table.methods[index]) return;
    store.update({ method: methodKey(table.methods[index]) });
  }

  function selectedIndex(state) {
    if (!table || state.method === null) return -1;
    return table.methods.findIndex((m) => methodKey(m) === state.method);
  }

  async function load(state) {
    stale = false;
    const thread = state.thread;
    $('method-note').textContent = 'Loading…';
    let loaded;
    try {
      loaded = await products.methods(thread);
    } catch (error) {
      $('method-note').textContent = error.message;
      return;
    }
    const now = store.get();
    if (now.thread !== thread || now.summary !== state.summary || now.range !== state.range) return;
    table = loaded;
    renderRows(now);
  }

  function renderHead(state, cols, showOther) {
    const head = $('method-head');
    head.replaceChildren();
    for (const column of cols) {
      if (column.other && !showOther) continue;
      const sorted = state.methodSort.column === column.id;
      head.append(element('th', {
        class: cellClass(column),
        scope: 'col',
        'aria-sort': sorted ? (state.methodSort.descending ? 'descending' : 'ascending') : 'none',
      }, element('button', {
        type: 'button',
        onclick: () => {
          const s = store.get().methodSort;
          const same = s.column === column.id;
          store.update({ methodSort: { column: column.id, descending: same ? !s.descending : column.id !== 'name' } });
        },
      }, column.label, sorted ? (state.methodSort.descending ? ' ▾' : ' ▴') : '')));
    }
  }

  function renderRows(state) {
    const summary = state.summary;
    const cols = columns(state.clock, summary);
    const showOther = clocksOf(summary)[otherClock(state.clock)];
    renderHead(state, cols, showOther);
    const total = state.clock === 'cpu' ? table.total_cpu_us : table.total_wall_us;
    order = methodOrder(table.methods, filter.value, state.methodSort, cols);
    const chosen = selectedIndex(state);
    body.replaceChildren();
    for (const index of order.slice(0, METHOD_LIMIT)) {
      const m = table.methods[index];
      const row = element('tr', { 'data-method': String(index), 'aria-selected': String(index === chosen) });
      for (const c of cols) {
        if (c.other && !showOther) continue;
        const value = c.value(m);
        if (c.text) {
          // Overloads share a name: the signature tells them apart.
          const [head, tail] = methodNameParts(m);
          row.append(element('td', { class: 'name', title: methodTitle(m) },
            element('span', { class: 'label' },
              element('span', { class: 'head', text: head }),
              tail ? element('span', { class: 'tail', text: tail }) : null,
              element('span', { class: 'sig', text: m.signature }))));
        } else {
          row.append(element('td', { class: cellClass(c), text: c.share ? percent(value, total) : c.time ? micros(value) : count(value) }));
        }
      }
      body.append(row);
    }
    settle(body, 'tr[data-method]');
    const t = state.thread < 0 ? null : summary.threads[state.thread];
    const noun = frameNoun(summary, true);
    $('method-scope').textContent = (t ? threadLabel(t) : 'All threads') + (state.range ? ' in ' + rangeText(state.range) : '') +
      ': ' + count(table.methods.length) + ' ' + noun +
      ', ' + millis(total) + ' of ' + clockWords(state.clock, summary) + '. Percentages are of ' +
      (t ? 'this thread\'s' : 'all threads\'') + ' time.';
    const more = order.length - METHOD_LIMIT;
    $('method-note').textContent = (more > 0 ? 'Showing ' + METHOD_LIMIT + ' of ' + count(order.length) + '; filter to see others. '
      : count(order.length) + ' shown. ') + 'Times in µs; inclusive time counts a recursive ' + noun.slice(0, -1) + ' once.';
    renderDetail(state);
  }

  function relativeRows(target, rows, summaryNoun) {
    target.replaceChildren();
    for (const r of rows) {
      const m = r.method === null ? null : table.methods[r.method];
      target.append(element('tr', m ? { 'data-method': String(r.method) } : {},
        element('td', { class: 'name', title: m ? m.name + ' ' + m.signature : 'Where the thread began' },
          m ? m.name : '(thread top level)',
          r.recursive ? element('span', { class: 'badge', text: 'recursive ×' + count(r.recursive),
            title: r.recursive + ' of these calls ran inside another call of the same ' + summaryNoun +
              '; the time counts the outermost call once' }) : null),
        element('td', { class: 'n', text: count(r.calls) }),
        element('td', { class: 'n', text: micros(r.us) })));
    }
    if (rows.length === 0) target.append(element('tr', {}, element('td', { colspan: '3', class: 'muted', text: 'None' })));
    settle(target, 'tr[data-method]');
  }

  function renderDetail(state) {
    const box = $('method-detail');
    const index = selectedIndex(state);
    box.hidden = index < 0;
    for (const row of body.querySelectorAll('tr[data-method]')) {
      row.setAttribute('aria-selected', String(Number(row.dataset.method) === index));
    }
    if (index < 0) return;
    const m = table.methods[index];
    const noun = frameNoun(state.summary, false);
    $('method-detail-name').textContent = m.name;
    $('method-detail-facts').textContent = [m.signature, m.source ? 'in ' + m.source : null,
      count(m.calls) + ' calls' + (m.recursive_calls ? ' (' + count(m.recursive_calls) + ' recursive)' : ''),
      'inclusive ' + millis(m['incl_' + state.clock + '_us'])].filter(Boolean).join(' · ');
    for (const label of document.querySelectorAll('.relative-time')) label.textContent = 'Inclusive µs (' + (state.clock === 'cpu' ? 'CPU' : 'wall') + ')';
    relativeRows($('callers'), relatives(table, index, 'callers', state.clock), noun);
    relativeRows($('callees'), relatives(table, index, 'callees', state.clock), noun);
    slowestRows(state, m.name);
  }

  // The longest calls of the selected method, each a way into the timeline.
  async function slowestRows(state, name) {
    const target = $('slowest');
    target.replaceChildren(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: 'Loading…' })));
    let calls;
    try {
      calls = await products.slowest(name, state.thread, SLOWEST);
    } catch (error) {
      target.replaceChildren(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: error.message })));
      return;
    }
    const now = store.get();
    if (now.method !== state.method || now.thread !== state.thread || now.summary !== state.summary) return;
    target.replaceChildren();
    calls.forEach((call, i) => {
      const thread = now.summary.threads[call.thread];
      target.append(element('tr', { 'data-call': String(i), title: 'Show this call in the timeline' },
        element('td', { class: 'name', text: threadLabel(thread) }),
        element('td', { class: 'n', text: timeText(call.start_us) }),
        element('td', { class: 'n', text: call.wall_us === null ? '—' : timeText(call.wall_us) }),
        element('td', { class: 'n', text: call.cpu_us === null ? '—' : timeText(call.cpu_us) })));
    });
    if (calls.length === 0) target.append(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: 'No calls kept' })));
    // Where short calls were left out, fewer than asked may be all there is to list.
    const facts = calls.length < SLOWEST ? await products.timeline() : null;
    if (facts && facts.left_out && store.get().method === state.method) {
      target.append(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: facts.left_out })));
    }
    slowest = calls;
    settle(target, 'tr[data-call]');
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) table = null;
    const visible = state.tab === 'methods';
    if (changed(state, previous, 'summary', 'thread', 'range')) {
      stale = true;
      if (visible) load(state);
      return;
    }
    if (visible && (stale || !table)) {
      load(state);
      return;
    }
    if (!table) return;
    if (changed(state, previous, 'clock', 'methodSort')) renderRows(state);
    else if (changed(state, previous, 'method')) renderDetail(state);
  });
}
