// Many runs put in two groups, and the numbers their table shows: pure logic, tested
// without a browser (runs.js and runs-methods.js draw it).

/** Word pairs that name the two sides of a change, before's word first. */
const SIDE_WORDS = [
  ['before', 'after'],
  ['baseline', 'candidate'],
  ['base', 'head'],
  ['old', 'new'],
  ['control', 'test'],
  ['main', 'branch'],
];

const words = (name) => name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/**
 * The groups file names suggest: `{groups: ['before' | 'after' | '', ...], why}`, where
 * `why` says what told them apart (`"before" and "after" in the names`), or null with every
 * group '' when nothing does. Names tell apart by a pair of words (`before`/`after`,
 * `base`/`head`, ...), else by the one place where the names hold exactly two values, each
 * in at least two files (`app-v1-03.trace`, `app-v2-03.trace`: `v1` before `v2`).
 */
export function proposeGroups(names) {
  const split = names.map(words);
  for (const [first, second] of SIDE_WORDS) {
    const groups = split.map((w) => (w.includes(first) && !w.includes(second) ? 'before'
      : w.includes(second) && !w.includes(first) ? 'after' : ''));
    if (groups.includes('before') && groups.includes('after')) {
      return { groups, why: '“' + first + '” and “' + second + '” in the names' };
    }
  }
  const longest = Math.max(0, ...split.map((w) => w.length));
  for (let at = 0; at < longest; at++) {
    const values = new Map();
    for (const w of split) values.set(w[at], (values.get(w[at]) || 0) + 1);
    if (values.size !== 2 || [...values.values()].some((n) => n < 2) || values.has(undefined)) continue;
    const [first, second] = [...values.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    return {
      groups: split.map((w) => (w[at] === first ? 'before' : 'after')),
      why: '“' + first + '” and “' + second + '” in the names',
    };
  }
  // Two folders of the same file names, their paths lost (a file picker gives names only):
  // each name came twice, the second named apart (`run1.trace (2)`). The first of each is
  // taken as before, in the order they came.
  const apart = / \(2\)$/;
  const plain = names.map((n) => n.replace(apart, ''));
  const seen = new Map();
  for (const n of plain) seen.set(n, (seen.get(n) || 0) + 1);
  if (names.length >= 4 && [...seen.values()].every((k) => k === 2) && names.filter((n) => apart.test(n)).length * 2 === names.length) {
    return {
      groups: names.map((n) => (apart.test(n) ? 'after' : 'before')),
      why: 'each name twice: the first of each before, the second (named “(2)”) after',
    };
  }
  return { groups: names.map(() => ''), why: null };
}

/** The group one name says by a side word of its own (`before-03.trace`: before), or ''. */
export function sideOf(name) {
  const w = words(name);
  for (const [first, second] of SIDE_WORDS) {
    if (w.includes(first) !== w.includes(second)) return w.includes(first) ? 'before' : 'after';
  }
  return '';
}

/** A run's name: its file's path from the folder chosen or dropped, else its file name. */
export const runName = (file) => file.webkitRelativePath || file.name;

/**
 * The runs of a later drop that `current` does not hold yet, each `{file, name, size, ...}`:
 * a file dropped again (same name, size and time) is left out; another file whose name is
 * taken is named apart (`run1.trace (2)`), so runs from two folders keep apart.
 */
export function newRuns(current, entries) {
  // By the file's own name: a run's may have been named apart.
  const same = (a, b) => runName(a.file) === runName(b.file) && a.size === b.size && a.file.lastModified === b.file.lastModified;
  const taken = new Set(current.map((e) => e.name));
  const added = [];
  for (const entry of entries) {
    if (current.some((c) => same(c, entry))) continue;
    let name = entry.name;
    for (let n = 2; taken.has(name); n++) name = entry.name + ' (' + n + ')';
    taken.add(name);
    added.push(Object.assign({}, entry, { name }));
  }
  return added;
}

/** Run labels without the folders all of them share (`runs/before/r1.trace`: `before/r1.trace`). */
export function shortLabels(labels) {
  const parts = labels.map((l) => l.split(/[\\/]/));
  let shared = 0;
  while (parts.length && parts.every((p) => p.length - 1 > shared && p[shared] === parts[0][shared])) shared++;
  return parts.map((p) => p.slice(shared).join('/'));
}

/**
 * Where each side's spread sits on a strip `width` pixels wide that spans both sides'
 * values, least to most with a little room at each end (the table gives the amounts; the
 * strip shows how the runs overlap): `{before, after}`, each `{min, q1, median, q3, max}`
 * in pixels. Sides with no spread at all sit in the middle.
 */
export function spreadPixels(row, width) {
  const sides = [row.before, row.after];
  const low = Math.min(...sides.map((s) => s.excl_min_us));
  const high = Math.max(...sides.map((s) => s.excl_max_us));
  const room = (high - low) * 0.05;
  const from = low - room;
  const span = high + room - from;
  const at = (v) => (span > 0 ? Math.round(((v - from) / span) * width * 10) / 10 : width / 2);
  const place = (s) => ({ min: at(s.excl_min_us), q1: at(s.excl_q1_us), median: at(s.excl_median_us), q3: at(s.excl_q3_us), max: at(s.excl_max_us) });
  return { before: place(row.before), after: place(row.after) };
}

/** A p- or q-value as a person reads it: `0.0123`, `< 0.0001`, `1`. */
export function probabilityText(p) {
  if (p >= 0.9995) return '1';
  if (p < 0.0001) return '< 0.0001';
  return p.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

/** The verdict in words: `slower`, `faster`, or `not significant`. */
export function verdictText(row) {
  if (row.verdict === 'unchanged') return 'unchanged';
  return row.verdict + (row.evidence === 'every run' ? ': every run' : ' (significant)');
}

/** What a verdict rests on, in a sentence. */
export function verdictWhy(row) {
  if (row.evidence === 'corrected test') return 'Significant after the correction for every method tested.';
  if (row.evidence === 'every run') {
    return 'Every run after is ' + row.verdict + ' than every run before, in time and in share of its run, and the shift\u2019s '
      + Math.floor(row.shift_confidence * 100) + '% interval leaves out 0; too few runs for the corrected test.';
  }
  if (row.evidence === 'share only') {
    return 'Its share of run time moved, but its time did not (the shift\u2019s interval holds 0): shares add up to a whole, so one method\u2019s growth moves every other\u2019s share.';
  }
  return row.every_run
    ? 'Every run moved, but the runs give no 95% interval or the medians differ by less than 5%.'
    : 'The runs overlap: no change they show.';
}

/** A signed duration with a true minus sign (`−559 µs`, `+1.4 ms`), a tenth of a ms at any size. */
export function signedTime(us) {
  const size = Math.abs(us);
  const text = size >= 1e3 && size < 1e6 ? (size / 1e3).toFixed(1) + ' ms' : size >= 1e6 ? (size / 1e6).toFixed(2) + ' s' : Math.round(size) + ' µs';
  return (us < 0 ? '\u2212' : us > 0 ? '+' : '') + text;
}

/** After's median over before's as a factor (`16.6×`, `0.91×`); `—` where before's is 0. */
export function ratioText(ratio) {
  if (ratio === null || ratio === undefined) return '—';
  return (ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)) + '×';
}

/** The change of exclusive medians in percent of before's, or null where before's is 0. */
export function medianChange(row) {
  const before = row.before.excl_median_us;
  return before > 0 ? ((row.after.excl_median_us - before) * 100) / before : null;
}

/**
 * The groups mapping files are proposed for: one file renames every run (`both`); two, one
 * group each, as their names tell (else the first before, the second after).
 */
export function proposeMappingGroups(names) {
  if (names.length === 1) return ['both'];
  const proposal = proposeGroups(names);
  const told = proposal.why && proposal.groups.includes('before') && proposal.groups.includes('after');
  return told ? proposal.groups : names.map((_, i) => (i === 0 ? 'before' : 'after'));
}

/** The mapping (of `{group}`s: `both`, `before`, `after` or '' for none) that renames `group`'s runs, or null. */
export function mappingOf(mappings, group) {
  return mappings.find((m) => m.group === group || m.group === 'both') || null;
}

/** What is wrong with the mappings' groups, in words, or '' when each group has at most one. */
export function mappingProblem(mappings) {
  for (const group of ['before', 'after']) {
    const named = mappings.filter((m) => m.group === group || m.group === 'both');
    if (named.length > 1) {
      return named.map((m) => m.name).join(' and ') + ' would both rename the runs ' + group + ' the change: choose one for each group.';
    }
  }
  return '';
}

/** The smallest two-sided p-value the exact Mann-Whitney test gives groups of `n` and `m` runs: 2 / C(n + m, n). */
export function smallestP(n, m) {
  let ways = 1;
  for (let i = 1; i <= n; i++) ways = (ways * (m + i)) / i;
  return Math.min(1, 2 / ways);
}

/**
 * Whether groups of `n` and `m` runs can show one changed method among `methods` at
 * false-discovery rate `alpha`: null when they can, else `{best, needed}`: the smallest q
 * such a method can get, and the runs a side that would do.
 */
export function powerShortfall(n, m, methods, alpha) {
  const best = Math.min(1, smallestP(n, m) * methods);
  if (best <= alpha) return null;
  let needed = Math.max(n, m);
  while (smallestP(needed, needed) * methods > alpha) needed++;
  return { best, needed };
}
