// The timeline's system tracks: the CPUs, a row each showing the thread that ran there
// (coloured by its process), and counters (CPU frequency, memory, an app's own) drawn as
// steps scaled to the counter's own range. The worker answers with runs already merged to
// the window's pixels; track-layout.js places the tracks.

import { count } from '../shared/format.js';
import { timeText } from '../shared/timespan.js';
import { CPU_ROW, COUNTER_ROW, HEAD } from './track-layout.js';

const COUNTER_LABEL = 12; // px: a counter's name, above its steps

/** A process's colour: the same hue for every thread of it, apart from its neighbours'. */
export function processColour(pid, dark) {
  const hue = ((pid || 0) * 137.508) % 360;
  return 'hsl(' + hue.toFixed(0) + ', ' + (dark ? '45%, 55%' : '55%, 55%') + ')';
}

/**
 * Text in the fill style, its letters ringed in `ring` (the background's colour): it reads
 * over a gap's stripes or boxes, which still show between its letters.
 */
export function ringedText(ctx, text, x, y, ring) {
  ctx.save();
  ctx.lineWidth = 3;
  ctx.lineJoin = 'round';
  ctx.strokeStyle = ring;
  ctx.strokeText(text, x, y);
  ctx.restore();
  ctx.fillText(text, x, y);
}

/** A counter's value with its unit, where the trace says one: `1,900,800 kHz`. */
export function counterValue(value, unit) {
  return count(value) + (unit ? ' ' + unit : '');
}

/** A counter's label: its name, and its process where it has one. */
export function counterLabel(counter, summary) {
  if (!counter.pid) return counter.name;
  const thread = summary.threads.find((t) => t.pid === counter.pid && t.process);
  return counter.name + ' · ' + (thread ? thread.process : 'pid ' + counter.pid);
}

/** Draws the CPUs' track: `boxes` the core's `cpu, start_us, end_us, pid, mixed` fives. */
export function drawCpus(ctx, track, boxes, x, w, dark, palette) {
  ctx.fillStyle = palette.muted;
  ctx.fillText('CPUs: the thread each ran, coloured by its process', 4, track.top + HEAD / 2);
  for (let cpu = 0; cpu < track.cpus; cpu++) {
    ctx.fillStyle = dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)';
    ctx.fillRect(0, track.rows + cpu * CPU_ROW, w, CPU_ROW - 2);
  }
  if (boxes) {
    let fill = '';
    for (let i = 0; i < boxes.length; i += 5) {
      const left = x(boxes[i + 1]);
      const right = x(boxes[i + 2]);
      if (boxes[i] >= track.cpus || right < 0 || left > w) continue;
      const colour = processColour(boxes[i + 3], dark);
      if (colour !== fill) ctx.fillStyle = fill = colour;
      const from = Math.round(left);
      ctx.fillRect(from, track.rows + boxes[i] * CPU_ROW, Math.max(Math.round(right) - from, 1), CPU_ROW - 2);
    }
  }
  // Each CPU's number on a backing, so that it reads over any colour.
  for (let cpu = 0; cpu < track.cpus; cpu++) {
    const y = track.rows + cpu * CPU_ROW;
    ctx.fillStyle = dark ? 'rgba(30,30,30,0.85)' : 'rgba(255,255,255,0.85)';
    ctx.fillRect(0, y, 14, CPU_ROW - 2);
    ctx.fillStyle = palette.ink;
    ctx.fillText(String(cpu), 3, y + CPU_ROW / 2 - 1);
  }
}

/**
 * Draws a counter's track: its name and range above, then each step a bar from the
 * track's floor, the counter's smallest value (a clock between 1.8 and 1.9 GHz fills the
 * track, not its top tenth).
 */
export function drawCounter(ctx, track, steps, label, x, w, dark, palette) {
  const { counter, top } = track;
  // The smallest value a fifth of the track high, so that it reads as a value, not as none.
  const floor = counter.min - Math.max(counter.max - counter.min, 1) / 4;
  const span = Math.max(counter.max - floor, 1);
  const barTop = top + COUNTER_LABEL;
  const height = COUNTER_ROW - COUNTER_LABEL - 2;
  ctx.fillStyle = palette.muted;
  ringedText(ctx, label + '  ' + count(counter.min) + ' – ' + counterValue(counter.max, counter.unit), 4, top + COUNTER_LABEL / 2, palette.bg);
  ctx.fillStyle = dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)';
  ctx.fillRect(0, barTop, w, height);
  if (!steps) return;
  ctx.fillStyle = processColour(counter.pid, dark);
  const y = (v) => barTop + height - Math.max(1, ((v - floor) / span) * height);
  for (let i = 0; i < steps.length; i += 4) {
    const left = x(steps[i]);
    const right = x(steps[i + 1]);
    if (right < 0 || left > w) continue;
    const from = Math.round(left);
    const topY = y(steps[i + 3]);
    ctx.fillRect(from, topY, Math.max(Math.round(right) - from, 1), barTop + height - topY);
  }
}

/**
 * How long a CPU was idle, from the core's `start_us` and `end_us` (null: no run before or
 * after it in the trace).
 */
export function idleLine({ start_us: start, end_us: end }) {
  if (start === null && end === null) return 'ran no thread in the whole trace';
  if (start === null) return 'from the start of the trace to ' + timeText(end);
  if (end === null) return 'from ' + timeText(start) + ' to the end of the trace';
  const step = Math.max((end - start) / 10, 0.001);
  return 'for ' + timeText(end - start) + ', from ' + timeText(start, step) + ' to ' + timeText(end, step);
}

/** The hover lines of CPU `cpu` at `at` µs. */
export async function cpuTip(products, cpu, at) {
  const ran = await products.cpuAt(cpu, at);
  if (!ran) return ['CPU ' + cpu + ': idle'];
  if (ran.idle) return ['CPU ' + cpu + ': idle', idleLine(ran)];
  const step = Math.max(ran.dur_us / 10, 0.001);
  return [ran.label + ' on CPU ' + cpu, 'for ' + timeText(ran.dur_us) + ', from ' + timeText(ran.start_us, step) + ' to ' + timeText(ran.end_us, step),
    ran.process ? ran.process + ' (pid ' + ran.pid + ')' : ''].filter(Boolean);
}

/** The hover lines of a counter at `at` µs. */
export async function counterTip(products, counter, at, summary) {
  const value = await products.counterAt(counter.index, at);
  const label = counterLabel(counter, summary);
  return value ? [label + ': ' + counterValue(value.value, counter.unit), 'since ' + timeText(value.since_us)] : [label + ': no value yet'];
}
