// The timeline: each call where and when it ran, time to the right. One thread as a flame
// chart, or every thread stacked in its own lane (as Traceview drew them). The worker
// answers with boxes already merged to the pixels of the window, so a draw costs the same
// however many calls the trace holds. Wheel and keys zoom and pan; a drag selects a range
// that the flame graph and the tables then cover. The view's transforms reach it: the
// worker draws, at each moment, the stack that ran there as the view makes it. A click
// shows that call's details (timeline-call.js); a right click, the Menu key or Shift+F10
// its frame menu.

import { $ } from '../shared/dom.js';
import { frameNameParts, threadLabel } from '../shared/format.js';
import { isMenuKey } from '../shared/list-keys.js';
import { changed } from '../shared/state.js';
import { clockLine, createCallPanel } from './timeline-call.js';
import { createDetailReader, showDetail } from './timeline-detail.js';
import { tableViewJson } from '../shared/transforms.js';
import { threadOrder } from '../trace/threads.js';
import {
  axisTicks, clampView, frameColour, labelColour, panView, timeText, zoomView,
} from '../shared/timespan.js';
import { createFrameLanes, drawStateStrip, legendItems } from './timeline-marks.js';
import { stateTipLines } from '../shared/thread-states.js';
import { createSystemLanes } from './timeline-system.js';

const AXIS = 22; // px: the time axis at the top
const ROW = 17; // px per depth when one thread is shown
const LANE_ROW = 5; // px per depth in a lane of "all threads"
const LANE_DEPTHS = 8; // depths drawn per lane of "all threads"
const LANE_HEAD = 15; // px: a lane's thread name
const MAX_DEPTHS = 256;
const STRIP = 8; // px: a thread's scheduler states, shown alone
const LANE_STRIP = 4; // px: the same in a lane of "all threads"

export function createTimeline({ store, products }) {
  const canvas = $('timeline-canvas');
  const tip = $('timeline-tip');
  const holder = canvas.parentElement;
  let facts = null; // {length_us, threads: [...], names: [...]}
  let made = []; // names the view's transforms make: box names past facts.names
  // The window drawn: the store's `timelineView` kept inside the trace (null before facts).
  let view = null;
  let lanes = []; // [{thread, top, rowHeight, depths, boxes, strip: {top, height} | null, states}]
  // App frames, a lane per layer, where the trace has them.
  const frameLanes = createFrameLanes();
  let fetching = false;
  let refetch = false;
  let drag = null; // {x0, x1}
  let hoverTimer = 0;
  let hovers = 0; // pointer rests answered or being answered: an older answer is dropped
  // Past the engine's call limit, one thread zoomed in has its short calls read again.
  const detail = createDetailReader(products, () => fetchBoxes());

  const dark = () => store.get().theme === 'dark';
  // The view as the timeline takes it: its transforms (a timeline is never bottom-up).
  const viewOf = () => tableViewJson(store.get().view);
  const nameOf = (id) => (id < facts.names.length ? facts.names[id] : made[id - facts.names.length]);
  const panel = createCallPanel(store, products, viewOf);
  // CPU lanes and counter tracks, in the all-threads view.
  const system = createSystemLanes(products);
  const width = () => Math.max(200, holder.clientWidth);

  function layoutLanes(state) {
    // All threads: in the thread list's order, those with calls.
    const shown = state.thread >= 0 ? [state.thread] : threadOrder(state.summary.threads).filter((i) => facts.threads[i].calls > 0);
    let top = frameLanes.layout(state.summary, state.thread, AXIS + 2);
    if (!frameLanes.shown()) top = AXIS;
    top = system.layout(facts, state.thread < 0, top);
    lanes = shown.map((thread) => {
      const single = state.thread >= 0;
      const depths = Math.min(facts.threads[thread].depths, single ? MAX_DEPTHS : LANE_DEPTHS);
      const head = top + (single ? 0 : LANE_HEAD);
      // The thread's scheduler states run over its calls.
      const strip = facts.threads[thread].states > 0 ? { top: head, height: single ? STRIP : LANE_STRIP } : null;
      const lane = { thread, top: head + (strip ? strip.height + 2 : 0), rowHeight: single ? ROW : LANE_ROW, depths, boxes: null, strip, states: null };
      top = lane.top + Math.max(depths, 1) * lane.rowHeight + (single ? 0 : 6);
      return lane;
    });
    // Where frame lanes and state strips are, for what reads the page (tests).
    canvas.dataset.layout = JSON.stringify({
      frames: frameLanes.positions(),
      strips: lanes.filter((l) => l.strip).map((l) => ({ thread: l.thread, top: l.strip.top, height: l.strip.height })),
      lanes: lanes.map((l) => ({ thread: l.thread, top: l.top, row: l.rowHeight })),
      system: system.positions(),
    });
    const height = Math.max(top + 8, 160);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width() * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width() + 'px';
    canvas.style.height = height + 'px';
  }

  // Boxes for every lane in the current window; one request round at a time, and one more
  // if the window moved meanwhile.
  async function fetchBoxes() {
    // Until the window on show is drawn with its own boxes, the page says so (tests and
    // benchmarks wait on `drawn`).
    document.body.dataset.timeline = 'drawing';
    if (fetching) {
      refetch = true;
      return;
    }
    fetching = true;
    const want = view;
    const summary = store.get().summary;
    const shown = viewOf();
    const status = detail.status(want, store.get().thread, width(), facts);
    try {
      const [answers, strips] = await Promise.all([
        Promise.all(lanes.map((lane) => products.boxes(lane.thread, want.from, want.to, width(), lane.depths, shown))),
        Promise.all(lanes.map((lane) => (lane.strip ? products.states(lane.thread, want.from, want.to, width()) : null))),
        system.fetch(want, width()),
      ]);
      if (store.get().summary !== summary) return;
      answers.forEach((answer, i) => {
        if (lanes[i]) Object.assign(lanes[i], { boxes: answer.boxes, states: strips[i] });
      });
      made = answers.length > 0 ? answers[0].made : [];
      $('timeline-empty').hidden = true;
      draw();
      // While reading, the progress shows instead.
      if (status.kind !== 'reading') showDetail(status);
      if (!refetch) document.body.dataset.timeline = 'drawn';
    } catch (error) {
      // A view the core refuses: the graph's error area says why; the timeline says so too.
      if (error.kind !== 'view') throw error;
      $('timeline-empty').textContent = error.message;
      $('timeline-empty').hidden = false;
      document.body.dataset.timeline = 'refused';
    } finally {
      fetching = false;
      if (refetch) {
        refetch = false;
        fetchBoxes();
      }
    }
  }

  // The width `draw` measured: read once a drawing, not once a box (each read of the
  // holder's width is a call into the DOM, and a frame draws 100,000s of boxes).
  let drawnWidth = 0;

  function x(us) {
    return ((us - view.from) / (view.to - view.from)) * drawnWidth;
  }

  function draw() {
    const state = store.get();
    const ctx = canvas.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    const w = width();
    drawnWidth = w;
    const h = canvas.height / ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(document.body);
    const colour = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    const palette = { ink: colour('--fg', '#222'), muted: colour('--muted', '#777'), panel: colour('--panel', '#f4f4f4') };
    ctx.fillStyle = colour('--bg', '#fff');
    ctx.fillRect(0, 0, w, h);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // Where a thread has no data (before its first event, after its last): hatched.
    for (const lane of lanes) {
      const t = facts.threads[lane.thread];
      const laneHeight = Math.max(lane.depths, 1) * lane.rowHeight;
      ctx.fillStyle = dark() ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.05)';
      if (t.first_us > view.from) ctx.fillRect(0, lane.top, Math.max(0, x(t.first_us)), laneHeight);
      if (t.last_us < view.to) ctx.fillRect(x(t.last_us), lane.top, w - x(t.last_us), laneHeight);
      const labelAt = lane.strip ? lane.strip.top : lane.top;
      if (state.thread < 0) {
        ctx.fillStyle = palette.muted;
        ctx.fillText(threadLabel(state.summary.threads[lane.thread]), 4, labelAt - LANE_HEAD / 2);
      }
      if (lane.strip) drawStateStrip(ctx, lane.strip, lane.states, facts.state_legend, x, w, dark());
      drawBoxes(ctx, lane, w);
    }
    frameLanes.draw(ctx, x, w, dark(), palette, state.frame);
    system.draw(ctx, x, w, dark(), palette, state.summary);
    drawGaps(ctx, w, h, palette);
    drawAxis(ctx, w, palette);
    drawSelection(ctx, h);
    canvas.dataset.from = String(view.from);
    canvas.dataset.theme = state.theme;
    canvas.dataset.to = String(view.to);
    $('timeline-span').textContent = timeText(view.from) + ' – ' + timeText(view.to) + ' of ' + timeText(facts.length_us);
  }

  // Each name's colour, made once per name and theme: a drawing sets 100,000s of boxes'.
  let colours = { dark: false, names: null, made: null, byId: [] };
  function colourOf(id, isDark) {
    if (colours.dark !== isDark || colours.names !== facts.names || colours.made !== made) {
      colours = { dark: isDark, names: facts.names, made, byId: [] };
    }
    if (id < 0) return isDark ? '#555' : '#bbb';
    return colours.byId[id] || (colours.byId[id] = frameColour(nameOf(id), isDark));
  }

  // Each name's label width, measured once per name (in the font the labels use).
  let labelWidths = { names: null, made: null, byId: [] };
  function labelWidth(ctx, id) {
    if (labelWidths.names !== facts.names || labelWidths.made !== made) labelWidths = { names: facts.names, made, byId: [] };
    if (labelWidths.byId[id] === undefined) labelWidths.byId[id] = ctx.measureText(nameOf(id)).width;
    return labelWidths.byId[id];
  }

  function drawBoxes(ctx, lane, w) {
    const boxes = lane.boxes;
    if (!boxes) return;
    // Boxes fetched for an older window are redrawn at the new scale until new ones come.
    const focus = store.get().focus;
    const isDark = dark();
    // The canvas parses each colour it is given: one set per run of boxes of one colour.
    let fill = '';
    for (let i = 0; i < boxes.length; i += 4) {
      const depth = boxes[i];
      const left = x(boxes[i + 1]);
      const right = x(boxes[i + 2]);
      if (right < 0 || left > w) continue;
      const y = lane.top + depth * lane.rowHeight;
      const bw = Math.max(right - left, 1);
      const colour = colourOf(boxes[i + 3], isDark);
      if (colour !== fill) ctx.fillStyle = fill = colour;
      // On whole pixels: a box edge between two is blended, at a cost a drawing pays per box.
      const from = Math.round(left);
      ctx.fillRect(from, y, Math.max(Math.round(right) - from, 1), lane.rowHeight - 1);
      const labelled = lane.rowHeight >= ROW && bw > 30 && boxes[i + 3] >= 0;
      if (focus && focus.thread === lane.thread && focus.depth === depth && Math.abs(boxes[i + 1] - focus.start_us) < 1e-6) {
        ctx.strokeStyle = '#1a73e8';
        ctx.lineWidth = 2;
        ctx.strokeRect(left + 1, y + 1, Math.max(bw - 2, 1), lane.rowHeight - 3);
      }
      if (labelled) {
        const name = nameOf(boxes[i + 3]);
        fill = '';
        ctx.fillStyle = labelColour(name, isDark);
        // Where the whole name does not fit, its end (class and method) says more than its
        // package's first letters.
        const text = bw - 6 >= labelWidth(ctx, boxes[i + 3]) ? name : frameNameParts(name).tail;
        ctx.save();
        ctx.beginPath();
        ctx.rect(Math.max(left, 0), y, Math.min(bw, w), lane.rowHeight);
        ctx.clip();
        ctx.fillText(text, Math.max(left, 0) + 3, y + lane.rowHeight / 2);
        ctx.restore();
      }
    }
  }

  // Where the trace lost every event: striped across all lanes, labelled where it fits.
  function drawGaps(ctx, w, h, palette) {
    for (const [from, to] of facts.gaps || []) {
      const left = Math.max(x(from), 0);
      const right = Math.min(x(to), w);
      if (right < 0 || left > w) continue;
      const gw = Math.max(right - left, 2);
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, AXIS, gw, h - AXIS);
      ctx.clip();
      ctx.fillStyle = palette.panel;
      ctx.fillRect(left, AXIS, gw, h - AXIS);
      ctx.strokeStyle = dark() ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.14)';
      ctx.lineWidth = 1;
      for (let sx = left - h; sx < left + gw; sx += 8) {
        ctx.beginPath();
        ctx.moveTo(sx, h);
        ctx.lineTo(sx + h, 0);
        ctx.stroke();
      }
      if (gw > 70) {
        ctx.fillStyle = palette.muted;
        ctx.fillText('nothing recorded', left + 4, AXIS + 8);
      }
      ctx.restore();
    }
  }

  function drawAxis(ctx, w, palette) {
    const { step, ticks } = axisTicks(view, Math.max(2, Math.floor(w / 110)));
    ctx.fillStyle = palette.panel;
    ctx.fillRect(0, 0, w, AXIS - 2);
    ctx.strokeStyle = palette.muted;
    ctx.fillStyle = palette.ink;
    ctx.lineWidth = 1;
    for (const t of ticks) {
      const tx = Math.round(x(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(tx, AXIS - 8);
      ctx.lineTo(tx, AXIS - 2);
      ctx.stroke();
      ctx.fillText(timeText(t, step), tx + 3, AXIS / 2 - 2);
    }
  }

  function drawSelection(ctx, h) {
    const range = drag ? { from: timeAt(Math.min(drag.x0, drag.x1)), to: timeAt(Math.max(drag.x0, drag.x1)) } : store.get().range;
    if (!range) return;
    const left = x(range.from);
    const right = x(range.to);
    ctx.fillStyle = 'rgba(26,115,232,0.16)';
    ctx.fillRect(left, 0, Math.max(right - left, 1), h);
    ctx.fillStyle = '#1a73e8';
    ctx.fillRect(left, 0, 1, h);
    ctx.fillRect(right - 1, 0, 1, h);
  }

  function timeAt(px) {
    return view.from + (px / width()) * (view.to - view.from);
  }

  const windowOf = (state) => clampView(state.timelineView || { from: 0, to: facts.length_us }, facts.length_us);

  // The window is the store's: its subscriber below draws it.
  function setView(next) {
    store.update({ timelineView: clampView(next, facts.length_us) });
  }

  // A frame (`{frame}`, its index) or a thread's state strip (`{strip: lane, at}`) under a
  // point, if any.
  function markAt(px, py) {
    const index = frameLanes.at(timeAt(px), py);
    if (index >= 0) return { frame: index };
    const lane = lanes.find((l) => l.strip && py >= l.strip.top - 1 && py < l.strip.top + l.strip.height + 1);
    if (lane) return { strip: lane, at: timeAt(px) };
    const systemLane = system.hit(py);
    return systemLane ? { system: systemLane, at: timeAt(px) } : null;
  }

  // The lane and depth under a point, if any.
  function hit(px, py) {
    for (const lane of lanes) {
      const depth = Math.floor((py - lane.top) / lane.rowHeight);
      if (depth >= 0 && depth < lane.depths) return { lane, depth, at: timeAt(px) };
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
    const at = timeAt(px);
    const gap = (facts.gaps || []).find(([from, to]) => at >= from && at <= to);
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
    const left = Math.min(event.clientX - rect.left + 14, width() - tip.offsetWidth - 4);
    tip.style.left = Math.max(0, left) + 'px';
    tip.style.top = (event.clientY - rect.top + 16) + 'px';
  }

  canvas.addEventListener('wheel', (event) => {
    if (!view) return;
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const sideways = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (sideways) {
      setView(panView(view, (event.deltaX || event.deltaY) / width(), facts.length_us));
    } else {
      const factor = Math.pow(1.0015, event.deltaY);
      setView(zoomView(view, factor, (event.clientX - rect.left) / width(), facts.length_us));
    }
  }, { passive: false });

  canvas.addEventListener('keydown', (event) => {
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
    if (!view || event.button !== 0) return;
    const rect = canvas.getBoundingClientRect();
    drag = { x0: event.clientX - rect.left, x1: event.clientX - rect.left, y0: event.clientY - rect.top };
    // Focus without scrolling: a click's point is where it was pressed.
    canvas.focus({ preventScroll: true });
  });
  window.addEventListener('mousemove', (event) => {
    if (drag) {
      drag.x1 = Math.min(Math.max(event.clientX - canvas.getBoundingClientRect().left, 0), width());
      draw();
      return;
    }
    if (event.target !== canvas || !view) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => hover(event), 30);
  });
  // The frame menu of the call under a right click, or (Menu key, Shift+F10) of the
  // call shown in detail.
  canvas.addEventListener('contextmenu', (event) => {
    if (!view) return;
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
  window.addEventListener('mouseup', (event) => {
    if (!drag) return;
    const { x0, x1, y0 } = drag;
    drag = null;
    if (Math.abs(x1 - x0) < 4) {
      // A click on a frame: graphs and tables cover it.
      const mark = markAt(x0, y0);
      if (mark && mark.system && mark.system.toggle) {
        system.toggleCounters();
        layoutLanes(store.get());
        draw();
        fetchBoxes();
        return;
      }
      if (mark && mark.frame !== undefined) {
        store.update(frameLanes.patch(store.get().summary, mark.frame));
        return;
      }
      // A click: the call there, in detail.
      const found = hit(x0, y0);
      panel.show(found && { thread: found.lane.thread, depth: found.depth, at: found.at });
      draw();
      return;
    }
    if (facts.left_out) {
      // Without every call a range would count only the long ones: the note says why.
      if (facts.left_out) $('timeline-note').classList.add('flash');
      draw();
      return;
    }
    store.update({ range: { from: timeAt(Math.min(x0, x1)), to: timeAt(Math.max(x0, x1)) }, frame: -1 });
  });
  $('timeline-whole').addEventListener('click', () => view && setView({ from: 0, to: facts.length_us }));
  window.addEventListener('resize', () => {
    if (!view || store.get().tab !== 'timeline') return;
    layoutLanes(store.get());
    draw();
    fetchBoxes();
  });

  // What the strips and frame lanes' colours say, where they are drawn.
  function showLegend(state) {
    const strips = lanes.some((l) => l.strip) || facts.threads.some((t) => t.states > 0);
    const items = legendItems(strips ? facts.state_legend : [], frameLanes.shown(), dark());
    $('timeline-legend').replaceChildren(...items);
    $('timeline-legend').hidden = items.length === 0;
  }

  async function show(state) {
    if (!facts) {
      document.body.dataset.timeline = 'loading';
      facts = await products.timeline();
      const data = facts.frames ? await products.frames() : null;
      if (store.get().summary !== state.summary) return;
      frameLanes.set(data, facts.length_us);
    }
    view = windowOf(store.get());
    showLegend(state);
    $('timeline-note').textContent = facts.left_out ? 'Note: ' + facts.left_out + '.' : '';
    $('timeline-note').hidden = !facts.left_out;
    $('timeline-range-keys').hidden = Boolean(facts.left_out);
    layoutLanes(state);
    if ((lanes.length === 0 && !frameLanes.shown() && !(state.thread < 0 && facts.cpus > 0)) || !facts.calls_kept) {
      $('timeline-empty').textContent = facts.calls_kept ? 'This trace has no calls to place in time.'
        : 'This trace has too many calls for the timeline; the notes above say more.';
      $('timeline-empty').hidden = false;
      document.body.dataset.timeline = 'empty';
      return;
    }
    $('timeline-empty').hidden = true;
    draw();
    fetchBoxes();
    panel.showFocus(state.focus).catch(() => {});
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done') return;
    if (changed(state, previous, 'summary')) {
      facts = null;
      frameLanes.set(null, 0);
      view = null;
      lanes = [];
      made = [];
      detail.reset();
    }
    if (state.tab !== 'timeline') return;
    if (changed(state, previous, 'summary', 'thread', 'tab', 'focus')) {
      show(state).catch((error) => {
        $('timeline-empty').hidden = false;
        $('timeline-empty').textContent = error.message;
      });
    } else if (changed(state, previous, 'timelineView') && view) {
      view = windowOf(state);
      draw();
      fetchBoxes();
    } else if (changed(state, previous, 'view') && view && viewOf() !== tableViewJson(previous.view)) {
      panel.show(null);
      fetchBoxes();
    } else if (changed(state, previous, 'range', 'theme', 'frame') && view) {
      if (changed(state, previous, 'theme')) showLegend(state);
      draw();
    }
  });
}
