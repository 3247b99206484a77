// The comparison's tables and words as data, for the compare view: the columns of the
// methods' before/after/delta table and their order, a change in words, the two traces'
// facts side by side, and the graph's legend. No DOM here.

import { amount, clockWords, count, countHeading, frameTitle, millis, unitOf, unitSymbol } from '../shared/format.js';
import { threadCount } from '../trace/facts.js';

/** Rows shown at most; the filter reaches the others. */
export const DELTA_LIMIT = 500;

const delta = (kind) => (r) => r.after[kind] - r.before[kind];

/**
 * The change from `before` to `after` as a number to sort by: the ratio of the change to
 * before; a method before never called sorts as an infinite growth.
 */
export function changeRatio(row, kind) {
  const before = row.before[kind];
  const after = row.after[kind];
  if (before > 0) return (after - before) / before;
  return after > 0 ? Infinity : 0;
}

/** `+12.5%`, `−3.0%`, `new` (never called before) or `—` (no time before to compare with). */
export function changeText(row, kind) {
  if (row.before.calls === 0) return 'new';
  if (!(row.before[kind] > 0)) return '—';
  const p = changeRatio(row, kind) * 100;
  return (p > 0 ? '+' : p < 0 ? '−' : '') + Math.abs(p).toFixed(1) + '%';
}

/** A signed µs delta with separators: `+1,200`, `−35`, `0`. */
export function deltaText(value) {
  if (value === 0) return '0';
  return (value > 0 ? '+' : '−') + count(Math.abs(value));
}

/**
 * The methods table's columns (sort-table.js), under their groups (Calls, Inclusive,
 * Exclusive); the first is named for the frames of `summary`'s trace. `wide`: only in wide
 * windows. Exclusive comes last, so that its hidden columns leave the other groups'
 * headings where they are.
 */
export function deltaColumns(summary, unit = 'us') {
  const column = (id, group, label, value, kind, more) => Object.assign({
    id, group, label, value, kind, unit,
    className: 'n' + (more && more.wide ? ' wide' : ''),
    cell: (r) => cellText(columnOf[id], r),
    title: (r) => cellTitle(columnOf[id], r),
    tone: (r) => tone(columnOf[id], r),
    hint: kind === 'delta' || kind === 'change' ? 'Largest growth first; again for largest shrink first' : null,
  }, more);
  const calls = countHeading(summary);
  const columns = [
    { id: 'name', label: frameTitle(summary), value: (r) => r.name, text: true },
    column('calls-before', calls, 'before', (r) => r.before.calls, 'count'),
    column('calls-after', calls, 'after', (r) => r.after.calls, 'count'),
    column('incl-before', 'Inclusive', 'before', (r) => r.before.incl_us, 'time'),
    column('incl-after', 'Inclusive', 'after', (r) => r.after.incl_us, 'time'),
    column('incl-delta', 'Inclusive', 'Δ', delta('incl_us'), 'delta'),
    column('incl-change', 'Inclusive', 'change', (r) => changeRatio(r, 'incl_us'), 'change', { of: 'incl_us' }),
    column('excl-before', 'Exclusive', 'before', (r) => r.before.excl_us, 'time', { wide: true }),
    column('excl-after', 'Exclusive', 'after', (r) => r.after.excl_us, 'time', { wide: true }),
    column('excl-delta', 'Exclusive', 'Δ', delta('excl_us'), 'delta'),
    column('excl-change', 'Exclusive', 'change', (r) => changeRatio(r, 'excl_us'), 'change', { of: 'excl_us' }),
  ];
  const columnOf = Object.fromEntries(columns.map((c) => [c.id, c]));
  return columns;
}

/** Growth red, shrinkage blue (`grew`, `shrank`); a change with nothing before to compare with stays plain. */
function tone(column, row) {
  const value = column.value(row);
  const signed = column.kind === 'delta' || (column.kind === 'change' && cellText(column, row) !== '—');
  return signed ? (value > 0 ? 'grew' : value < 0 ? 'shrank' : '') : '';
}

/** A signed value in the unit that reads best: `+1.2 ms`, `−35 µs`, `+12 KB`, `0`. */
export function deltaDuration(value, unit = 'us') {
  if (value === 0) return '0';
  return (value > 0 ? '+' : '−') + amount(Math.abs(value), unit);
}

/** A cell's text; times in the unit that reads best (its title has them in µs). */
export function cellText(column, row) {
  const value = column.value(row);
  switch (column.kind) {
    case 'delta': return deltaDuration(value, column.unit);
    case 'change': return changeText(row, column.of);
    case 'time': return amount(value, column.unit);
    default: return column.text ? value : count(value);
  }
}

/** A cell's exact value for its title: times in µs; null for the others. */
export function cellTitle(column, row) {
  if (column.kind === 'time') return count(column.value(row)) + ' ' + unitSymbol(column.unit || 'us');
  if (column.kind === 'delta') return deltaText(column.value(row)) + ' ' + unitSymbol(column.unit || 'us');
  return null;
}

/** `{head, rows}`: the two traces' facts side by side, a row for each trace under one head. */
export function sideBySide(before, after, names) {
  // Two heap dumps: their objects, bytes and heaps; no clock, no time, no records.
  const dumps = Boolean(before.heap_dump && after.heap_dump);
  const facts = [
    ['File', (s, i) => names[i]],
    ['Format', (s) => s.format.description],
    ...(dumps ? [
      ['Reachable objects', (s) => count(s.heap_dump.objects)],
      ['Reachable bytes', (s) => amount(s.heap_dump.bytes, 'bytes')],
      ['Heaps', (s) => count(s.heap_dump.heaps.filter((h) => h.objects > 0).length)],
    ] : [
      ['Clock', (s) => s.format.clock],
      ['Elapsed', (s) => (s.elapsed_us === null || s.elapsed_us === undefined ? '—' : millis(s.elapsed_us))],
      ['Records', (s) => count(s.records)],
      ['Threads', (s) => count(threadCount(s))],
    ]),
    [frameTitle(before, true), (s) => count(s.methods.length)],
    ['Notes', (s) => count((s.notes || []).length)],
  ];
  return {
    head: facts.map(([label]) => label),
    rows: [before, after].map((summary, i) => facts.map(([, of]) => String(of(summary, i)))),
  };
}

/**
 * What the compared clock measures, as the core words it in each trace's summary (the
 * comparison's own facts do not say): one phrase where both agree, else each side's.
 */
export function compareClockWords(state) {
  const clock = state.compare.facts.clock;
  const [before, after] = [state.summary, state.compare.summary].map((summary) => clockWords(clock, summary));
  return before === after ? before : before + ' (before), ' + after + ' (after)';
}

/** What the graph shows, in words: which side sets the widths, what the colours mean. */
export function legendText(state) {
  const width = state.compareWidths;
  const other = width === 'after' ? 'before' : 'after';
  const scope = state.compareThread ? 'Thread ' + state.compareThread : 'All threads, each under its name';
  const scaled = state.compareNormalize ? ' (' + other + ' scaled to the same total)' : '';
  // Time, or what else the stacks count (bytes, samples), as the core words it above.
  const what = unitOf(state.summary, state.compare.facts.clock) === 'us' ? 'time' : 'value';
  const measure = state.compareColour === 'total'
    ? 'a frame\'s total ' + what + ' (itself and what it calls)'
    : 'a frame\'s own (self) ' + what;
  const [gone, fresh] = state.summary.heap_dump ? ['Classes that are gone show', 'Classes that are new show'] : ['Code that is gone shows', 'Code that is new shows'];
  const missing = width === 'after' ? gone + ' with widths: before.' : fresh + ' with widths: after.';
  return scope + ', ' + compareClockWords(state) + '. Widths: ' + width + '. Colour: how ' + measure + ' changed from before to after' + scaled +
    ', deeper the larger a share of the whole graph the change is (deepest from 5% of it): red grew, blue shrank; grey under 0.1% of the whole or within ±5% of the frame\'s own' +
    (state.compareChanged ? ', and faded' : '') + '. ' + missing;
}
