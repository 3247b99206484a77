// The timeline's canvas: where each lane goes (one thread as a flame chart, or every thread
// in its own lane, with frame lanes and system lanes above), and the painting of a window:
// the boxes the worker merged to its pixels, state strips, gaps, the axis and the range
// being dragged. It reads the timeline's scene (timeline.js) and draws nothing of its own.

import { $ } from '../shared/dom.js';
import { frameNameParts, threadLabel } from '../shared/format.js';
import { axisTicks, frameColour, labelColour, timeText } from '../shared/timespan.js';
import { threadOrder } from '../trace/threads.js';
import { drawStateStrip } from './timeline-marks.js';

export const AXIS = 22; // px: the time axis at the top
const ROW = 17; // px per depth when one thread is shown
const LANE_ROW = 5; // px per depth in a lane of "all threads"
const LANE_DEPTHS = 8; // depths drawn per lane of "all threads"
const LANE_HEAD = 15; // px: a lane's thread name
const MAX_DEPTHS = 256;
const STRIP = 8; // px: a thread's scheduler states, shown alone
const LANE_STRIP = 4; // px: the same in a lane of "all threads"

/**
 * The canvas of `scene` (`{facts, made, view, lanes, drag}`, timeline.js), with its frame
 * lanes and system lanes: `layout(state)` places the lanes and sizes the canvas, `draw()`
 * paints the window, `timeAt(px)` and `width()` measure it.
 */
export function createTimelineCanvas(canvas, store, scene, frameLanes, system) {
  const holder = canvas.parentElement;
  const dark = () => store.get().theme === 'dark';
  const width = () => Math.max(200, holder.clientWidth);
  const nameOf = (id) => (id < scene.facts.names.length ? scene.facts.names[id] : scene.made[id - scene.facts.names.length]);

  function layout(state) {
    const facts = scene.facts;
    // All threads: in the thread list's order, those with calls.
    const shown = state.thread >= 0 ? [state.thread] : threadOrder(state.summary.threads).filter((i) => facts.threads[i].calls > 0);
    let top = frameLanes.layout(state.summary, state.thread, AXIS + 2);
    if (!frameLanes.shown()) top = AXIS;
    top = system.layout(facts, state.thread < 0, top);
    scene.lanes = shown.map((thread) => {
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
      strips: scene.lanes.filter((l) => l.strip).map((l) => ({ thread: l.thread, top: l.strip.top, height: l.strip.height })),
      lanes: scene.lanes.map((l) => ({ thread: l.thread, top: l.top, row: l.rowHeight })),
      system: system.positions(),
    });
    const height = Math.max(top + 8, 160);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width() * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width() + 'px';
    canvas.style.height = height + 'px';
  }

  // The width `draw` measured: read once a drawing, not once a box (each read of the
  // holder's width is a call into the DOM, and a frame draws 100,000s of boxes).
  let drawnWidth = 0;

  function x(us) {
    return ((us - scene.view.from) / (scene.view.to - scene.view.from)) * drawnWidth;
  }

  function timeAt(px) {
    return scene.view.from + (px / width()) * (scene.view.to - scene.view.from);
  }

  function draw() {
    const state = store.get();
    const { facts, view } = scene;
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
    for (const lane of scene.lanes) {
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
    if (colours.dark !== isDark || colours.names !== scene.facts.names || colours.made !== scene.made) {
      colours = { dark: isDark, names: scene.facts.names, made: scene.made, byId: [] };
    }
    if (id < 0) return isDark ? '#555' : '#bbb';
    return colours.byId[id] || (colours.byId[id] = frameColour(nameOf(id), isDark));
  }

  // Each name's label width, measured once per name (in the font the labels use).
  let labelWidths = { names: null, made: null, byId: [] };
  function labelWidth(ctx, id) {
    if (labelWidths.names !== scene.facts.names || labelWidths.made !== scene.made) labelWidths = { names: scene.facts.names, made: scene.made, byId: [] };
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
    for (const [from, to] of scene.facts.gaps || []) {
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
    const { step, ticks } = axisTicks(scene.view, Math.max(2, Math.floor(w / 110)));
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
    const drag = scene.drag;
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

  return { layout, draw, timeAt, width };
}
