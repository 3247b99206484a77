// What the timeline draws beside calls: a lane of app frames per layer (coloured by jank,
// the expected deadline marked) and a strip of scheduler states over each thread's calls.

import { element } from '../shared/dom.js';
import {
  frameAt, frameColour, frameEnd, framePatch, framesByLayer, frameTipLines, linkedFrames, shortLayer, shownLayers, TONE_WORDS,
  toneColour,
} from '../frames/frame-marks.js';
import { stateColour } from '../shared/thread-states.js';
import { ringedText } from './timeline-system.js';

export const FRAME_ROW = 14; // px per layer's lane of frames
export const FRAME_GAP = 2; // px between two layers' lanes

/**
 * The timeline's lanes of app frames: `set(data, length)` with the core's frames (null for
 * none), `layout(summary, thread, top)` lays out the lanes shown (its process's layers for
 * one thread, every layer for all) and gives the top after them; `draw`, `at` (the frame
 * under a point, -1 for none), `tip`, `patch` (what choosing a frame makes the store) and
 * `hover(index)` (the frame under the pointer, -1 for none: true where that changed what
 * is outlined).
 */
export function createFrameLanes() {
  let marks = null; // {data, lanes: indices by layer, length}
  let layers = []; // the layers with a lane
  let top = 0;
  let hovered = -1;
  const row = FRAME_ROW + FRAME_GAP;
  return {
    set(data, length) {
      marks = data && data.frames.length > 0 ? { data, lanes: framesByLayer(data), length } : null;
    },
    layout(summary, thread, from) {
      top = from;
      layers = marks ? shownLayers(marks.data, summary, thread) : [];
      return layers.length > 0 ? top + layers.length * row + 4 : from;
    },
    shown: () => layers.length > 0,
    positions: () => ({ top, row, layers }),
    draw(ctx, x, w, dark, palette, selected) {
      if (layers.length === 0) return;
      // The frame under the pointer, else the one selected, and the frames linked to it.
      const focus = hovered >= 0 ? hovered : selected;
      const outlined = focus >= 0 ? linkedFrames(marks.data, focus) : [];
      drawFrameLanes(ctx, marks, layers, x, w, top, dark, palette, outlined);
    },
    hover(index) {
      if (index === hovered) return false;
      hovered = index;
      return marks !== null && layers.length > 0;
    },
    at(at, py) {
      if (layers.length === 0 || py < top || py >= top + layers.length * row) return -1;
      const layer = layers[Math.floor((py - top) / row)];
      return frameAt(marks.data.frames, marks.lanes[layer], at, marks.length);
    },
    tip(index) {
      const frame = marks.data.frames[index];
      return frameTipLines(frame, marks.data.layers[frame.layer], marks.data, index);
    },
    patch: (summary, index) => framePatch(summary, marks.data, index, marks.length),
  };
}

/**
 * Draws the frames of each layer in `layers` (indices into the core's) in its lane from `top`. `x(us)` places a time; `w` is the
 * width drawn; `outlined` the frames outlined: the first solid, the frames linked to it
 * dashed.
 */
function drawFrameLanes(ctx, marks, layers, x, w, top, dark, palette, outlined) {
  const { data, lanes, length } = marks;
  layers.forEach((layer, row) => {
    const indices = lanes[layer];
    const y = top + row * (FRAME_ROW + FRAME_GAP);
    ctx.fillStyle = dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)';
    ctx.fillRect(0, y, w, FRAME_ROW);
    let fill = '';
    let lastRight = -1;
    for (const i of indices) {
      const f = data.frames[i];
      const left = x(f.start_us);
      const right = x(frameEnd(f, length));
      if (right < 0 || left > w) continue;
      // Frames narrower than a pixel on one already drawn: the first drawn stands for them.
      if (Math.round(right) <= lastRight && right - left < 1) continue;
      const colour = frameColour(f, dark);
      if (colour !== fill) ctx.fillStyle = fill = colour;
      const from = Math.round(left);
      const width = Math.max(Math.round(right) - from, 1);
      ctx.fillRect(from, y + 2, width, FRAME_ROW - 4);
      lastRight = from + width;
      // The expected deadline: a tick where the frame should have ended.
      if (f.expected_end_us !== null && width > 3) {
        const deadline = Math.round(x(f.expected_end_us));
        if (deadline >= 0 && deadline <= w) {
          ctx.fillStyle = fill = palette.ink;
          ctx.fillRect(deadline, y, 1, FRAME_ROW);
        }
      }
      const outline = outlined.indexOf(i);
      if (outline >= 0) {
        ctx.strokeStyle = '#1a73e8';
        ctx.lineWidth = 2;
        ctx.setLineDash(outline === 0 ? [] : [3, 2]);
        ctx.strokeRect(from - 1, y + 1, width + 2, FRAME_ROW - 2);
        ctx.setLineDash([]);
      }
    }
    // The layer's name over its lane's start, its letters ringed in the background's colour
    // so that it reads over frames and the frames show between its letters.
    const name = 'Frames · ' + shortLayer(data.layers[layers[row]].layer);
    ctx.fillStyle = palette.ink;
    ringedText(ctx, name, 4, y + FRAME_ROW / 2, palette.bg);
  });
}


/** Draws a thread's state strip: `boxes` are the core's `start_us, end_us, state, mixed` fours. */
export function drawStateStrip(ctx, strip, boxes, legend, x, w, dark) {
  ctx.fillStyle = dark ? 'rgba(255,255,255,0.05)' : 'rgba(0,0,0,0.04)';
  ctx.fillRect(0, strip.top, w, strip.height);
  if (!boxes) return;
  let fill = '';
  for (let i = 0; i < boxes.length; i += 4) {
    const left = x(boxes[i]);
    const right = x(boxes[i + 1]);
    if (right < 0 || left > w) continue;
    const entry = legend[boxes[i + 2] - 1];
    const colour = stateColour(entry ? entry.state : '', dark);
    if (colour !== fill) ctx.fillStyle = fill = colour;
    const from = Math.round(left);
    ctx.fillRect(from, strip.top, Math.max(Math.round(right) - from, 1), strip.height);
  }
}

/**
 * The legend of the colours drawn: each state of `stateLegend` (the core's keys and
 * words; empty where no strip is drawn), then the frames' tones where `frames`.
 */
export function legendItems(stateLegend, frames, dark) {
  const item = (colour, words) => {
    const swatch = element('span', { class: 'swatch' });
    swatch.style.background = colour;
    return element('span', { class: 'legend-item' }, swatch, words);
  };
  const items = stateLegend.map((s) => item(stateColour(s.state, dark), s.words));
  if (frames) items.push(...Object.entries(TONE_WORDS).map(([tone, words]) => item(toneColour(tone, dark), 'frame ' + words)));
  return items;
}
