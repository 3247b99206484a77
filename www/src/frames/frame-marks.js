// App frames as the page marks them, apart from the DOM so that it is tested without a
// browser: a frame's colour (on time, janky by the app, janky otherwise, never ended), its
// hover lines, the frame under a time in a layer, and the table's rows and ranges. The
// frames, their jank and present types are the core's (`framesJson`), in Perfetto's words.

import { timeText } from '../shared/timespan.js';

// Apart from the thread states' colours (running is green there): on time is teal, other
// jank yellow as in Perfetto.
const COLOURS = {
  onTime: ['#26a69a', '#4db6ac'],
  app: ['#e53935', '#ef5350'],
  other: ['#f9a825', '#fdd835'],
  unfinished: ['#9e9e9e', '#757575'],
};

/** What a frame's colour says: `onTime`, `app` (the app missed its deadline), `other` jank, `unfinished`. */
export function frameTone(frame) {
  if (frame.end_us === null) return 'unfinished';
  if (!frame.janky) return 'onTime';
  // Whose jank it was is the core's to say (`by_app`).
  return frame.by_app ? 'app' : 'other';
}

/** A tone's colour in the theme. */
export function toneColour(tone, dark) {
  return COLOURS[tone][dark ? 1 : 0];
}

export function frameColour(frame, dark) {
  return toneColour(frameTone(frame), dark);
}

/** The words of each tone, for a legend. */
export const TONE_WORDS = {
  onTime: 'on time',
  app: 'janky: the app missed its deadline',
  other: 'janky for another reason',
  unfinished: 'never ended in the trace',
};

/** Each layer's frames (indices into `frames`), in start order. */
export function framesByLayer(data) {
  const lanes = data.layers.map(() => []);
  data.frames.forEach((f, i) => {
    if (f.layer !== null && lanes[f.layer]) lanes[f.layer].push(i);
  });
  return lanes;
}

/** The frame of one layer (`indices` from `framesByLayer`) running at `at` µs, or -1. */
export function frameAt(frames, indices, at, length) {
  let lo = 0;
  let hi = indices.length;
  // The last frame starting at or before `at`; frames of a layer overlap at most a little,
  // so the few before it are checked too.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[indices[mid]].start_us <= at) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1; k >= 0 && k >= lo - 4; k--) {
    const f = frames[indices[k]];
    if (at <= frameEnd(f, length)) return indices[k];
  }
  return -1;
}

/** Where a frame ends on the timeline: its end, or the trace's for one never ended. */
export function frameEnd(frame, length) {
  return frame.end_us === null ? length : frame.end_us;
}

/** A frame's name: its token, or where it has none its start. */
export function frameName(frame) {
  // A frame derived from slices of older Android has no token: its start names it.
  return frame.token ? 'Frame ' + frame.token : 'Frame at ' + timeText(frame.start_us);
}

/**
 * The frames linked to frame `index`, itself first: an app frame and the display frame that
 * presented it; a display frame and the app frames it presented.
 */
export function linkedFrames(data, index) {
  const frame = data.frames[index];
  if (!frame) return [];
  const linked = [index];
  if (frame.display_frame !== null && frame.display_frame !== undefined) linked.push(frame.display_frame);
  const layer = data.layers[frame.layer];
  if (layer && layer.display) {
    data.frames.forEach((f, i) => { if (f.display_frame === index) linked.push(i); });
  }
  return linked;
}

/** A frame's hover lines; with `data` (the core's frames), the frames linked to it too. */
export function frameTipLines(frame, layer, data = null, index = -1) {
  const lines = [];
  const duration = frame.end_us === null ? 'never ended' : timeText(frame.end_us - frame.start_us);
  lines.push(frameName(frame) + ' · ' + duration);
  if (frame.expected_end_us !== null) {
    lines.push('expected ' + timeText(frame.expected_end_us - frame.expected_start_us)
      + (frame.overrun_us !== null && frame.overrun_us > 0 ? ' · ' + timeText(frame.overrun_us) + ' late' : ''));
  }
  lines.push('jank: ' + frame.jank + ' · ' + frame.present);
  lines.push(shortLayer(layer.layer) + ' (pid ' + layer.pid + ')');
  if (data) {
    const linked = linkedFrames(data, index).slice(1).map((i) => data.frames[i]);
    if (layer.display && linked.length > 0) {
      const names = linked.slice(0, 3).map((f) => frameName(f) + ' of ' + shortLayer(data.layers[f.layer].layer));
      lines.push('presented ' + names.join(', ') + (linked.length > 3 ? ' and ' + (linked.length - 3) + ' more' : ''));
    } else if (linked.length > 0) {
      lines.push('presented by display ' + frameName(linked[0]).toLowerCase());
    }
  }
  return lines;
}

/** A layer's name without its `TX - ` prefix and package path (`MainActivity#50010`). */
export function shortLayer(layer) {
  // A layer of derived frames is named by its process, then how they were derived.
  const derived = layer.indexOf(' (derived');
  if (derived >= 0) return layer.slice(0, derived);
  const plain = layer.replace(/^TX - /, '');
  const slash = plain.lastIndexOf('/');
  const activity = slash >= 0 ? plain.slice(slash + 1) : plain;
  const hash = activity.indexOf('#');
  const dot = activity.lastIndexOf('.', hash >= 0 ? hash : activity.length);
  return dot >= 0 ? activity.slice(dot + 1) : activity;
}

/**
 * The layers the timeline shows lanes of: with one thread shown, its process's, then the
 * display's frames that presented them (none where it drew no frames); with all threads,
 * every layer.
 */
export function shownLayers(data, summary, thread) {
  const all = data.layers.map((_, i) => i);
  if (thread < 0) return all;
  const pid = summary.threads[thread] && summary.threads[thread].pid;
  const own = all.filter((i) => data.layers[i].pid === pid && !data.layers[i].display);
  if (own.length === 0) return all.filter((i) => data.layers[i].pid === pid);
  return own.concat(all.filter((i) => data.layers[i].display));
}

/** The time a frame selects: the frame itself (to the trace's end for one never ended). */
export function frameRange(frame, length) {
  return { from: frame.start_us, to: Math.max(frameEnd(frame, length), frame.start_us) };
}

/**
 * The order the table opens on: janky frames first, the most late first, then the rest by
 * length. A value for sort-table.js (descending).
 */
export function jankRank(frame) {
  const late = frame.overrun_us === null ? 0 : frame.overrun_us;
  const length = frame.end_us === null ? 0 : frame.end_us - frame.start_us;
  return frame.janky ? 1e12 + late : length;
}

/**
 * The store's patch that selects frame `index`: its time as the range, the app's main
 * thread (its tid is the process id) where the summary lists it, and the app's threads
 * pinned in the timeline.
 */
export function framePatch(summary, data, index, length) {
  const frame = data.frames[index];
  const layer = data.layers[frame.layer];
  const patch = { frame: index, range: frameRange(frame, length) };
  const main = layer ? summary.threads.findIndex((t) => t.tid === layer.pid && !t.track) : -1;
  if (main >= 0) patch.thread = main;
  // The app's threads side by side in the timeline: its main thread (where the source shown
  // lacks it) and its RenderThreads.
  if (layer && !layer.display) {
    patch.pins = [...(main < 0 && layer.main_thread !== null && layer.main_thread !== undefined ? [layer.main_thread] : []), ...(layer.render_threads || [])];
  }
  return patch;
}
