// A call of the timeline in detail: chosen by a click, it shows its name, start, time on
// each clock, depth and the path from its thread's outermost frame (as the view shows it),
// and takes the person to it in the flame graph, the call tree or the methods table. Its
// frame menu (right click, Menu key, Shift+F10) adds a step to the view as any graph's
// does. Names are trace text: set only as text.

import { $, element } from '../shared/dom.js';
import { amount, clockWords, unitOf } from '../shared/format.js';
import { createFrameMenu } from '../flame/frame-menu.js';
import { methodKey } from '../shared/state.js';
import { chosenPatch, pathMenuItems } from '../shared/transforms.js';
import { timeText } from '../shared/timespan.js';
import { schedulingLine, stateTimesLine, stateTipLines } from '../shared/thread-states.js';

/** The step a call's start and end are written to: a hundredth of it, at least 1 µs. */
export function edgeStep(call) {
  return Math.max((call.end_us - call.start_us) / 100, 1);
}

/** A box's time on each clock the trace has, in the core's words ('—' where it has none). */
export function clockLine(call, summary) {
  return summary.format.clocks.map((clock) => {
    const us = call[clock + '_us'];
    const unit = unitOf(summary, clock);
    const words = clockWords(clock, summary);
    if (us === null || us === undefined) return words + ' —';
    if (unit === 'us') return words + ' ' + timeText(us);
    // A count of samples is no time, and says what it counts itself.
    if (unit === 'samples') return amount(us, unit) + (us === 1 ? ' sample' : ' samples') + (words === 'samples' ? '' : ' (' + words + ')');
    return words + ' ' + amount(us, unit);
  }).join(' · ');
}

/**
 * The panel under the timeline. `show({thread, depth, at})` shows the box there (null:
 * none) and makes it the store's `focus`; `menuAt(where, x, y, back)` opens the frame menu
 * of the box there at a point of the window, `menuAtFocus(x, y, back)` that of the box
 * shown (focus returns to `back`).
 * `viewOf()`: the view the timeline is drawn in, as the core's JSON.
 */
export function createCallPanel(store, products, viewOf) {
  const box = $('timeline-call');
  const menu = createFrameMenu();
  let shown = null; // the call on show
  let asked = 0; // an older answer is dropped

  async function callAt(where) {
    const mine = ++asked;
    const call = where && await products.callAt(where.thread, where.depth, where.at, viewOf());
    return mine === asked ? call : undefined;
  }

  function render(call) {
    shown = call;
    box.hidden = !call;
    document.body.dataset.timelineCall = call ? call.name : '';
    if (!call) return;
    const summary = store.get().summary;
    const pieceNote = summary.format.clocks.includes('cpu') && call.cpu_us === null
      ? element('p', { class: 'muted', text: 'The trace gives CPU time per call: this box is part of a call, or calls the view merged, so it has none of its own.' })
      : null;
    const path = element('ol', { class: 'call-path', 'aria-label': 'Path from the thread\'s outermost frame' },
      ...call.path.map((name) => element('li', { text: name })));
    const go = (label, patch) => {
      const button = element('button', { type: 'button', text: label });
      button.addEventListener('click', () => store.update(Object.assign({ thread: call.thread }, patch(call))));
      return button;
    };
    box.replaceChildren(
      element('h3', { class: 'call-name', text: call.name }),
      // Its ends to a hundredth of its length (at least a µs): 33.9796 s, not 34.0 s.
      element('p', { text: 'starts at ' + timeText(call.start_us, edgeStep(call)) + ' · ends at ' + timeText(call.end_us, edgeStep(call)) + ' · depth ' + call.depth }),
      element('p', { text: clockLine(call, summary) }),
      ...(stateTimesLine(call.states) ? [element('p', { class: 'call-states', text: 'Its thread was: ' + stateTimesLine(call.states) })] : []),
      ...(schedulingLine(call.scheduling) ? [element('p', { class: 'call-scheduling', text: schedulingLine(call.scheduling) })] : []),
      ...(pieceNote ? [pieceNote] : []),
      path,
      // A bottom-up graph's paths run from the leaves: there it only searches.
      element('div', { class: 'call-actions' },
        go('Show in flame graph', (c) => ({ tab: 'flame', search: c.name, graphPath: store.get().view.invert ? null : c.path })),
        go('Show in call tree', (c) => ({ tab: 'tree', treeFunction: c.name, treeSearch: c.name })),
        go('Show in methods', (c) => ({ tab: 'methods', methodFilter: c.name, method: methodKey({ name: c.name, signature: '' }) })),
        element('button', { type: 'button', class: 'link', text: 'Close', id: 'timeline-call-close' })),
    );
    $('timeline-call-close').addEventListener('click', () => {
      render(null);
      store.update({ focus: null });
    });
  }

  async function openMenu(call, x, y, back) {
    const libraries = await products.libraries(call.name);
    menu.open(call.name, pathMenuItems(call.path, { libraries }), x, y, {
      choose: (item) => {
        store.update(chosenPatch(store.get(), item));
        back.focus();
      },
      back: () => back.focus(),
    });
  }

  /**
   * A thread's scheduler state in detail (`state`: the core's, of thread `track`), with a
   * button that pins the thread that woke it, where the trace names one.
   */
  function showState(state, track) {
    asked++;
    shown = null;
    box.hidden = false;
    document.body.dataset.timelineCall = '';
    const [head, ...lines] = stateTipLines(state);
    const waker = state.waker && state.waker.tid > 0 ? state.waker : null;
    const pins = store.get().pins || [];
    const pin = element('button', {
      type: 'button', text: waker && pins.includes(waker.tid) ? 'Its waker is pinned' : 'Pin its waker',
      ...(waker && !pins.includes(waker.tid) ? {} : { disabled: '' }),
    });
    pin.addEventListener('click', () => {
      store.update({ pins: [...(store.get().pins || []), waker.tid] });
      pin.disabled = true;
      pin.textContent = 'Its waker is pinned';
    });
    box.replaceChildren(
      element('h3', { class: 'call-name', text: track.label + ': ' + head }),
      ...lines.map((text) => element('p', { text })),
      element('div', { class: 'call-actions' }, ...(waker ? [pin] : []),
        element('button', { type: 'button', class: 'link', text: 'Close', id: 'timeline-call-close' })),
    );
    document.body.dataset.timelineState = head;
    $('timeline-call-close').addEventListener('click', () => render(null));
  }

  /**
   * A CPU sample in detail (`sample`: the core's `sampleAt`, of thread `track`): when it was
   * taken and its stack, innermost frame first.
   */
  function showSample(sample, track) {
    asked++;
    shown = null;
    box.hidden = false;
    document.body.dataset.timelineCall = '';
    const others = sample.count > 1 ? ' (the nearest of ' + sample.count + ' here)' : '';
    box.replaceChildren(
      element('h3', { class: 'call-name', text: 'CPU sample of ' + track.label + ' at ' + timeText(sample.time_us, 10) + others }),
      element('ol', { class: 'sample-stack', 'aria-label': 'Its stack, innermost frame first' },
        ...[...sample.frames].reverse().map((f) => element('li', { text: f.name + (f.kernel ? ' (kernel)' : ''), title: f.name }))),
      element('div', { class: 'call-actions' },
        element('button', { type: 'button', class: 'link', text: 'Close', id: 'timeline-call-close' })),
    );
    document.body.dataset.timelineSample = String(sample.time_us);
    $('timeline-call-close').addEventListener('click', () => render(null));
  }

  return {
    showState,
    showSample,
    async show(where) {
      const call = await callAt(where);
      if (call === undefined) return;
      render(call);
      store.update({ focus: call ? { thread: call.thread, depth: call.depth, start_us: call.start_us, end_us: call.end_us } : null });
    },
    async menuAt(where, x, y, back) {
      const call = await callAt(where);
      if (call) openMenu(call, x, y, back);
    },
    menuAtFocus(x, y, back) {
      if (shown) openMenu(shown, x, y, back);
    },
    /**
     * Shows the store's `focus` (a call chosen elsewhere, or by a link), without changing
     * the store; nothing where it is null.
     */
    async showFocus(focus) {
      if (!focus) {
        if (shown) render(null);
        return;
      }
      if (shown && shown.thread === focus.thread && shown.depth === focus.depth && shown.start_us === focus.start_us) return;
      const call = await callAt({ thread: focus.thread, depth: focus.depth, at: (focus.start_us + focus.end_us) / 2 });
      if (call !== undefined) render(call);
    },
  };
}
