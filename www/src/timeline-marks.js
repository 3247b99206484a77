// What the timeline draws beside calls: a lane of app frames per layer (coloured by jank,
// the expected deadline marked) and a strip of scheduler states over each thread's calls.

import { frameColour, frameEnd, shortLayer } from './frame-marks.js';
import { stateColour } from './thread-states.js';

export const FRAME_ROW = 14; // px per layer's lane of frames
export const FRAME_GAP = 2; // px between two layers' lanes

/**
 * Draws the frames of each layer in `layers` (indices into the core's) in its lane from `top`. `x(us)` places a time; `w` is the
 * width drawn; `selected` the frame index selected (-1 for none).
 */
export function drawFrameLanes(ctx, marks, layers, x, w, top, dark, palette, selected) {
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
      if (i === selected) {
        ctx.strokeStyle = '#1a73e8';
        ctx.lineWidth = 2;
        ctx.strokeRect(from - 1, y + 1, width + 2, FRAME_ROW - 2);
      }
    }
    // The layer's name over its lane's start, on a backing that keeps it readable.
    const name = 'Frames · ' + shortLayer(data.layers[layers[row]].layer);
    const textWidth = Math.min(ctx.measureText(name).width + 8, w);
    ctx.fillStyle = dark ? 'rgba(30,30,30,0.65)' : 'rgba(255,255,255,0.65)';
    ctx.fillRect(0, y, textWidth, FRAME_ROW);
    ctx.fillStyle = palette.muted;
    ctx.fillText(name, 4, y + FRAME_ROW / 2);
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
