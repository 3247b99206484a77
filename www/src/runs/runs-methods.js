// The runs screen's methods table: each method's medians over the runs before and after,
// the change as a ratio and as a shift with its interval, a strip of each side's spread
// (quartiles as a box, least to most as a line, the median a tick), the test's p- and
// q-values and the verdict, in the core's order (significant first, then changes every run
// shows, largest change first). A row opens its runs one by one beside it.

import { $, element } from '../shared/dom.js';
import { amount, count } from '../shared/format.js';
import { deltaDuration } from '../compare/compare-table.js';
import { medianChange, powerShortfall, probabilityText, ratioText, shortLabels, signedTime, smallestP, spreadPixels, verdictText, verdictWhy } from './run-groups.js';
import { createSortTable } from '../shared/sort-table.js';
import { changed } from '../shared/state.js';

const STRIP_WIDTH = 120;
// The false-discovery rate the table marks changes at.
const ALPHA = 0.05;
// SVG's namespace, as the HTML parser gives it: the page names no address, not even that one.
let svgNamespace = null;

function svgElement(tag, attributes) {
  if (!svgNamespace) {
    const probe = document.createElement('div');
    probe.innerHTML = '<svg></svg>';
    svgNamespace = probe.firstChild.namespaceURI;
  }
  const node = document.createElementNS(svgNamespace, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

/** One method's spread over both groups on one scale: before above, after below. */
function strip(row) {
  const pixels = spreadPixels(row, STRIP_WIDTH - 2);
  const svg = svgElement('svg', { width: STRIP_WIDTH, height: 18, viewBox: '0 0 ' + STRIP_WIDTH + ' 18', class: 'spread', role: 'img',
    'aria-label': 'Exclusive time over the runs: before ' + amount(row.before.excl_q1_us) + ' to ' + amount(row.before.excl_q3_us)
      + ', after ' + amount(row.after.excl_q1_us) + ' to ' + amount(row.after.excl_q3_us) + ' (middle half of the runs)' });
  [['before', 1], ['after', 10]].forEach(([side, y]) => {
    const p = pixels[side];
    svg.append(
      svgElement('line', { x1: p.min + 1, x2: p.max + 1, y1: y + 3.5, y2: y + 3.5, class: 'whisker ' + side }),
      svgElement('rect', { x: p.q1 + 1, y, width: Math.max(1, p.q3 - p.q1), height: 7, class: 'box ' + side }),
      svgElement('line', { x1: p.median + 1, x2: p.median + 1, y1: y - 1, y2: y + 8, class: 'median ' + side }));
  });
  return svg;
}

// A tenth of a ms at any size: medians 87 µs apart must not read as 20 ms and 21 ms.
const time = (v) => (Math.abs(v) >= 1e3 && Math.abs(v) < 1e6 ? (v / 1e3).toFixed(1) + ' ms' : amount(v));
// A change named (by the corrected test or by every run) in its colour.
const tone = (r) => (r.verdict === 'slower' ? 'grew' : r.verdict === 'faster' ? 'shrank' : '');

function columns() {
  const n = (id, group, label, value, cell, more) => Object.assign({ id, group, label, value, cell, className: 'n' }, more);
  // The conclusion first (the verdict and its size), then the medians it rests on; what
  // repeats them hides in narrower windows with its heading.
  const wide = { className: 'n wide', groupClass: 'wide' };
  return [
    { id: 'name', label: 'Method', value: (r) => r.name, text: true },
    { id: 'verdict', group: 'Own (exclusive) time', label: 'verdict', value: (r) => r.rank, cell: (r) => verdictText(r), className: 'verdict',
      title: (r) => verdictWhy(r), tone,
      hint: 'Significant changes first, then those every run shows, largest first' },
    n('ratio', 'Own (exclusive) time', 'ratio', (r) => r.ratio ?? Infinity, (r) => ratioText(r.ratio),
      { title: () => 'After\u2019s median over before\u2019s. The shift is the median of every after-less-before difference of the runs: the two can lean different ways where the runs overlap' }),
    n('excl-before', 'Own (exclusive) time', 'median before', (r) => r.before.excl_median_us, (r) => time(r.before.excl_median_us)),
    n('excl-after', 'Own (exclusive) time', 'after', (r) => r.after.excl_median_us, (r) => time(r.after.excl_median_us)),
    n('shift', 'Own (exclusive) time', 'shift (interval)', (r) => r.shift_us, (r) => signedTime(r.shift_us) + ' (' + signedTime(r.shift_low_us) + ' to ' + signedTime(r.shift_high_us) + ')',
      { className: 'n shift', title: (r) => 'Hodges-Lehmann shift of exclusive time, after less before, with its '
        + Math.floor(r.shift_confidence * 100) + '% interval' + (r.shift_confidence < 0.95 ? ' (the most these runs allow)' : '') }),
    n('excl-delta', 'Change of its median', 'Δ', (r) => r.after.excl_median_us - r.before.excl_median_us,
      (r) => deltaDuration(r.after.excl_median_us - r.before.excl_median_us),
      Object.assign({ tone }, wide)),
    n('excl-change', 'Change of its median', '%', (r) => medianChange(r) ?? 0, (r) => {
      const c = medianChange(r);
      return c === null ? (r.after.excl_median_us > 0 ? 'new' : '—') : (c > 0 ? '+' : c < 0 ? '−' : '') + Math.abs(c).toFixed(1) + '%';
    }, wide),
    { id: 'spread', label: 'Spread over the runs', value: (r) => r.after.excl_q3_us - r.after.excl_q1_us, render: strip, className: 'spread-cell',
      title: (r) => 'Middle half of the runs — before: ' + amount(r.before.excl_q1_us) + ' to ' + amount(r.before.excl_q3_us)
        + '; after: ' + amount(r.after.excl_q1_us) + ' to ' + amount(r.after.excl_q3_us) },
    n('incl-before', 'Inclusive, median', 'before', (r) => r.before.incl_median_us, (r) => time(r.before.incl_median_us), wide),
    n('incl-after', 'Inclusive, median', 'after', (r) => r.after.incl_median_us, (r) => time(r.after.incl_median_us), wide),
    n('p', 'Test', 'p', (r) => r.p_value, (r) => probabilityText(r.p_value),
      { title: () => 'Two-sided Mann-Whitney U test over the runs', ascending: true, hint: 'Smallest first' }),
    n('q', 'Test', 'q', (r) => r.q_value, (r) => probabilityText(r.q_value),
      { title: () => 'The p-value corrected for every method tested (Benjamini-Hochberg)', ascending: true, hint: 'Smallest first' }),
  ];
}

/** The runs of one method, one dot each on a shared scale, then as a table. */
function detail(row, runs, share) {
  const all = runs.before.concat(runs.after);
  const [low, high] = [Math.min(...all.map((r) => r.excl_us)), Math.max(...all.map((r) => r.excl_us))];
  const width = 300;
  const x = (v) => (high > low ? 6 + ((v - low) / (high - low)) * (width - 12) : width / 2);
  const plot = svgElement('svg', { width, height: 58, viewBox: '0 0 ' + width + ' 58', class: 'run-dots', role: 'img',
    'aria-label': 'Each run’s exclusive time, before above and after below, from ' + amount(low) + ' to ' + amount(high) });
  const label = (text, at, anchor) => {
    const t = svgElement('text', { x: at, y: 56, 'text-anchor': anchor, class: 'axis' });
    t.textContent = text;
    return t;
  };
  plot.append(label(amount(low), 0, 'start'), label(amount(high), width, 'end'));
  [['before', 10], ['after', 30]].forEach(([side, y]) => {
    for (const r of runs[side]) {
      const dot = svgElement('circle', { cx: x(r.excl_us), cy: y, r: 3.5, class: 'dot ' + side });
      const title = svgElement('title', {});
      title.textContent = r.label + ': ' + amount(r.excl_us);
      dot.append(title);
      plot.append(dot);
    }
  });
  // Runs by their paths from the folder all of them share.
  const labels = new Map(shortLabels(all.map((r) => r.label)).map((label, i) => [all[i], label]));
  const line = (r) => element('tr', {},
    element('th', { scope: 'row', class: 'name', text: labels.get(r), title: r.label }),
    element('td', { class: 'n', text: amount(r.excl_us) }),
    element('td', { class: 'n', text: amount(r.incl_us) }),
    element('td', { class: 'n', text: count(r.calls) }),
    element('td', { class: 'n', text: r.total_us ? ((r.excl_us * 100) / r.total_us).toFixed(2) + '%' : '—' }));
  return [
    element('div', { class: 'runs-detail-head' }, element('h4', { text: row.name + (row.signature ? ' ' + row.signature : '') }),
      element('button', { type: 'button', class: 'link', text: 'Close', title: 'Close the runs of this method (Escape)', 'data-close': '' })),
    element('p', { class: 'runs-verdict', text: verdictText(row).replace(/^./, (c) => c.toUpperCase()) + ', ' + ratioText(row.ratio)
      + ' · shift of own time ' + signedTime(row.shift_us) + ', ' + Math.floor(row.shift_confidence * 100) + '% interval ' + signedTime(row.shift_low_us) + ' to ' + signedTime(row.shift_high_us) }),
    element('p', { class: 'muted', text: verdictWhy(row)
      + ' p ' + probabilityText(row.p_value) + ', q ' + probabilityText(row.q_value) + (share ? ' (tested on shares of run time)' : '') }),
    plot,
    element('table', { class: 'grid runs-per-run' },
      element('thead', {}, element('tr', {}, ...['Run', 'Exclusive', 'Inclusive', 'Calls', 'Share'].map((text) => element('th', { scope: 'col', text })))),
      ...['before', 'after'].map((side) => element('tbody', {},
        element('tr', { class: 'side' }, element('th', { scope: 'rowgroup', colspan: '5', text: side === 'before' ? 'Before' : 'After' })),
        ...runs[side].map(line)))),
  ];
}

/** The line over the table: what changed, what was tested, and whether the runs could show a change at all. */
function aboutText(rows, state) {
  const methods = rows.length;
  const significant = rows.filter((r) => r.evidence === 'corrected test').length;
  const everyRun = rows.filter((r) => r.evidence === 'every run').length;
  const runs = state.runs.facts.runs;
  const before = runs.filter((r) => r.group === 'before').length;
  const after = runs.length - before;
  const short = significant === 0 ? powerShortfall(before, after, methods, ALPHA) : null;
  // Three runs a side give no 95% interval (their widest is 90%).
  const tooFew = Math.min(before, after) < 4;
  return count(significant) + ' of all ' + count(methods) + ' changed significantly (false-discovery rate 5%)'
    + (everyRun ? ', ' + count(everyRun) + ' more where every run moved' : '')
    + (state.runsShare ? ', tested on each run\u2019s share of its threads\u2019 time (the medians shown are times)' : '') + '. '
    + (short ? 'With ' + before + ' and ' + after + ' runs no p can be below ' + probabilityText(smallestP(before, after))
      + ', so among ' + count(methods) + ' methods a change that every run shows gets q ' + probabilityText(short.best)
      + ' at best (less where several change together): record ' + short.needed + ' runs a side or more for the corrected test'
      + (tooFew ? ', and 4 or more to name a change every run shows (fewer give no 95% interval). ' : '; until then a change every run shows is named as such. ') : '')
    + 'Verdicts test each method\u2019s own (exclusive) time: a caller that grew only through what it calls stays unchanged. '
    + 'Medians over the runs; a run that never called a method counts 0. Choose a row to see its runs.';
}

export function createRunsMethods(store, engine) {
  let rows = [];
  const table = createSortTable(store, {
    head: $('runs-method-head'),
    subhead: $('runs-method-subhead'),
    body: $('runs-method-rows'),
    filter: $('runs-filter'),
    note: $('runs-method-note'),
    sortKey: 'runsSort',
    filterKey: 'runsFilter',
    fallback: 'verdict',
    limit: 500,
    rowKey: 'method',
    activate: (index) => store.update({ runsMethod: rows[index].id }),
  });
  let loadedFor = null;

  async function load(state) {
    const id = [state.runs.facts, state.runsShare];
    loadedFor = id;
    table.say('Testing…');
    let found;
    try {
      found = await engine.runsMethods(ALPHA, state.runsShare);
    } catch (error) {
      table.say(error.message);
      return;
    }
    if (loadedFor !== id) return;
    // The core's order is the verdict column's: significant first, largest change first.
    rows = found.map((r, rank) => Object.assign({}, r, r.name, { rank }));
    const now = store.get();
    table.show(now, {
      columns: columns(),
      rows,
      selected: rows.findIndex((r) => r.id === now.runsMethod),
      noun: 'method',
      about: aboutText(rows, state),
    });
    document.body.dataset.runsMethods = String(rows.length);
  }

  // `reveal`: the method was just chosen, so its runs are brought into sight (not when the
  // table is made again for another clock or for shares).
  async function showDetail(state, reveal) {
    const aside = $('runs-detail');
    const row = rows.find((r) => r.id === state.runsMethod);
    table.select(rows.indexOf(row));
    if (!row) {
      aside.hidden = true;
      return;
    }
    const runs = await engine.runsMethodRuns(row.id);
    if (store.get().runsMethod !== row.id) return;
    aside.replaceChildren(...detail(row, runs, state.runsShare));
    aside.hidden = false;
    // Below the table in narrower windows: brought into sight.
    if (reveal && getComputedStyle(aside.parentElement).flexDirection === 'column') aside.scrollIntoView({ block: 'nearest' });
  }

  const closeDetail = () => store.update({ runsMethod: -1 });
  $('runs-detail').addEventListener('click', (event) => {
    if (event.target.closest('[data-close]')) closeDetail();
  });
  for (const id of ['runs-detail', 'runs-method-rows']) {
    $(id).addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && store.get().runsMethod !== -1) {
        event.preventDefault();
        closeDetail();
      }
    });
  }

  store.subscribe((state, previous) => {
    const r = state.runs;
    if (!r || r.phase !== 'done') {
      loadedFor = null;
      return;
    }
    if (!loadedFor || loadedFor[0] !== r.facts || loadedFor[1] !== state.runsShare) load(state).then(() => showDetail(store.get(), false));
    else if (changed(state, previous, 'runsMethod')) showDetail(state, true).catch(() => {});
  });
}
