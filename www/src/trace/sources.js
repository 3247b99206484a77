// The source switch: which of the trace's kinds of stack data every view shows (calls,
// CPU samples, a heap profile), and for a heap profile, which dump. Its words are the
// core's descriptions; choosing asks the page to show another source (`onPick`).

import { $, element } from '../shared/dom.js';
import { millis } from '../shared/format.js';
import { changed } from '../shared/state.js';

/** The dump choices: `Dump 2 of 3, at 1.2 s`. */
export function dumpOptions(dumps) {
  if (!dumps || dumps.count < 2) return [];
  const when = (at) => (at === 0 ? 'at the start' : 'at ' + millis(at));
  return dumps.times_us.map((at, i) => ({ value: String(i), text: 'Dump ' + (i + 1) + ' of ' + dumps.count + ', ' + when(at) }));
}

/** Whether the source shown is a heap profile, as the summary says of it. */
export function showsHeap(summary) {
  const shown = summary && (summary.sources || []).find((s) => s.name === summary.source);
  return Boolean(shown && shown.heap);
}

/** Whether the source shown has calls in time: a heap profile's dumps have none. */
export function hasTimeline(summary) {
  return !showsHeap(summary);
}

/** Whether the switch has anything to offer: another source, or another dump. */
export function offersChoice(summary) {
  return Boolean(summary && ((summary.sources || []).length > 1 || dumpOptions(summary.dumps).length > 0));
}

export function createSourceSwitch(store, onPick) {
  const select = $('source');
  const dump = $('dump');
  select.addEventListener('change', () => onPick(select.value, null));
  dump.addEventListener('change', () => onPick(store.get().summary.source, Number(dump.value)));

  store.subscribe((state, previous) => {
    if (!changed(state, previous, 'summary', 'phase') || state.phase !== 'done') return;
    const summary = state.summary;
    $('tab-button-timeline').hidden = !hasTimeline(summary);
    if (!hasTimeline(summary) && state.tab === 'timeline') store.update({ tab: 'flame' });
    $('source-bar').hidden = !offersChoice(summary);
    if (!offersChoice(summary)) return;
    select.replaceChildren(...summary.sources.map((s) =>
      element('option', { value: s.name, text: s.description, selected: s.name === summary.source })));
    select.value = summary.source;
    const dumps = dumpOptions(summary.dumps);
    $('dump-box').hidden = !showsHeap(summary) || dumps.length === 0;
    dump.replaceChildren(...dumps.map((d) => element('option', { value: d.value, text: d.text })));
    if (summary.dumps) dump.value = String(summary.dumps.selected);
  });
}
