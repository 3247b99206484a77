// Numbers and names as the page shows them. No trace knowledge: only units and text.

const grouped = new Intl.NumberFormat('en-US');

/** A count with thousands separators; `—` for a missing value. */
export function count(value) {
  return value === null || value === undefined ? '—' : grouped.format(value);
}

/** Whole microseconds with separators; `—` where the trace lacks the clock. */
export function micros(value) {
  return count(value);
}

/** A duration in the unit that reads best: µs, ms or s. */
export function millis(us) {
  if (us === null || us === undefined) return '—';
  if (us >= 1e6) return (us / 1e6).toFixed(us >= 1e7 ? 1 : 2) + ' s';
  if (us >= 1e3) return (us / 1e3).toFixed(us >= 1e4 ? 0 : 1) + ' ms';
  return us + ' µs';
}

/** What the summary's values on `clock` count: `us`, `samples` or `bytes` (the core's words). */
export function unitOf(summary, clock) {
  return (summary && summary.units && summary.units[clock]) || 'us';
}

/** What the source's counts count, in the core's word: `calls`, `samples` or `allocations`. */
export function countNoun(summary) {
  return (summary && summary.count) || 'calls';
}

/** `n` of what the source counts: `1 call`, `5,003 samples` (the core's nouns are plural). */
export function countedNoun(n, summary) {
  const noun = countNoun(summary);
  return count(n) + ' ' + (n === 1 ? noun.replace(/s$/, '') : noun);
}

/** The counts' column heading: `Calls`, `Samples`, `Allocations`. */
export function countHeading(summary) {
  const noun = countNoun(summary);
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}

/** Whether the counts are calls, which recursion repeats (samples and allocations count each stack once). */
export function countsCalls(summary) {
  return countNoun(summary) === 'calls';
}

/** A unit as text writes it after a number. */
export function unitSymbol(unit) {
  return unit === 'us' ? 'µs' : unit;
}

/** A column's heading for values on `clock`: the clock where they are time, else their unit. */
export function clockHeading(summary, clock) {
  const unit = unitOf(summary, clock);
  if (unit !== 'us') return unit.charAt(0).toUpperCase() + unit.slice(1);
  return clock === 'cpu' ? 'CPU' : 'Wall';
}

/** A value in its unit as it reads best: a duration, a size, or a count of samples. */
export function amount(value, unit = 'us') {
  if (value === null || value === undefined) return '—';
  if (unit === 'bytes') return value >= 1024 ? sizeText(value) : count(value) + ' B';
  if (unit === 'samples') return count(value);
  return millis(value);
}

/** `part` as a percentage of `whole`, one decimal; empty when either is missing. */
export function percent(part, whole) {
  if (part === null || part === undefined || !whole) return '';
  return (part * 100 / whole).toFixed(1) + '%';
}

/** A size in binary units, as they are counted (`416 KiB` is 425,984 bytes, not 416,000). */
export function sizeText(bytes) {
  if (bytes >= 1 << 30) return (bytes / (1 << 30)).toFixed(1) + ' GiB';
  if (bytes >= 1 << 20) return (bytes / (1 << 20)).toFixed(1) + ' MiB';
  if (bytes >= 1 << 10) return (bytes / (1 << 10)).toFixed(bytes >= 10 << 10 ? 0 : 1) + ' KiB';
  return bytes + ' bytes';
}

/** A name fit for a downloaded file, whatever the trace was called. */
export function fileStem(name) {
  const stem = String(name || 'trace').replace(/\.(gz)$/i, '').replace(/\.(trace|key|data)$/i, '');
  return stem.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'trace';
}

// Names longer than this are shown as a head that may be cut and a tail that is not.
const SPLIT_AT = 18;
const TAIL = 10;

/**
 * Splits a long name so that its end stays visible when the head is cut: threads named
 * `DefaultDispatcher-worker-1` … `-worker-12` differ only at the end. `[name, '']` when
 * the name is short.
 */
export function splitName(name) {
  const text = String(name);
  const chars = Array.from(text);
  if (chars.length <= SPLIT_AT) return [text, ''];
  return [chars.slice(0, -TAIL).join(''), chars.slice(-TAIL).join('')];
}

// A dotted name keeps its last two parts in sight (`Class.method`) when they are this short.
const TAIL_MAX = 48;

/**
 * A frame's name as `{head, tail}`, where a cramped place cuts the head and keeps the tail:
 * `android.os.` `Looper.loop`; other long names keep their end (`splitName`).
 */
export function frameNameParts(name) {
  const text = String(name);
  const dot = text.lastIndexOf('.', text.lastIndexOf('.') - 1);
  if (text.lastIndexOf('.') > 0 && text.length - dot - 1 <= TAIL_MAX) return { head: text.slice(0, dot + 1), tail: text.slice(dot + 1) };
  const [head, tail] = splitName(text);
  return { head, tail };
}

/** `name [tid]` as the core labels a thread (a dump's heap by its name), or `All threads`. */
export function threadLabel(thread) {
  if (!thread) return 'All threads';
  return thread.heap ? thread.name : thread.name + ' [' + thread.tid + ']';
}

/** What `clock` measures in the trace `summary` is of, as the core words it. */
export function clockWords(clock, summary) {
  return summary.format.clock_words[clock];
}

/** What the trace's frames are called (`method`, `slice`, `function`, `class`), plural if asked. */
export function frameNoun(summary, plural) {
  const kind = summary.format.frame_kind;
  return plural ? pluralOf(kind) : kind;
}

/** `noun`'s plural: `classes`, `threads`. */
function pluralOf(noun) {
  return noun + (/(s|sh|ch|x)$/.test(noun) ? 'es' : 's');
}

/** The same with a capital, for a column or a label. */
export function frameTitle(summary, plural) {
  const noun = frameNoun(summary, plural);
  return noun[0].toUpperCase() + noun.slice(1);
}

/**
 * A method's name as a head that may be cut (the package) and a tail that stays (the
 * class's own name and the method): `['android.widget.', 'FrameLayout.onMeasure']`.
 * Names without a class (slices) are all head.
 */
export function methodNameParts(method) {
  if (!method.class) return [method.name, ''];
  const dot = method.class.lastIndexOf('.');
  const simple = method.class.slice(dot + 1) + '.' + method.method;
  const prefix = method.name.endsWith(simple) ? method.name.slice(0, method.name.length - simple.length) : '';
  return prefix ? [prefix, simple] : [method.name, ''];
}

/**
 * A method's tooltip: name, signature, source, and the name the trace gave it where a
 * mapping renamed it.
 */
export function methodTitle(method) {
  return method.name + ' ' + method.signature + (method.source ? ' (' + method.source + ')' : '') +
    (method.obfuscated ? ' — obfuscated as ' + method.obfuscated : '');
}

/** `1 thread`, `3 threads`: a count and its noun, plural where it is not one. */
export function countText(n, noun) {
  return count(n) + ' ' + (n === 1 ? noun : pluralOf(noun));
}
