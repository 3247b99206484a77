// The comparison's tables and words as data, for the compare view: the columns of the
// methods' before/after/delta table and their order, a change in words, the two traces'
// facts side by side, and the graph's legend. No DOM here.

import { count, frameTitle, millis } from './format.js';
import { threadCount } from './facts.js';

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
 * The methods table's columns, under their groups (Calls, Inclusive, Exclusive); the
 * first is named for the frames of `summary`'s trace. `wide`: only in wide windows.
 * Exclusive comes last, so that its hidden columns leave the other groups' headings where
 * they are.
 */
export function deltaColumns(summary) {
  return [
    { id: 'name', label: frameTitle(summary), value: (r) => r.name, text: true },
    { id: 'calls-before', group: 'Calls', label: 'before', value: (r) => r.before.calls, kind: 'count' },
    { id: 'calls-after', group: 'Calls', label: 'after', value: (r) => r.after.calls, kind: 'count' },
    { id: 'incl-before', group: 'Inclusive', label: 'before', value: (r) => r.before.incl_us, kind: 'time' },
    { id: 'incl-after', group: 'Inclusive', label: 'after', value: (r) => r.after.incl_us, kind: 'time' },
    { id: 'incl-delta', group: 'Inclusive', label: 'Δ', value: delta('incl_us'), kind: 'delta' },
    { id: 'incl-change', group: 'Inclusive', label: 'change', value: (r) => changeRatio(r, 'incl_us'), kind: 'change', of: 'incl_us' },
    { id: 'excl-before', group: 'Exclusive', label: 'before', value: (r) => r.before.excl_us, kind: 'time', wide: true },
    { id: 'excl-after', group: 'Exclusive', label: 'after', value: (r) => r.after.excl_us, kind: 'time', wide: true },
    { id: 'excl-delta', group: 'Exclusive', label: 'Δ', value: delta('excl_us'), kind: 'delta' },
    { id: 'excl-change', group: 'Exclusive', label: 'change', value: (r) => changeRatio(r, 'excl_us'), kind: 'change', of: 'excl_us' },
  ];
}

/** The column groups in order: `[{group, span}]`. */
export function columnGroups(columns) {
  const groups = [];
  for (const c of columns) {
    if (!c.group) continue;
    const last = groups[groups.length - 1];
    if (last && last.group === c.group) last.span++;
    else groups.push({ group: c.group, span: 1 });
  }
  return groups;
}

/** A signed duration in the unit that reads best: `+1.2 ms`, `−35 µs`, `0`. */
export function deltaDuration(us) {
  if (us === 0) return '0';
  return (us > 0 ? '+' : '−') + millis(Math.abs(us));
}

/** A cell's text; times in the unit that reads best (its title has them in µs). */
export function cellText(column, row) {
  const value = column.value(row);
  switch (column.kind) {
    case 'delta': return deltaDuration(value);
    case 'change': return changeText(row, column.of);
    case 'time': return millis(value);
    default: return column.text ? value : count(value);
  }
}

/** A cell's exact value for its title: times in µs; null for the others. */
export function cellTitle(column, row) {
  if (column.kind === 'time') return count(column.value(row)) + ' µs';
  if (column.kind === 'delta') return deltaText(column.value(row)) + ' µs';
  return null;
}

/**
 * Indices of `rows` matching `filter` (name or signature), in the order of `sort`
 * (`{column, descending}`); equal values keep the core's order (largest change first).
 */
export function deltaOrder(rows, filter, sort, columns) {
  const text = filter.trim().toLowerCase();
  const column = columns.find((c) => c.id === sort.column) || columns[5];
  const sign = sort.descending ? -1 : 1;
  return rows.map((_, i) => i)
    .filter((i) => !text || rows[i].name.toLowerCase().includes(text) || rows[i].signature.toLowerCase().includes(text))
    .sort((a, b) => {
      const x = column.value(rows[a]);
      const y = column.value(rows[b]);
      if (column.text) return sign * String(x).localeCompare(String(y)) || a - b;
      if (x === y) return a - b;
      return sign * (x < y ? -1 : 1);
    });
}

/** `{head, rows}`: the two traces' facts side by side, a row for each trace under one head. */
export function sideBySide(before, after, names) {
  const facts = [
    ['File', (s, i) => names[i]],
    ['Format', (s) => s.format.description],
    ['Clock', (s) => s.format.clock],
    ['Elapsed', (s) => (s.elapsed_us === null || s.elapsed_us === undefined ? '—' : millis(s.elapsed_us))],
    ['Records', (s) => count(s.records)],
    ['Threads', (s) => count(threadCount(s))],
    [frameTitle(before, true), (s) => count(s.methods.length)],
    ['Notes', (s) => count((s.notes || []).length)],
  ];
  return {
    head: facts.map(([label]) => label),
    rows: [before, after].map((summary, i) => facts.map(([, of]) => String(of(summary, i)))),
  };
}

/** What the graph shows, in words: which side sets the widths, what the colours mean. */
export function legendText(state) {
  const width = state.compareWidths;
  const other = width === 'after' ? 'before' : 'after';
  const clock = state.compare.facts.clock === 'cpu' ? 'thread-CPU' : 'wall';
  const scope = state.compareThread ? 'Thread ' + state.compareThread : 'All threads, each under its name';
  const colours = state.compareNormalize
    ? ' as a share of its side\'s total (' + other + ' scaled to the same total)'
    : ' in µs';
  const missing = width === 'after' ? 'Code that is gone shows with widths: before.' : 'Code that is new shows with widths: after.';
  return scope + ', ' + clock + ' clock. Widths: ' + width + '. Red where a stack\'s own time grew from before to after, ' +
    'blue where it shrank,' + colours + '. ' + missing;
}
