// The timeline's canvas: as tall as its pane, it stays in view while the tracks under its
// header scroll (a spacer below it gives the pane their height). Its header, the time axis
// and the frame lanes, stays at the top; only the tracks in view are drawn: the boxes the
// worker merged to the window's pixels, state strips, sample ticks, CPUs and counters, the
// gaps and the range being dragged. It reads the timeline's scene (timeline.js) and draws
// nothing of its own.

import { $ } from '../shared/dom.js';
import { frameNameParts } from '../shared/format.js';
import { axisTicks, frameColour, labelColour, timeText } from '../shared/timespan.js';
import { drawStateStrip } from './timeline-marks.js';
import { counterLabel, drawCounter, drawCpus, ringedText } from './timeline-system.js';
import { AXIS, HEAD, ROW, layoutTracks, tracksIn } from './track-layout.js';

export { AXIS };

/**
 * The canvas of `scene` (`{facts, catalog, made, view, layout, data, header, drag}`,
 * timeline.js) with its frame lanes: `layout(state)` places the tracks, `draw()` paints the
 * window, `timeAt(px)`, `width()` and `scroll()` measure it, `shown()` gives the tracks in
 * view (with a screen's margin each way) and `contentY(py)` turns a point into a track's y.
 */
export function createTimelineCanvas(canvas, store, scene, frameLanes) {
  const holder = canvas.parentElement;
  const spacer = $('timeline-space');
  const dark = () => store.get().theme === 'dark';
  const width = () => Math.max(200, holder.clientWidth);
  const viewport = () => Math.max(160, holder.clientHeight);
  const scroll = () => holder.scrollTop;
  const nameOf = (id) => (id < scene.facts.names.length ? scene.facts.names[id] : scene.made[id - scene.facts.names.length]);

  function layout(state) {
    let header = frameLanes.layout(state.summary, state.thread, AXIS + 2);
    if (!frameLanes.shown()) header = AXIS;
    scene.header = header + 2;
    scene.layout = layoutTracks(scene.catalog, scene.facts, state, viewport() - scene.header);
    size();
  }

  // The canvas fills the pane; the spacer makes up the rest of the tracks' height.
  function size() {
    const ratio = window.devicePixelRatio || 1;
    const h = Math.min(viewport(), scene.header + scene.layout.height + 8);
    canvas.width = Math.round(width() * ratio);
    canvas.height = Math.round(h * ratio);
    canvas.style.width = width() + 'px';
    canvas.style.height = h + 'px';
    spacer.style.height = Math.max(0, scene.header + scene.layout.height + 8 - h) + 'px';
  }

  /** The tracks in view, and those a screen above and below (what is fetched). */
  function shown(margin = true) {
    const h = viewport() - scene.header;
    const extra = margin ? h : 0;
    return tracksIn(scene.layout.tracks, scroll() - extra, scroll() + h + extra);
  }

  const contentY = (py) => py - scene.header + scroll();

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
    const palette = { ink: colour('--fg', '#222'), muted: colour('--muted', '#777'), panel: colour('--panel', '#f4f4f4'), bg: colour('--bg', '#fff') };
    ctx.fillStyle = palette.bg;
    ctx.fillRect(0, 0, w, h);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // The tracks, under the header, moved up by the pane's scroll.
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, scene.header, w, h - scene.header);
    ctx.clip();
    ctx.translate(0, scene.header - scroll());
    const inView = shown(false);
    // Gaps first: the tracks' names and headings are drawn over their stripes.
    drawGaps(ctx, w, scroll(), scroll() + h, palette);
    for (const track of inView) drawTrack(ctx, track, w, palette, state);
    ctx.restore();
    // The header over everything: the frame lanes, then the axis.
    ctx.fillStyle = palette.bg;
    ctx.fillRect(0, 0, w, scene.header);
    frameLanes.draw(ctx, x, w, dark(), palette, state.frame);
    drawAxis(ctx, w, palette);
    ctx.fillStyle = palette.muted;
    ctx.fillRect(0, scene.header - 1, w, 1);
    drawSelection(ctx, h);
    canvas.dataset.from = String(view.from);
    canvas.dataset.theme = state.theme;
    canvas.dataset.to = String(view.to);
    canvas.dataset.layout = JSON.stringify(positions(inView));
    // Its ends to a hundredth of its width: a 16 ms window reads 32.5612–32.5772 s, not 32.6–32.6.
    const step = (view.to - view.from) / 100;
    $('timeline-span').textContent = timeText(view.from, step) + ' – ' + timeText(view.to, step) + ' of ' + timeText(facts.length_us);
  }

  // Where the header's lanes and the tracks in view are on the canvas, for what reads
  // the page (tests): tops in canvas pixels at the present scroll.
  function positions(inView) {
    const at = (y) => y + scene.header - scroll();
    const threads = inView.filter((t) => t.kind === 'thread');
    const cpus = inView.find((t) => t.kind === 'cpus');
    return {
      header: scene.header,
      frames: frameLanes.positions(),
      tracks: inView.map((t) => ({ key: t.key, kind: t.kind, top: at(t.top), height: t.height, ...(t.tid !== undefined ? { tid: t.tid, thread: t.thread } : {}) })),
      lanes: threads.filter((t) => t.depths > 0).map((t) => ({ thread: t.thread, tid: t.tid, top: at(t.rows), row: t.rowHeight, skip: t.skip })),
      strips: threads.filter((t) => t.strip).map((t) => ({ thread: t.thread, tid: t.tid, top: at(t.strip.top), height: t.strip.height })),
      marks: threads.filter((t) => t.marks).map((t) => ({ tid: t.tid, top: at(t.marks.top), height: t.marks.height })),
      system: {
        cpus: cpus ? Array.from({ length: cpus.cpus }, (_, i) => at(cpus.rows) + i * 12) : [],
        counters: inView.filter((t) => t.kind === 'counter').map((t) => ({ name: t.counter.name, top: at(t.top) })),
      },
    };
  }

  function drawTrack(ctx, track, w, palette, state) {
    const data = scene.data.get(track.key);
    if (track.kind === 'group') {
      ctx.fillStyle = palette.panel;
      ctx.fillRect(0, track.top, w, track.height - 1);
      ctx.fillStyle = palette.ink;
      const what = track.counters ? track.count + ' counters' : track.count + (track.count === 1 ? ' thread' : ' threads');
      ctx.fillText((track.open ? '▾ ' : '▸ ') + track.label + ' · ' + what, 4, track.top + track.height / 2);
      return;
    }
    if (track.kind === 'cpus') return drawCpus(ctx, track, data && data.cpus, x, w, dark(), palette);
    if (track.kind === 'counter') return drawCounter(ctx, track, data && data.steps, counterLabel(track.counter, state.summary), x, w, dark(), palette);
    // A thread: its name, its samples, its states, its calls.
    const rowsHeight = track.depths * track.rowHeight;
    ctx.fillStyle = dark() ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.05)';
    const hatchTop = track.top + HEAD;
    const hatchHeight = track.rows - hatchTop + rowsHeight;
    if (track.first_us > scene.view.from) ctx.fillRect(0, hatchTop, Math.max(0, x(track.first_us)), hatchHeight);
    if (track.last_us < scene.view.to) ctx.fillRect(x(track.last_us), hatchTop, w - x(track.last_us), hatchHeight);
    drawHead(ctx, track, w, palette);
    if (track.marks) drawMarks(ctx, track.marks, data && data.marks, w, palette);
    if (track.strip) drawStateStrip(ctx, track.strip, data && data.states, scene.facts.state_legend, x, w, dark());
    if (track.depths > 0) drawBoxes(ctx, track, data && data.boxes, w);
  }

  // A thread's name on its own row: bold where chosen, else with what a click on it does.
  function drawHead(ctx, track, w, palette) {
    ctx.fillStyle = palette.ink;
    ctx.font = (track.chosen ? '600 ' : '') + '11px system-ui, sans-serif';
    const shown = track.skip > 0 ? 'depths ' + (track.skip + 1) + '–' + (track.skip + track.depths) + ' of ' + track.allDepths + ' (outer ' + track.skip + ' shared by every stack left out)'
      : track.depths + ' of ' + track.allDepths + ' depths';
    const more = track.allDepths > track.depths && track.depths > 0 ? ' · ' + shown + (track.chosen ? ' · click for all' : '') : '';
    ringedText(ctx, track.label + more, 4, track.top + HEAD / 2, palette.bg);
    const labelEnd = 4 + ctx.measureText(track.label + more).width;
    ctx.font = '11px system-ui, sans-serif';
    // A click on the name row pins or unpins the thread (timeline-pointer.js).
    if (!track.chosen) {
      ctx.fillStyle = palette.muted;
      ringedText(ctx, track.pinned ? '✕ unpin' : 'pin to the top', labelEnd + 10, track.top + HEAD / 2, palette.bg);
    }
  }

  // CPU samples: a tick at each, in the ink colour, over a faint band.
  function drawMarks(ctx, band, marks, w, palette) {
    ctx.fillStyle = dark() ? 'rgba(255,255,255,0.05)' : 'rgba(0,0,0,0.04)';
    ctx.fillRect(0, band.top, w, band.height);
    if (!marks) return;
    ctx.fillStyle = palette.ink;
    for (let i = 0; i < marks.length; i += 3) {
      const left = x(marks[i]);
      const right = x(marks[i + 1]);
      if (right < 0 || left > w) continue;
      const from = Math.floor(left);
      ctx.fillRect(from, band.top, Math.max(Math.round(right) - from, 1), band.height);
    }
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

  function drawBoxes(ctx, track, boxes, w) {
    if (!boxes) return;
    // Boxes fetched for an older window are redrawn at the new scale until new ones come.
    const focus = store.get().focus;
    const isDark = dark();
    // The canvas parses each colour it is given: one set per run of boxes of one colour.
    let fill = '';
    for (let i = 0; i < boxes.length; i += 4) {
      // Rows from the first depth drawn (`skip`: outer frames every stack shares are not).
      const depth = boxes[i] - track.skip;
      if (depth < 0 || depth >= track.depths) continue;
      const left = x(boxes[i + 1]);
      const right = x(boxes[i + 2]);
      if (right < 0 || left > w) continue;
      const y = track.rows + depth * track.rowHeight;
      const bw = Math.max(right - left, 1);
      const colour = colourOf(boxes[i + 3], isDark);
      if (colour !== fill) ctx.fillStyle = fill = colour;
      // On whole pixels: a box edge between two is blended, at a cost a drawing pays per box.
      const from = Math.round(left);
      ctx.fillRect(from, y, Math.max(Math.round(right) - from, 1), track.rowHeight - 1);
      const labelled = track.rowHeight >= ROW && bw > 30 && boxes[i + 3] >= 0;
      if (focus && focus.thread === track.thread && focus.depth === boxes[i] && Math.abs(boxes[i + 1] - focus.start_us) < 1e-6) {
        ctx.strokeStyle = '#1a73e8';
        ctx.lineWidth = 2;
        ctx.strokeRect(left + 1, y + 1, Math.max(bw - 2, 1), track.rowHeight - 3);
      }
      if (labelled) {
        const name = nameOf(boxes[i + 3]);
        fill = '';
        ctx.fillStyle = labelColour(name, isDark);
        // Where the whole name does not fit: a Java name's class and method say more than its
        // package's first letters; any other keeps its start, cut with an ellipsis.
        const room = Math.min(bw, w) - 6;
        let text = name;
        if (room < labelWidth(ctx, boxes[i + 3])) {
          const parts = frameNameParts(name);
          text = fitText(ctx, parts.head.endsWith('.') ? parts.tail : name, room);
        }
        ctx.save();
        ctx.beginPath();
        ctx.rect(Math.max(left, 0), y, Math.min(bw, w), track.rowHeight);
        ctx.clip();
        ctx.fillText(text, Math.max(left, 0) + 3, y + track.rowHeight / 2);
        ctx.restore();
      }
    }
  }

  // `text`, or its start and an ellipsis, in `room` px (at least its first letter).
  function fitText(ctx, text, room) {
    if (ctx.measureText(text).width <= room) return text;
    let [short, long] = [1, text.length];
    while (long - short > 1) {
      const mid = (short + long) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '…').width <= room) short = mid;
      else long = mid;
    }
    return text.slice(0, short) + '…';
  }

  // Where the trace lost every event: striped across the tracks in view, labelled where it fits.
  function drawGaps(ctx, w, from, to, palette) {
    for (const [start, end] of scene.facts.gaps || []) {
      const left = Math.max(x(start), 0);
      const right = Math.min(x(end), w);
      if (right < 0 || left > w) continue;
      const gw = Math.max(right - left, 2);
      const h = to - from;
      ctx.save();
      ctx.beginPath();
      ctx.rect(left, from, gw, h);
      ctx.clip();
      ctx.fillStyle = palette.panel;
      ctx.fillRect(left, from, gw, h);
      ctx.strokeStyle = dark() ? 'rgba(255,255,255,0.18)' : 'rgba(0,0,0,0.14)';
      ctx.lineWidth = 1;
      for (let sx = left - h; sx < left + gw; sx += 8) {
        ctx.beginPath();
        ctx.moveTo(sx, to);
        ctx.lineTo(sx + h, from);
        ctx.stroke();
      }
      if (gw > 70) {
        ctx.fillStyle = palette.muted;
        ctx.fillText('nothing recorded', left + 4, from + 8);
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

  return { layout, size, draw, timeAt, width, scroll, shown, contentY };
}
