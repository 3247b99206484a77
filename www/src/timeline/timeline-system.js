// The all-threads timeline's system lanes: one lane per CPU showing which thread ran there
// (coloured by its process), and one track per counter (CPU frequency, memory, an app's
// own counters) drawn as steps. The worker answers with runs already merged to the
// window's pixels.

import { count } from '../shared/format.js';
import { timeText } from '../shared/timespan.js';

export const CPU_ROW = 12; // px per CPU's lane
export const COUNTER_ROW = 26; // px per counter's track
const LABEL_GAP = 13; // px: a group's heading
const FEW_COUNTERS = 8; // counter tracks shown until all are asked for

/** A process's colour: the same hue for every thread of it, apart from its neighbours'. */
export function processColour(pid, dark) {
  const hue = ((pid || 0) * 137.508) % 360;
  return 'hsl(' + hue.toFixed(0) + ', ' + (dark ? '45%, 55%' : '55%, 55%') + ')';
}

/** A counter's label: its name, and its process where it has one. */
export function counterLabel(counter, summary) {
  if (!counter.pid) return counter.name;
  const thread = summary.threads.find((t) => t.pid === counter.pid && t.process);
  return counter.name + ' · ' + (thread ? thread.process : 'pid ' + counter.pid);
}

export function createSystemLanes(products) {
  let cpus = []; // [{cpu, top}]
  let counters = []; // [{counter: the timeline facts' entry, top}]
  let cpuBoxes = null;
  let steps = []; // per counter track
  let headings = []; // [{text, top, toggles}]
  let allCounters = false; // every counter's track, or the first few

  return {
    /** Lays out lanes from `top` (none where `shown` is false); the top after them. */
    layout(facts, shown, top) {
      cpus = [];
      counters = [];
      headings = [];
      if (!shown) return top;
      if (facts.cpus > 0) {
        headings.push({ text: 'CPUs: the thread each ran (coloured by process)', top });
        top += LABEL_GAP;
        for (let cpu = 0; cpu < facts.cpus; cpu++) cpus.push({ cpu, top: top + cpu * CPU_ROW });
        top += facts.cpus * CPU_ROW + 6;
      }
      if (facts.counters.length > 0) {
        const many = facts.counters.length > FEW_COUNTERS;
        const shown = many && !allCounters ? facts.counters.slice(0, FEW_COUNTERS) : facts.counters;
        const text = !many ? 'Counters'
          : allCounters ? 'Counters: all ' + facts.counters.length + ' (click here for the first ' + FEW_COUNTERS + ')'
            : 'Counters: ' + FEW_COUNTERS + ' of ' + facts.counters.length + ' (click here for all)';
        headings.push({ text, top, toggles: many });
        top += LABEL_GAP;
        counters = shown.map((counter, i) => ({ counter, top: top + i * COUNTER_ROW }));
        top += shown.length * COUNTER_ROW + 6;
      }
      return top;
    },

    /** Fetches the window's runs and steps. */
    async fetch(view, pixels) {
      const [boxes, all] = await Promise.all([
        cpus.length > 0 ? products.cpus(view.from, view.to, pixels) : null,
        Promise.all(counters.map((c) => products.counterSteps(c.counter.index, view.from, view.to, pixels))),
      ]);
      cpuBoxes = boxes;
      steps = all;
    },

    draw(ctx, x, w, dark, palette, summary) {
      ctx.fillStyle = palette.muted;
      for (const h of headings) ctx.fillText(h.text, 4, h.top + LABEL_GAP / 2);
      for (const lane of cpus) {
        ctx.fillStyle = dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)';
        ctx.fillRect(0, lane.top, w, CPU_ROW - 2);
      }
      if (cpuBoxes) {
        let fill = '';
        for (let i = 0; i < cpuBoxes.length; i += 5) {
          const lane = cpus[cpuBoxes[i]];
          const left = x(cpuBoxes[i + 1]);
          const right = x(cpuBoxes[i + 2]);
          if (!lane || right < 0 || left > w) continue;
          const thread = summary.threads[cpuBoxes[i + 3]];
          const colour = processColour(thread ? thread.pid : 0, dark);
          if (colour !== fill) ctx.fillStyle = fill = colour;
          const from = Math.round(left);
          ctx.fillRect(from, lane.top, Math.max(Math.round(right) - from, 1), CPU_ROW - 2);
        }
      }
      for (const lane of cpus) {
        ctx.fillStyle = palette.muted;
        ctx.fillText(String(lane.cpu), 2, lane.top + CPU_ROW / 2 - 1);
      }
      counters.forEach((track, i) => drawSteps(ctx, track, steps[i], x, w, dark, palette, summary));
    },

    /** Where the lanes are, for what reads the page (tests). */
    positions() {
      return { cpus: cpus.map((l) => l.top), counters: counters.map((c) => ({ name: c.counter.name, top: c.top })) };
    },

    /** Shows every counter's track, or the first few again. */
    toggleCounters() {
      allCounters = !allCounters;
    },

    /**
     * The lane under `py`: `{cpu}`, `{counter}` (the facts' entry) or `{toggle}` (the
     * counters' heading, where it shows or hides tracks), else null.
     */
    hit(py) {
      if (headings.some((h) => h.toggles && py >= h.top && py < h.top + LABEL_GAP)) return { toggle: true };
      const lane = cpus.find((l) => py >= l.top && py < l.top + CPU_ROW);
      if (lane) return { cpu: lane.cpu };
      const track = counters.find((c) => py >= c.top && py < c.top + COUNTER_ROW - 2);
      return track ? { counter: track.counter } : null;
    },

    /** The hover lines of a lane at `at` µs; null where nothing is there. */
    async tip(hit, at, summary) {
      if (hit.toggle) return [allCounters ? 'Click: show the first ' + FEW_COUNTERS + ' counters' : 'Click: show every counter'];
      if (hit.cpu !== undefined) {
        const ran = await products.cpuAt(hit.cpu, at);
        if (!ran) return ['CPU ' + hit.cpu + ': idle'];
        return [ran.label + ' on CPU ' + hit.cpu, 'for ' + timeText(ran.dur_us) + ', from ' + timeText(ran.start_us),
          ran.process ? ran.process + ' (pid ' + ran.pid + ')' : ''].filter(Boolean);
      }
      const value = await products.counterAt(hit.counter.index, at);
      const label = counterLabel(hit.counter, summary);
      return value ? [label + ': ' + count(value.value), 'since ' + timeText(value.since_us)] : [label + ': no value yet'];
    },
  };
}

// A counter's track: each step a bar from the track's floor, scaled to the counter's range.
function drawSteps(ctx, track, steps, x, w, dark, palette, summary) {
  const { counter, top } = track;
  const height = COUNTER_ROW - 4;
  ctx.fillStyle = dark ? 'rgba(255,255,255,0.04)' : 'rgba(0,0,0,0.03)';
  ctx.fillRect(0, top, w, height);
  const span = Math.max(counter.max - Math.min(counter.min, 0), 1);
  const floor = Math.min(counter.min, 0);
  const y = (v) => top + height - ((v - floor) / span) * height;
  ctx.fillStyle = processColour(counter.pid, dark);
  // Half-seen, so that the label over them reads.
  ctx.globalAlpha = 0.55;
  if (steps) {
    for (let i = 0; i < steps.length; i += 4) {
      const left = x(steps[i]);
      const right = x(steps[i + 1]);
      if (right < 0 || left > w) continue;
      const from = Math.round(left);
      const topY = y(steps[i + 3]);
      ctx.fillRect(from, topY, Math.max(Math.round(right) - from, 1), top + height - topY);
    }
  }
  ctx.globalAlpha = 1;
  const label = counterLabel(counter, summary) + ' (max ' + count(counter.max) + ')';
  ctx.fillStyle = dark ? 'rgba(30,30,30,0.75)' : 'rgba(255,255,255,0.75)';
  ctx.fillRect(0, top, Math.min(ctx.measureText(label).width + 8, w), 13);
  ctx.fillStyle = palette.ink;
  ctx.fillText(label, 4, top + 7);
}
