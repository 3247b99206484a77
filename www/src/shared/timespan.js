// The timeline's arithmetic, apart from any DOM so that it is tested without a browser: the
// visible window (zoom around a point, pan, clamp to the trace), the time axis' ticks, and
// how a time reads.

/** The smallest window shown, in µs: below a microsecond the trace has nothing to tell. */
export const MIN_SPAN_US = 1;

/** Keeps `view` (`{from, to}` µs) inside `0..length` and at least MIN_SPAN_US wide. */
export function clampView(view, length) {
  const total = Math.max(length, MIN_SPAN_US);
  let span = Math.min(Math.max(view.to - view.from, MIN_SPAN_US), total);
  let from = Math.min(Math.max(view.from, 0), total - span);
  return { from, to: from + span };
}

/** `view` zoomed by `factor` (< 1 zooms in) around the time at `fraction` of its width. */
export function zoomView(view, factor, fraction, length) {
  const span = view.to - view.from;
  const at = view.from + span * fraction;
  const next = span * factor;
  return clampView({ from: at - next * fraction, to: at - next * fraction + next }, length);
}

/** `view` moved by `fraction` of its width (negative: earlier). */
export function panView(view, fraction, length) {
  const shift = (view.to - view.from) * fraction;
  return clampView({ from: view.from + shift, to: view.to + shift }, length);
}

/**
 * Whether `view` drawn `pixels` wide needs calls shorter than `shortestUs` (those left out
 * of a trace with too many calls): true once such a call could be a pixel or wider.
 */
export function wantsDetail(view, pixels, shortestUs) {
  return shortestUs > 0 && (view.to - view.from) / Math.max(pixels, 1) < shortestUs;
}

/** The window to read every call of for `view`: half its width more on each side. */
export function detailWindow(view, length) {
  const margin = (view.to - view.from) / 2;
  return { from: Math.max(0, view.from - margin), to: Math.min(length, view.to + margin) };
}

/** Whether `outer` (`{from, to}`) holds all of `inner`. */
export function covers(outer, inner) {
  return outer.from <= inner.from && inner.to <= outer.to;
}

/** A window around a call, with a margin on each side so that its edges show. */
export function viewAround(start, end, length) {
  const margin = Math.max((end - start) * 0.15, MIN_SPAN_US * 5);
  return clampView({ from: start - margin, to: end + margin }, length);
}

/** Tick times (µs) for an axis over `view` with at most `most` ticks, at 1-2-5 steps. */
export function axisTicks(view, most) {
  const span = view.to - view.from;
  if (!(span > 0) || most < 1) return { step: 0, ticks: [] };
  const rough = span / most;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const ticks = [];
  for (let t = Math.ceil(view.from / step) * step; t <= view.to; t += step) ticks.push(t);
  return { step, ticks };
}

/** A time (µs from the timeline's start) as an axis or a tooltip reads it. */
export function timeText(us, step = 0) {
  if (us === 0) return '0 s';
  const abs = Math.abs(us);
  const digits = (unit) => Math.max(0, Math.min(6, -Math.floor(Math.log10((step || abs || 1) / unit)) + (step ? 0 : 2)));
  if (abs >= 1e6 || step >= 1e6) return (us / 1e6).toFixed(digits(1e6)) + ' s';
  if (abs >= 1e3 || step >= 1e3) return (us / 1e3).toFixed(digits(1e3)) + ' ms';
  return us.toFixed(step ? digits(1) : abs < 10 ? 2 : 0) + ' µs';
}

/** `from–to` as the range banner shows it: `1.20–1.85 s`. */
export function rangeText(range) {
  const span = range.to - range.from;
  const unit = Math.max(range.to, span) >= 1e6 ? [1e6, ' s'] : Math.max(range.to, span) >= 1e3 ? [1e3, ' ms'] : [1, ' µs'];
  const decimals = Math.max(2, Math.min(6, 1 - Math.floor(Math.log10(Math.max(span, 1e-9) / unit[0]))));
  const text = (us) => (us / unit[0]).toFixed(decimals);
  return text(range.from) + '–' + text(range.to) + unit[1];
}

/** A stable colour for a frame name: hue from its hash, warm for methods as inferno draws. */
export function frameColour(name, dark) {
  const [h, sat, l] = frameHsl(name, dark);
  return 'hsl(' + h + ' ' + sat + '% ' + l + '%)';
}

// A frame's hue (reds to yellows), saturation and lightness, from its name.
function frameHsl(name, dark) {
  let hash = 2166136261;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619);
  const hue = 10 + ((hash >>> 0) % 50);
  const light = dark ? 38 + ((hash >>> 8) % 10) : 62 + ((hash >>> 8) % 14);
  return [hue, 75, light];
}

// Relative luminance of an HSL colour (WCAG).
function luminance(h, sat, l) {
  const s = sat / 100;
  const li = l / 100;
  const a = s * Math.min(li, 1 - li);
  const channel = (n) => {
    const k = (n + h / 30) % 12;
    const c = li - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(8) + 0.0722 * channel(4);
}

/** Text colours a box label may take: black and white, one of which keeps 4.58:1 on any box. */
export const LABEL_DARK = '#000000';
export const LABEL_LIGHT = '#ffffff';

/** The WCAG contrast of two luminances. */
export function contrast(a, b) {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The label colour that reads best on a frame's box (`frameColour`): the higher contrast. */
export function labelColour(name, dark) {
  return labelOn(name, dark).colour;
}

/** The contrast of a frame's label on its box. */
export function labelContrast(name, dark) {
  return labelOn(name, dark).contrast;
}

// Black (luminance 0) or white (1) on the box, whichever contrasts more.
function labelOn(name, dark) {
  const box = luminance(...frameHsl(name, dark));
  const [black, white] = [contrast(box, 0), contrast(box, 1)];
  return black >= white ? { colour: LABEL_DARK, contrast: black } : { colour: LABEL_LIGHT, contrast: white };
}
