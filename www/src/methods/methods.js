// The methods table of the selected thread (or of all threads), sortable and filterable,
// and the callers and callees of the selected method. It follows the thread, the clock
// and the selection in the state, and says what its numbers cover.

import { $, element } from '../shared/dom.js';
import { amount, count, countHeading, countedNoun, countsCalls, countText, micros, percent, threadLabel, clockWords, frameNoun, frameTitle, unitOf, unitSymbol } from '../shared/format.js';
import { createFrameMenu } from '../flame/frame-menu.js';
import { bindList, bindRowMenu, settle } from '../shared/list-keys.js';
import { changed, clocksOf, focusOn, methodKey } from '../shared/state.js';
import { createSortTable } from '../shared/sort-table.js';
import { stateTimesLine } from '../shared/thread-states.js';
import { rangeText, timeText } from '../shared/timespan.js';
import { chosenPatch, pathMenuItems, tableViewJson } from '../shared/transforms.js';

/** Rows shown at most; the filter reaches the others. */
export const METHOD_LIMIT = 500;

/** Slowest calls listed for the selected method. */
const SLOWEST = 10;

const NO_PATH = 'A table of methods has no paths: focus on a subtree in the flame graph or the call tree.';

const otherClock = (clock) => (clock === 'wall' ? 'cpu' : 'wall');

/**
 * The table's columns for a clock (sort-table.js); where the trace has the other clock too,
 * columns of it under its name in the core's words. `total`: the scope's time, that
 * percentages are of.
 */
export function columns(clock, summary, total) {
  const value = (kind, c) => (m) => m[kind + '_' + c + '_us'];
  const other = otherClock(clock);
  const time = (kind, c) => ({ value: value(kind, c), cell: (m) => micros(value(kind, c)(m)), className: 'n' });
  const share = (kind) => ({ value: value(kind, clock), cell: (m) => percent(value(kind, clock)(m), total), className: 'n' });
  return [
    { id: 'name', label: frameTitle(summary), value: (m) => m.name, text: true },
    Object.assign({ id: 'incl', label: 'Inclusive' }, time('incl', clock)),
    Object.assign({ id: 'incl%', label: '%' }, share('incl')),
    Object.assign({ id: 'excl', label: 'Exclusive' }, time('excl', clock)),
    Object.assign({ id: 'excl%', label: '%' }, share('excl')),
    ...(clocksOf(summary)[other] ? [
      ...['incl', 'excl'].map((kind) => Object.assign({ id: 'other-' + kind, label: kind === 'incl' ? 'Inclusive' : 'Exclusive' }, time(kind, other),
        { className: 'n other', group: clockWords(other, summary), groupClass: 'other' })),
    ] : []),
    { id: 'calls', label: countHeading(summary), value: (m) => m.calls, cell: (m) => count(m.calls), className: 'n' },
    // Samples and allocations count each stack once: recursion repeats none of them.
    ...(countsCalls(summary) ? [
      { id: 'recursive', label: 'Recursive', value: (m) => m.recursive_calls, cell: (m) => count(m.recursive_calls), className: 'n col-recursive' },
    ] : []),
  ];
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

export function createMethods({ store, products }) {
  let table = null;
  let stale = true;
  const rows = createSortTable(store, {
    head: $('method-head'),
    subhead: $('method-subhead'),
    body: $('method-rows'),
    filter: $('method-filter'),
    note: $('method-note'),
    sortKey: 'methodSort',
    filterKey: 'methodFilter',
    fallback: 'incl',
    limit: METHOD_LIMIT,
    rowKey: 'method',
    activate: select,
  });
  for (const id of ['callers', 'callees']) {
    bindList($(id), 'tr[data-method]', (row) => select(Number(row.dataset.method)));
  }
  // A method's menu, in the table and among callers and callees, adds a step to the view.
  const menu = createFrameMenu();
  for (const id of ['method-rows', 'callers', 'callees']) {
    bindRowMenu($(id), 'tr[data-method]', async (row, point) => {
      const m = table && table.methods[Number(row.dataset.method)];
      if (!m) return;
      const libraries = await products.libraries(m.name);
      menu.open(m.name, pathMenuItems([m.name], { noSubtree: NO_PATH, libraries }), point.left, point.top, {
        choose: (item) => {
          store.update(chosenPatch(store.get(), item));
          $('method-filter').focus();
        },
        back: () => row.focus(),
      });
    });
  }
  let slowest = [];
  bindList($('slowest'), 'tr[data-call]', (row) => {
    const call = slowest[Number(row.dataset.call)];
    if (call) store.update(focusOn(call));
  });

  function select(index) {
    if (!table || !table.methods[index]) return;
    store.update({ method: methodKey(table.methods[index]) });
  }

  function selectedIndex(state) {
    if (!table || state.method === null) return -1;
    const exact = table.methods.findIndex((m) => methodKey(m) === state.method);
    if (exact >= 0 || !state.method.endsWith('\u0000')) return exact;
    // A method chosen by its name alone (a timeline box's: overloads share one): the first
    // row of that name.
    const name = state.method.slice(0, -1);
    return table.methods.findIndex((m) => m.name === name);
  }

  async function load(state) {
    stale = false;
    const thread = state.thread;
    const view = tableViewJson(state.view);
    rows.say('Loading…');
    document.body.dataset.methods = 'loading';
    let loaded;
    try {
      loaded = await products.methods(thread, view);
    } catch (error) {
      rows.say(error.message);
      document.body.dataset.methods = 'error';
      return;
    }
    const now = store.get();
    if (now.thread !== thread || now.summary !== state.summary || now.range !== state.range ||
      tableViewJson(now.view) !== view) return;
    table = loaded;
    renderRows(now);
    // What waits on the table (tests, the browser bench) waits on this.
    document.body.dataset.methods = 'ready';
  }

  function renderRows(state) {
    const summary = state.summary;
    // Percentages are of the whole the core names (a thread's time; for all threads, the
    // trace's duration on the wall clock, all threads' time on the CPU clock).
    const whole = table.wholes && table.wholes[state.clock];
    const total = whole ? whole.value : state.clock === 'cpu' ? table.total_cpu_us : table.total_wall_us;
    const noun = frameNoun(summary, false);
    rows.show(state, {
      columns: columns(state.clock, summary, total),
      rows: table.methods,
      selected: selectedIndex(state),
      noun,
      about: unitOf(summary, state.clock) === 'us'
        ? 'Times in µs; inclusive time counts a recursive ' + frameNoun(summary, false) + ' once.'
        : 'Values in ' + unitSymbol(unitOf(summary, state.clock)) + '; inclusive counts a recursive ' + frameNoun(summary, false) + ' once.',
    });
    const t = state.thread < 0 ? null : summary.threads[state.thread];
    const steps = state.view.transforms.length;
    $('method-scope').textContent = (t ? threadLabel(t) : 'All threads') + (state.range ? ' in ' + rangeText(state.range) : '') +
      (steps ? ', as the view above shows it (' + count(steps) + (steps === 1 ? ' step' : ' steps') + ')' : '') +
      ': ' + countText(table.methods.length, noun) +
      ', ' + amount(state.clock === 'cpu' ? table.total_cpu_us : table.total_wall_us, unitOf(summary, state.clock)) + ' of ' +
      clockWords(state.clock, summary) + '. Percentages are of ' + (whole ? whole.of + ' (' + amount(whole.value, unitOf(summary, state.clock)) + ')' : 'the total') +
      (!t && state.clock === 'wall' && unitOf(summary, 'wall') === 'us' ? '; threads run side by side, so a method\'s can pass 100%.' : '.');
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
    rows.select(index);
    // What waits on the detail (tests) waits on `shown`: its slowest calls are listed last.
    document.body.dataset.methodDetail = index < 0 ? 'none' : 'loading';
    if (index < 0) return;
    const m = table.methods[index];
    const noun = frameNoun(state.summary, false);
    // Another method's detail starts at its top, not where the last one was scrolled to.
    if (box.dataset.method !== String(index)) box.scrollTop = 0;
    box.dataset.method = String(index);
    $('method-detail-name').textContent = m.name;
    $('method-detail-facts').textContent = [m.signature, m.source ? 'in ' + m.source : null,
      m.calls === null ? null : countedNoun(m.calls, state.summary) + (m.recursive_calls ? ' (' + count(m.recursive_calls) + ' recursive)' : ''),
      'inclusive ' + amount(m['incl_' + state.clock + '_us'], unitOf(state.summary, state.clock))].filter(Boolean).join(' · ');
    for (const label of document.querySelectorAll('.relative-count')) label.textContent = countHeading(state.summary);
    for (const label of document.querySelectorAll('.relative-time')) label.textContent = 'Inclusive ' + unitSymbol(unitOf(state.summary, state.clock)) + ' (' + clockWords(state.clock, state.summary) + ')';
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
      if (store.get().method === state.method) document.body.dataset.methodDetail = 'shown';
      return;
    }
    const now = store.get();
    if (now.method !== state.method || now.thread !== state.thread || now.summary !== state.summary) return;
    target.replaceChildren();
    // Where the trace has scheduler states, each call's time in them.
    const withStates = calls.some((call) => stateTimesLine(call.states));
    $('slowest-states-heading').hidden = !withStates;
    calls.forEach((call, i) => {
      const thread = now.summary.threads[call.thread];
      target.append(element('tr', { 'data-call': String(i), title: 'Show this call in the timeline' },
        element('td', { class: 'name', text: threadLabel(thread) }),
        element('td', { class: 'n', text: timeText(call.start_us) }),
        element('td', { class: 'n', text: call.wall_us === null ? '—' : timeText(call.wall_us) }),
        element('td', { class: 'n', text: call.cpu_us === null ? '—' : timeText(call.cpu_us) }),
        withStates ? element('td', { class: 'states', text: stateTimesLine(call.states) || '—' }) : null));
    });
    if (calls.length === 0) target.append(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: 'No calls kept' })));
    // Where short calls were left out, fewer than asked may be all there is to list.
    const facts = calls.length < SLOWEST ? await products.timeline() : null;
    if (facts && facts.left_out && store.get().method === state.method) {
      target.append(element('tr', {}, element('td', { colspan: '4', class: 'muted', text: facts.left_out })));
    }
    slowest = calls;
    settle(target, 'tr[data-call]');
    if (store.get().method === state.method) document.body.dataset.methodDetail = 'shown';
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) table = null;
    const visible = state.tab === 'methods';
    const viewChanged = previous && previous.view && tableViewJson(state.view) !== tableViewJson(previous.view);
    if (changed(state, previous, 'summary', 'thread', 'range') || viewChanged) {
      stale = true;
      if (visible) load(state);
      return;
    }
    if (visible && (stale || !table)) {
      load(state);
      return;
    }
    if (!table) return;
    if (changed(state, previous, 'clock')) renderRows(state);
    else if (changed(state, previous, 'method')) renderDetail(state);
  });
}
