// The timeline's pointer and keys: the wheel and W/S/A/D zoom and pan, a drag selects a
// range, a click chooses a call (or a frame; on a thread's name, pins or unpins it; on a
// process's heading, opens or closes its group), a right click, the Menu key or Shift+F10
// opens a call's frame menu, and where the pointer rests a tooltip says what is there: a
// call, a frame, a thread's state or samples, a CPU or counter, or a gap.

import { $ } from '../shared/dom.js';
import { isMenuKey } from '../shared/list-keys.js';
import { stateTipLines } from '../shared/thread-states.js';
import { panView, timeText, zoomView } from '../shared/timespan.js';
import { AXIS } from './timeline-canvas.js';
import { clockLine } from './timeline-call.js';
import { counterTip, cpuTip } from './timeline-system.js';
import { groupKey, partAt, trackAt } from './track-layout.js';

// px the Up and Down keys scroll the tracks by.
const KEY_SCROLL = 40;

/**
 * Wires the pointer and keys of the timeline's canvas. `parts`: its `scene` and `paper`
 * (timeline-canvas.js), `frameLanes`, the call `panel`, `viewOf()` (the view's transforms
 * as the timeline takes them), `setView(window)` and `refetch()` (the window's data asked
 * for again).
 */
export function wireTimelinePointer(canvas, store, products, parts) {
  const { scene, paper, frameLanes, panel, viewOf, setView, refetch } = parts;
  const tip = $('timeline-tip');
  let hoverTimer = 0;
  let hovers = 0; // pointer rests answered or being answered: an older answer is dropped

  // What is under a point: a frame (`{frame}`, its index), or a track's part (`{track,
  // part, depth?, cpu?, at}`, track-layout.js' `partAt`), or null. The header (axis and
  // frame lanes) stays put; the tracks under it scroll.
  function pointAt(px, py) {
    const at = paper.timeAt(px);
    if (py < scene.header) {
      const index = frameLanes.at(at, py);
      return index >= 0 ? { frame: index } : null;
    }
    const y = paper.contentY(py);
    const track = trackAt(scene.layout.tracks, y);
    const part = partAt(track, y);
    return part ? { track, ...part, at } : null;
  }

  // A mark under a point (what a tooltip of its own describes): a frame, a strip, sample
  // ticks, a CPU, a counter, a thread's name or a group's heading.
  function markAt(px, py) {
    const found = pointAt(px, py);
    return found && found.part !== 'rows' ? found : null;
  }

  // The call under a point, if any: its track (a thread the source shown has), depth and time.
  function hit(px, py) {
    const found = pointAt(px, py);
    return found && found.part === 'rows' && found.track.thread !== null
      ? { lane: found.track, depth: found.depth + found.track.skip, at: found.at } : null;
  }

  // The hover lines of a mark.
  async function markTip(mark) {
    if (mark.frame !== undefined) return frameLanes.tip(mark.frame);
    const { track, part, at } = mark;
    if (part === 'group') return [track.label, (track.open ? 'click: close' : 'click: open') + ' this group'];
    if (part === 'head') {
      const deeper = track.allDepths > track.depths ? ' · click: show all ' + track.allDepths + ' depths'
        : store.get().timelineDeep ? ' · click: show fewer depths' : '';
      return [track.label, track.chosen ? 'the thread chosen: graphs and tables show it' + deeper
        : track.pinned ? 'click: unpin it' : 'click: pin it to the top'];
    }
    if (part === 'cpu') return cpuTip(products, mark.cpu, at);
    if (part === 'counter') return counterTip(products, track.counter, at, store.get().summary);
    if (part === 'strip') return products.threadStateAt(track.tid, at).then((s) => (s ? stateTipLines(s) : null));
    if (part === 'marks') return sampleTip(track, at);
    return null;
  }

  // The samples within a few pixels of `at`, and the states their thread was in.
  async function sampleTip(track, at) {
    const span = (4 * (scene.view.to - scene.view.from)) / paper.width();
    const found = await products.samplesInStates(track.tid, at - span, at + span);
    if (!found || found.total === 0) return ['No CPU sample here', 'ticks mark ' + track.label + '\'s samples'];
    const states = found.states.map((s) => s.words + ' ' + s.count);
    if (found.unknown > 0) states.push('state unknown ' + found.unknown);
    return [found.total + (found.total === 1 ? ' CPU sample' : ' CPU samples') + ' of ' + track.label,
      'from ' + timeText(at - span, span / 4) + ' to ' + timeText(at + span, span / 4), 'taken while ' + states.join(' · '), 'click: the nearest sample\'s stack'];
  }

  // The tooltip for where the pointer rests; `body[data-timeline-hovered]` then counts it,
  // for what waits on the answer (a call, a gap or nothing).
  async function hover(event) {
    const mine = ++hovers;
    await showTip(event, mine);
    if (mine === hovers) document.body.dataset.timelineHovered = String(mine);
  }

  async function showTip(event, mine) {
    const rect = canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const line = (text, cls) => {
      const p = document.createElement('div');
      if (cls) p.className = cls;
      p.textContent = text;
      tip.append(p);
    };
    const at = paper.timeAt(px);
    // The frame under the pointer is outlined with the frames linked to it.
    const under = markAt(px, event.clientY - rect.top);
    if (frameLanes.hover(under && under.frame !== undefined ? under.frame : -1)) paper.draw();
    const gap = (scene.facts.gaps || []).find(([from, to]) => at >= from && at <= to);
    if (gap) {
      tip.replaceChildren();
      line('Nothing recorded', 'tip-name');
      line(timeText(gap[0]) + ' – ' + timeText(gap[1]) + ': the trace lost every event here');
    } else if (markAt(px, event.clientY - rect.top)) {
      const mark = markAt(px, event.clientY - rect.top);
      const lines = await markTip(mark);
      if (mine !== hovers) return;
      if (!lines) {
        tip.hidden = true;
        return;
      }
      tip.replaceChildren();
      lines.forEach((text, i) => line(text, i === 0 ? 'tip-name' : ''));
      if (mark.frame !== undefined) line('click: graphs and tables cover this frame', 'muted');
      document.body.dataset.timelineHover = lines[0];
    } else {
      const found = hit(px, event.clientY - rect.top);
      const call = found && await products.callAt(found.lane.thread, found.depth, found.at, viewOf());
      if (mine !== hovers) return;
      if (!call) {
        tip.hidden = true;
        return;
      }
      tip.replaceChildren();
      line(call.name, 'tip-name');
      line('starts at ' + timeText(call.start_us) + ' · depth ' + call.depth);
      // Each clock the trace has, in the core's words.
      const summary = store.get().summary;
      line(clockLine(call, summary));
      document.body.dataset.timelineHover = call.name;
    }
    tip.hidden = false;
    const left = Math.min(event.clientX - rect.left + 14, paper.width() - tip.offsetWidth - 4);
    tip.style.left = Math.max(0, left) + 'px';
    // The tip sits in the pane's content, which has scrolled by the pane's scroll; below
    // the pointer, or above it where the window ends before the tip would.
    const below = event.clientY + 16 + tip.offsetHeight <= window.innerHeight - 4;
    const y = below ? event.clientY - rect.top + 16 : Math.max(-rect.top, event.clientY - rect.top - 12 - tip.offsetHeight);
    tip.style.top = (y + paper.scroll()) + 'px';
  }

  // The wheel scrolls the tracks, as a page's would; Ctrl (or ⌘) with it, or a trackpad's
  // pinch, zooms around the pointer; Shift with it, or a sideways swipe, pans. Where there is
  // nothing to scroll, the plain wheel says how to zoom.
  canvas.addEventListener('wheel', (event) => {
    const { view, facts } = scene;
    if (!view) return;
    const rect = canvas.getBoundingClientRect();
    const sideways = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (sideways) {
      event.preventDefault();
      setView(panView(view, (event.deltaX || event.deltaY) / paper.width(), facts.length_us));
    } else if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      const factor = Math.pow(1.0015, event.deltaY);
      setView(zoomView(view, factor, (event.clientX - rect.left) / paper.width(), facts.length_us));
    } else if (canvas.parentElement.scrollHeight <= canvas.parentElement.clientHeight) {
      $('timeline-detail').textContent = 'Ctrl+wheel or W/S zooms';
    }
  }, { passive: false });

  // Where the pointer is over the canvas, as a share of its width: W and S zoom around it.
  let pointerShare = 0.5;
  canvas.addEventListener('mousemove', (event) => {
    pointerShare = Math.min(Math.max((event.clientX - canvas.getBoundingClientRect().left) / paper.width(), 0), 1);
  });
  canvas.addEventListener('mouseleave', () => { pointerShare = 0.5; });

  // The keys zoom and pan wherever the keyboard is on the timeline's tab but in a field.
  function timelineKeys(event) {
    const { view, facts } = scene;
    if (!view) return;
    const at = pointerShare;
    const keys = {
      '+': () => zoomView(view, 0.5, at, facts.length_us),
      '=': () => zoomView(view, 0.5, at, facts.length_us),
      w: () => zoomView(view, 0.5, at, facts.length_us),
      '-': () => zoomView(view, 2, at, facts.length_us),
      s: () => zoomView(view, 2, at, facts.length_us),
      ArrowLeft: () => panView(view, -0.2, facts.length_us),
      a: () => panView(view, -0.2, facts.length_us),
      ArrowRight: () => panView(view, 0.2, facts.length_us),
      d: () => panView(view, 0.2, facts.length_us),
      '0': () => ({ from: 0, to: facts.length_us }),
      Home: () => ({ from: 0, to: facts.length_us }),
    };
    if (event.key === 'Escape' && store.get().range) {
      event.preventDefault();
      store.update({ range: null, frame: -1 });
      return;
    }
    // Up and Down scroll the tracks, as the wheel does.
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      canvas.parentElement.scrollBy(0, event.key === 'ArrowUp' ? -KEY_SCROLL : KEY_SCROLL);
      return;
    }
    const move = keys[event.key];
    if (!move || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    setView(move());
  }
  canvas.addEventListener('keydown', timelineKeys);
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (store.get().tab !== 'timeline' || target === canvas || event.defaultPrevented) return;
    // Not in a field, a list or a menu, which have keys of their own.
    if (target.closest && target.closest('input, textarea, select, [contenteditable], [role=menu], table, tr')) return;
    if (target !== document.body && !(target.closest && target.closest('#tab-timeline'))) return;
    timelineKeys(event);
  });

  canvas.addEventListener('mousedown', (event) => {
    if (!scene.view || event.button !== 0) return;
    const rect = canvas.getBoundingClientRect();
    scene.drag = { x0: event.clientX - rect.left, x1: event.clientX - rect.left, y0: event.clientY - rect.top };
    // Focus without scrolling: a click's point is where it was pressed.
    canvas.focus({ preventScroll: true });
  });
  window.addEventListener('mousemove', (event) => {
    if (scene.drag) {
      scene.drag.x1 = Math.min(Math.max(event.clientX - canvas.getBoundingClientRect().left, 0), paper.width());
      paper.draw();
      return;
    }
    if (event.target !== canvas || !scene.view) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => hover(event), 30);
  });
  // The frame menu of the call under a right click, or (Menu key, Shift+F10) of the
  // call shown in detail.
  canvas.addEventListener('contextmenu', (event) => {
    if (!scene.view) return;
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const found = hit(event.clientX - rect.left, event.clientY - rect.top);
    if (found) panel.menuAt({ thread: found.lane.thread, depth: found.depth, at: found.at }, event.clientX, event.clientY, canvas);
  });
  canvas.addEventListener('keydown', (event) => {
    if (!isMenuKey(event) || !store.get().focus) return;
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    panel.menuAtFocus(rect.left + 20, rect.top + AXIS + 20, canvas);
  });
  canvas.addEventListener('mouseleave', () => {
    clearTimeout(hoverTimer);
    tip.hidden = true;
    if (frameLanes.hover(-1)) paper.draw();
  });
  window.addEventListener('mouseup', () => {
    if (!scene.drag) return;
    const { x0, x1, y0 } = scene.drag;
    scene.drag = null;
    if (Math.abs(x1 - x0) < 4) {
      // A click on a frame: graphs and tables cover it. On a group's heading: it opens or
      // closes. On a thread's name: it is pinned or unpinned.
      const mark = markAt(x0, y0);
      if (mark && mark.part === 'group') {
        const key = mark.track.counters ? groupKey(null) + '-counters' : groupKey(mark.track.pid);
        store.update({ timelineGroups: { ...store.get().timelineGroups, [key]: !mark.track.open } });
        return;
      }
      if (mark && mark.part === 'head' && mark.track.chosen) {
        if (mark.track.allDepths > mark.track.depths || store.get().timelineDeep) store.update({ timelineDeep: !store.get().timelineDeep });
        return;
      }
      if (mark && mark.part === 'head' && !mark.track.chosen) {
        const pins = store.get().pins || [];
        store.update({ pins: mark.track.pinned ? pins.filter((tid) => tid !== mark.track.tid) : [...pins, mark.track.tid] });
        return;
      }
      if (mark && mark.frame !== undefined) {
        store.update(frameLanes.patch(store.get().summary, mark.frame));
        return;
      }
      // A click on a sample tick: the sample nearest it, with its stack.
      if (mark && mark.part === 'marks') {
        const span = (4 * (scene.view.to - scene.view.from)) / paper.width();
        products.sampleAt(mark.track.tid, mark.at - span, mark.at + span).then((sample) => sample && panel.showSample(sample, mark.track));
        return;
      }
      // A click on a state strip: that state in detail, with who woke the thread.
      if (mark && mark.part === 'strip') {
        products.threadStateAt(mark.track.tid, mark.at).then((state) => state && panel.showState(state, mark.track));
        return;
      }
      // A click: the call there, in detail.
      const found = hit(x0, y0);
      panel.show(found && { thread: found.lane.thread, depth: found.depth, at: found.at });
      paper.draw();
      return;
    }
    if (scene.facts.left_out) {
      // Without every call a range would count only the long ones: the note says why.
      $('timeline-note').classList.add('flash');
      paper.draw();
      return;
    }
    store.update({ range: { from: paper.timeAt(Math.min(x0, x1)), to: paper.timeAt(Math.max(x0, x1)) }, frame: -1 });
  });
  $('timeline-whole').addEventListener('click', () => scene.view && setView({ from: 0, to: scene.facts.length_us }));
}
