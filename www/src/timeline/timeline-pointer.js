// The timeline's pointer and keys: the wheel and W/S/A/D zoom and pan, a drag selects a
// range, a click chooses a call (or a frame, or opens more counters), a right click, the
// Menu key or Shift+F10 opens a call's frame menu, and where the pointer rests a tooltip
// says what is there: a call, a frame, a thread's state, a CPU or counter, or a gap.

import { $ } from '../shared/dom.js';
import { isMenuKey } from '../shared/list-keys.js';
import { stateTipLines } from '../shared/thread-states.js';
import { panView, timeText, zoomView } from '../shared/timespan.js';
import { AXIS } from './timeline-canvas.js';
import { clockLine } from './timeline-call.js';

/**
 * Wires the pointer and keys of the timeline's canvas. `parts`: its `scene` and `paper`
 * (timeline-canvas.js), `frameLanes`, `system`, the call `panel`, `viewOf()` (the view's
 * transforms as the timeline takes them), `setView(window)` and `refetch()` (the window's
 * boxes asked for again).
 */
export function wireTimelinePointer(canvas, store, products, parts) {
  const { scene, paper, frameLanes, system, panel, viewOf, setView, refetch } = parts;
  const tip = $('timeline-tip');
  let hoverTimer = 0;
  let hovers = 0; // pointer rests answered or being answered: an older answer is dropped

  // A frame (`{frame}`, its index) or a thread's state strip (`{strip: lane, at}`) under a
  // point, if any.
  function markAt(px, py) {
    const index = frameLanes.at(paper.timeAt(px), py);
    if (index >= 0) return { frame: index };
    const lane = scene.lanes.find((l) => l.strip && py >= l.strip.top - 1 && py < l.strip.top + l.strip.height + 1);
    if (lane) return { strip: lane, at: paper.timeAt(px) };
    const systemLane = system.hit(py);
    return systemLane ? { system: systemLane, at: paper.timeAt(px) } : null;
  }

  // The lane and depth under a point, if any.
  function hit(px, py) {
    for (const lane of scene.lanes) {
      const depth = Math.floor((py - lane.top) / lane.rowHeight);
      if (depth >= 0 && depth < lane.depths) return { lane, depth, at: paper.timeAt(px) };
    }
    return null;
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
    const gap = (scene.facts.gaps || []).find(([from, to]) => at >= from && at <= to);
    if (gap) {
      tip.replaceChildren();
      line('Nothing recorded', 'tip-name');
      line(timeText(gap[0]) + ' – ' + timeText(gap[1]) + ': the trace lost every event here');
    } else if (markAt(px, event.clientY - rect.top)) {
      const mark = markAt(px, event.clientY - rect.top);
      const lines = mark.frame !== undefined
        ? frameLanes.tip(mark.frame)
        : mark.system ? await system.tip(mark.system, mark.at, store.get().summary)
          : await products.stateAt(mark.strip.thread, mark.at).then((s) => (s ? stateTipLines(s) : null));
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
    tip.style.top = (event.clientY - rect.top + 16) + 'px';
  }

  canvas.addEventListener('wheel', (event) => {
    const { view, facts } = scene;
    if (!view) return;
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const sideways = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (sideways) {
      setView(panView(view, (event.deltaX || event.deltaY) / paper.width(), facts.length_us));
    } else {
      const factor = Math.pow(1.0015, event.deltaY);
      setView(zoomView(view, factor, (event.clientX - rect.left) / paper.width(), facts.length_us));
    }
  }, { passive: false });

  canvas.addEventListener('keydown', (event) => {
    const { view, facts } = scene;
    if (!view) return;
    const keys = {
      '+': () => zoomView(view, 0.5, 0.5, facts.length_us),
      '=': () => zoomView(view, 0.5, 0.5, facts.length_us),
      w: () => zoomView(view, 0.5, 0.5, facts.length_us),
      '-': () => zoomView(view, 2, 0.5, facts.length_us),
      s: () => zoomView(view, 2, 0.5, facts.length_us),
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
    const move = keys[event.key];
    if (!move || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    setView(move());
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
  });
  window.addEventListener('mouseup', () => {
    if (!scene.drag) return;
    const { x0, x1, y0 } = scene.drag;
    scene.drag = null;
    if (Math.abs(x1 - x0) < 4) {
      // A click on a frame: graphs and tables cover it.
      const mark = markAt(x0, y0);
      if (mark && mark.system && mark.system.toggle) {
        system.toggleCounters();
        paper.layout(store.get());
        paper.draw();
        refetch();
        return;
      }
      if (mark && mark.frame !== undefined) {
        store.update(frameLanes.patch(store.get().summary, mark.frame));
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
  window.addEventListener('resize', () => {
    if (!scene.view || store.get().tab !== 'timeline') return;
    paper.layout(store.get());
    paper.draw();
    refetch();
  });
}
