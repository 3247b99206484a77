// What the trace is: the facts line, the notes (every repair and warning, as the core
// words them), and the Trace tab (format, repairs, limits and header, as the summary has
// them). Nothing here interprets a field: names and sentences come from the core.

import { $, element } from '../shared/dom.js';
import { count, millis } from '../shared/format.js';
import { changed } from '../shared/state.js';

/** Threads of execution in a summary: its async tracks left out. */
export function threadCount(summary) {
  return summary.threads.filter((t) => !t.track).length;
}

/** The one-line facts about a trace, from the summary. */
export function factsLine(summary) {
  const f = summary.format;
  const threads = threadCount(summary);
  // A heap profile's values are bytes on no clock, its stacks are processes', and it has
  // no records in time.
  const bytes = Object.values(summary.units || {}).every((u) => u === 'bytes');
  const [one, many] = summary.heap_dump ? [' heap', ' heaps'] : summary.count === 'allocations' ? [' process', ' processes'] : [' thread', ' threads'];
  return [
    f.description,
    bytes ? null : 'clock ' + f.clock,
    f.vm ? 'VM ' + f.vm : null,
    summary.pid !== null && summary.pid !== undefined ? 'pid ' + summary.pid : null,
    summary.elapsed_us !== null && summary.elapsed_us !== undefined ? 'elapsed ' + millis(summary.elapsed_us) : null,
    summary.records || !bytes ? count(summary.records) + ' records' : null,
    threads + (threads === 1 ? one : many),
    f.sampling_interval_us ? 'sampled every ~' + millis(f.sampling_interval_us) : null,
  ].filter(Boolean).join(' · ');
}

/** A summary value as text: lists joined, objects (the clock words) as `key: value` pairs. */
function valueText(value) {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return Object.entries(value).map(([k, v]) => k + ': ' + valueText(v)).join(', ');
  return String(value);
}

/** Rows of the Trace tab: `[group, key, value]`, every value as text. */
export function traceRows(summary) {
  const rows = [];
  const add = (group, object) => {
    for (const [key, value] of Object.entries(object || {})) {
      rows.push([group, key, valueText(value)]);
    }
  };
  add('format', summary.format);
  rows.push(['', 'records', String(summary.records)]);
  add('repairs', summary.repairs);
  add('limits', summary.limits);
  add('header', summary.header);
  return rows;
}

function renderNotes(summary) {
  const box = $('warnings');
  const list = $('notes-list');
  const notes = summary.notes || [];
  list.replaceChildren(...notes.map((note) => element('li', { 'data-key': note.key, text: note.text })));
  box.hidden = notes.length === 0;
  $('notes-summary').textContent = notes.length === 1 ? '1 note on this trace' : notes.length + ' notes on this trace';
  // A long list starts folded to its first lines; the summary line opens it.
  box.open = notes.length <= 4;
  box.classList.toggle('many', notes.length > 4);
}

function renderTraceTab(summary) {
  const body = $('trace-rows');
  body.replaceChildren();
  let group = null;
  for (const [g, key, value] of traceRows(summary)) {
    if (g !== group && g) body.append(element('tr', { class: 'group' }, element('th', { colspan: '2', scope: 'rowgroup', text: g })));
    group = g;
    body.append(element('tr', {}, element('th', { scope: 'row', text: g && g !== 'header' ? g + '.' + key : key }), element('td', { text: value })));
  }
}

export function createFacts({ store }) {
  store.subscribe((state, previous) => {
    if (state.phase !== 'done' || !changed(state, previous, 'summary')) return;
    $('file-name').textContent = state.name;
    $('facts').textContent = factsLine(state.summary);
    renderNotes(state.summary);
    renderTraceTab(state.summary);
  });
}
