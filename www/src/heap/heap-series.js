// Growth over a series of dumps: the dump on show, then dumps the user chooses (taken after
// it, one after each repetition of a scenario), read one at a time by the worker and each
// reduced to its counts before the next; the classes and paths whose count grows at every
// step are listed, with how much each step adds.

import { $, element } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { bytes } from './heap-tables.js';

/** Rows listed at most in each table: the most bytes added per step first. */
const SERIES_LIMIT = 100;

/** Files in the order they were most likely taken: by name, numbers by their value. */
export function inTakenOrder(files) {
  return [...files].sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
}

/** `12 → 14 → 16`. */
export function steps(values, show = count) {
  return values.map(show).join(' → ');
}

/** What the note says of a growth answer. */
export function growthNote(growth) {
  const order = (growth.reordered ? 'Dumps in the order taken, as each records: ' : 'Dumps in order: ') + growth.dumps.join(', ') + '. ';
  if (growth.classes_total === 0 && growth.paths_total === 0) {
    return order + 'Nothing grows at every step: no class or path keeps gaining objects.';
  }
  const counted = (n, one, many) => count(n) + ' ' + (n === 1 ? one : many);
  return order + counted(growth.classes_total, 'class grows', 'classes grow') + ' and '
    + counted(growth.paths_total, 'path grows', 'paths grow') + ' at every step'
    + (growth.classes_total > SERIES_LIMIT || growth.paths_total > SERIES_LIMIT ? ' (the ' + count(SERIES_LIMIT) + ' that add the most are listed).' : '.');
}

export function createHeapSeries({ store, products }) {
  // Bumped by every series started, and by another trace: an older answer is dropped.
  let run = 0;

  // A path reads as its heap, then its classes down from the GC root.
  function row(r, path) {
    return element('tr', {},
      element('td', { class: 'name', text: path ? r.name.split(';').join(' › ') : r.name }),
      element('td', { class: 'n', text: steps(r.counts) }),
      element('td', { class: 'n grew', text: '+' + count(Math.round(r.objects_per_step)) }),
      element('td', { class: 'n grew', text: (r.bytes_per_step < 0 ? '−' : '+') + bytes(Math.abs(Math.round(r.bytes_per_step))) }));
  }

  async function read(files) {
    const mine = ++run;
    const state = store.get();
    const ordered = inTakenOrder(files);
    $('heap-series-tables').hidden = true;
    $('heap-series-note').textContent = 'Reading ' + count(ordered.length) + ' dumps…';
    try {
      const growth = await products.heapSeries(state.name, ordered, (done, total) => {
        if (mine === run) $('heap-series-note').textContent = 'Reading the dumps… ' + Math.floor(100 * done / Math.max(total, 1)) + '%';
      }, SERIES_LIMIT);
      if (mine !== run) return;
      $('heap-series-note').textContent = growthNote(growth);
      $('heap-series-classes').replaceChildren(...growth.classes.map((r) => row(r, false)));
      $('heap-series-paths').replaceChildren(...growth.paths.map((r) => row(r, true)));
      $('heap-series-tables').hidden = growth.classes.length === 0 && growth.paths.length === 0;
    } catch (error) {
      if (mine === run) $('heap-series-note').textContent = 'The series could not be read: ' + error.message;
    }
  }

  $('heap-series-open').addEventListener('click', () => $('heap-series-picker').click());
  $('heap-series-picker').addEventListener('change', (event) => {
    const files = Array.from(event.target.files || []);
    event.target.value = '';
    if (files.length < 2) {
      $('heap-series-note').textContent = 'Choose two dumps or more taken after this one: a series needs three dumps in all.';
      return;
    }
    read(files);
  });

  // Another dump on show: its own series, none yet.
  return function reset() {
    run++;
    $('heap-series-tables').hidden = true;
    $('heap-series-note').textContent = 'Repeat a scenario (open and close a screen, say) and dump the heap after each time: '
      + 'what grows at every step is what leaks. Choose two dumps or more taken after this one.';
  };
}
