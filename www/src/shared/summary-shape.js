// The shape of the JSON the core gives the page (crates/droidflame-core/src/products/
// summary.rs): the summary, a methods table and a mapping's report, as JSDoc types for
// the reader and as data for `shapeProblems`, which the unit tests run over the summaries
// the Rust golden tests write. A field the core adds, renames or drops fails them until
// it is described here.

/**
 * @typedef {'wall' | 'cpu'} ClockName
 * @typedef {{
 *   family: string, layout: string, version: number, streaming: boolean, clock: string,
 *   vm: string | null, gzip: boolean, split: boolean, record_size: number | null,
 *   sampling_interval_us: number | null, clocks: ClockName[], default_clock: ClockName,
 *   clock_words: {wall?: string, cpu?: string}, frame_kind: 'method' | 'slice' | 'function' | 'class',
 *   description: string,
 * }} Format
 * @typedef {{
 *   tid: number, name: string, records: number, wall_us: number | null, cpu_us: number | null,
 *   max_depth: number, pid?: number, process?: string, track?: boolean, heap?: boolean,
 *   running_us?: number, runnable_us?: number, sleeping_us?: number, uninterruptible_us?: number,
 * }} Thread
 * @typedef {{
 *   name: string, class: string, method: string, signature: string, source: string | null,
 *   calls: number | null, recursive_calls: number, incl_wall_us: number | null, excl_wall_us: number | null,
 *   incl_cpu_us: number | null, excl_cpu_us: number | null, obfuscated?: string,
 * }} Method
 * @typedef {{key: string, count: number, text: string}} Note
 * @typedef {{pid: number, name: string, unit: string, samples: number, min: number, max: number, last: number}} Counter
 * @typedef {{
 *   compiler: string | null, compiler_version: string | null, map_id: string | null,
 *   classes: {mapped: number, not_found: number}, methods: {mapped: number, ambiguous: number, not_found: number},
 *   skipped_lines: number, first_skipped_line: number | null, ambiguous_examples: string[], warnings: string[],
 * }} MappingReport
 * @typedef {{
 *   schema: number, format: Format, header: Object<string, string>, records: number,
 *   threads: Thread[], methods: Method[], repairs: Object<string, number | boolean>, warnings: string[],
 *   counters?: Counter[], pid: number | null, elapsed_us: number | null, default_thread: number | null,
 *   totals: {wall_us: number | null, cpu_us: number | null}, notes: Note[], limits: Object<string, number>,
 *   mapping?: MappingReport, sources: {name: string, unit: string, description: string, heap: boolean}[],
 *   source: string, unit: 'us' | 'samples' | 'bytes', units: {wall?: string, cpu?: string},
 *   dumps?: {selected: number, count: number, times_us: number[]},
 *   app_frames?: number, count: 'calls' | 'samples' | 'allocations' | 'objects', counted?: number,
 *   heap_dump?: {objects: number, bytes: number, heaps: {name: string, objects: number, bytes: number}[],
 *     roots: Record<string, number>, unreachable: {objects: number, bytes: number}},
 *   wholes: Object<string, {value: number, of: string}>,
 * }} Summary
 * @typedef {{
 *   caller: number | null, callee: number, calls: number | null, recursive_calls: number,
 *   incl_wall_us: number | null, incl_cpu_us: number | null,
 * }} Edge
 * @typedef {{
 *   thread: number | null, total_wall_us: number | null, total_cpu_us: number | null,
 *   wholes: Object<string, {value: number, of: string}>, methods: Method[], edges: Edge[],
 * }} MethodsTable
 */

// Shapes: 'string', 'number', 'boolean'; a plain object (exactly these keys); or one of the
// wrappers below.
const WRAP = Symbol('shape');
const wrap = (kind, inner) => ({ [WRAP]: kind, inner });
/** `null` or `inner`. */
export const nullable = (inner) => wrap('nullable', inner);
/** A key that may be absent (the core leaves it out when empty or unknown). */
export const optional = (inner) => wrap('optional', inner);
/** An array, each item `inner`. */
export const listOf = (inner) => wrap('list', inner);
/** An object of any keys, each value `inner`. */
export const mapOf = (inner) => wrap('map', inner);
/** One of these strings. */
export const oneOf = (...words) => wrap('oneOf', words);

const count = 'number';
const micros = nullable('number');
const clockName = oneOf('wall', 'cpu');
/** The kinds of stack data a trace can hold, and what their values count. */
export const SOURCE_NAMES = ['calls', 'cpu-samples', 'heap-unreleased', 'heap-allocated', 'heap-dominators', 'heap-paths'];
const UNITS = ['us', 'samples', 'bytes'];
/** What a source counts beside its values: `calls` (recursive ones too), or stacks. */
export const COUNT_NAMES = ['calls', 'samples', 'allocations', 'objects'];

const METHOD = {
  name: 'string', class: 'string', method: 'string', signature: 'string', source: nullable('string'),
  calls: nullable(count), recursive_calls: count, incl_wall_us: micros, excl_wall_us: micros, incl_cpu_us: micros, excl_cpu_us: micros,
  obfuscated: optional('string'),
};

export const MAPPING_REPORT_SHAPE = {
  compiler: nullable('string'), compiler_version: nullable('string'), map_id: nullable('string'),
  classes: { mapped: count, not_found: count },
  methods: { mapped: count, ambiguous: count, not_found: count },
  skipped_lines: count, first_skipped_line: nullable(count), ambiguous_examples: listOf('string'), warnings: listOf('string'),
  heap_classes: optional(count),
};

export const SUMMARY_SHAPE = {
  schema: count,
  format: {
    family: 'string', layout: 'string', version: count, streaming: 'boolean', clock: 'string', vm: nullable('string'),
    gzip: 'boolean', split: 'boolean', record_size: nullable(count), sampling_interval_us: nullable(count),
    clocks: listOf(clockName), default_clock: clockName,
    clock_words: { wall: optional('string'), cpu: optional('string') },
    frame_kind: oneOf('method', 'slice', 'function', 'class'), description: 'string',
  },
  header: mapOf('string'),
  records: count,
  threads: listOf({
    tid: count, name: 'string', records: count, wall_us: micros, cpu_us: micros, max_depth: count,
    pid: optional(count), process: optional('string'), track: optional('boolean'), heap: optional('boolean'),
    running_us: optional(count), runnable_us: optional(count), sleeping_us: optional(count), uninterruptible_us: optional(count),
  }),
  methods: listOf(METHOD),
  repairs: {
    unmatched_exits: count, mismatched_exits: count, open_at_end: count, closed_at_gap: optional(count),
    unknown_methods: count, unknown_threads: count, truncated: 'boolean', overflow: 'boolean', invalid_records: count,
    time_wraps: count, reused_thread_ids: count, unmatched_ends: optional(count), unparsed_lines: optional(count),
    out_of_order: optional(count), too_deep: optional(count), lost_samples: optional(count), long_names: optional(count),
    damaged_parts: optional(count),
    objects_without_class: optional(count),
    dangling_references: optional(count),
    dangling_roots: optional(count),
    duplicate_objects: optional(count),
  },
  warnings: listOf('string'),
  counters: optional(listOf({ pid: count, name: 'string', unit: 'string', samples: count, min: count, max: count, last: count })),
  pid: nullable(count),
  elapsed_us: nullable(count),
  default_thread: nullable(count),
  totals: { wall_us: micros, cpu_us: micros },
  notes: listOf({ key: 'string', count, text: 'string' }),
  limits: {
    max_stack_depth: count, max_call_stacks: count, max_threads: count, max_methods: count, max_name_bytes: count,
    max_decompressed_bytes: count, max_slice_depth: count, max_drawn_depth: count, max_folded_text_bytes: count,
  },
  mapping: optional(MAPPING_REPORT_SHAPE),
  sources: listOf({ name: oneOf(...SOURCE_NAMES), unit: oneOf(...UNITS), description: 'string', heap: 'boolean' }),
  source: oneOf(...SOURCE_NAMES),
  unit: oneOf(...UNITS),
  units: mapOf(oneOf(...UNITS)),
  dumps: optional({ selected: count, count, times_us: listOf(count) }),
  app_frames: optional(count),
  heap_dump: optional({
    objects: count, bytes: count, heaps: listOf({ name: 'string', objects: count, bytes: count }),
    roots: mapOf(count), unreachable: { objects: count, bytes: count },
  }),
  count: oneOf(...COUNT_NAMES),
  counted: optional(count),
  wholes: mapOf({ value: count, of: 'string' }),
};

export const METHODS_TABLE_SHAPE = {
  thread: nullable(count),
  total_wall_us: micros,
  total_cpu_us: micros,
  wholes: mapOf({ value: count, of: 'string' }),
  methods: listOf(METHOD),
  edges: listOf({
    caller: nullable(count), callee: count, calls: nullable(count), recursive_calls: count, incl_wall_us: micros, incl_cpu_us: micros,
  }),
};

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const what = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : JSON.stringify(v));

/**
 * Where `value` differs from `shape`, one line each (none: it conforms): a value of the
 * wrong type, a key the shape names that is missing, a key it does not know.
 */
export function shapeProblems(value, shape, at = '') {
  const wrong = (expected) => [(at || 'the value') + ' is ' + what(value) + ', not ' + expected];
  if (typeof shape === 'string') return typeof value === shape ? [] : wrong('a ' + shape);
  switch (shape[WRAP]) {
    case 'nullable': return value === null ? [] : shapeProblems(value, shape.inner, at);
    case 'optional': return shapeProblems(value, shape.inner, at);
    case 'oneOf': return shape.inner.includes(value) ? [] : wrong('one of ' + shape.inner.join(', '));
    case 'list': return Array.isArray(value) ? value.flatMap((item, i) => shapeProblems(item, shape.inner, at + '[' + i + ']')) : wrong('an array');
    case 'map': return isObject(value) ? Object.entries(value).flatMap(([k, v]) => shapeProblems(v, shape.inner, at + '.' + k)) : wrong('an object');
    default: break;
  }
  if (!isObject(value)) return wrong('an object');
  const problems = [];
  for (const [key, inner] of Object.entries(shape)) {
    if (key in value) problems.push(...shapeProblems(value[key], inner, at + '.' + key));
    else if (inner[WRAP] !== 'optional') problems.push(at + '.' + key + ' is missing');
  }
  for (const key of Object.keys(value)) if (!(key in shape)) problems.push(at + '.' + key + ' is not in the shape the page knows');
  return problems;
}
