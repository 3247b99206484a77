// Types of the droidflame package. `Session` and `splitKeyIsSecond` come from the
// generated bindings (droidflame.d.ts).
export { Session, splitKeyIsSecond } from './droidflame.js';

export type Clock = 'wall' | 'cpu';

export interface AnalyzeOptions {
  /** Clock of the flame graphs; default: wall where the trace has it. */
  clock?: Clock;
  /** Colours around the graphs: light (default) or dark. */
  theme?: 'light' | 'dark';
  /** false: leave `svg` out (faster when only the summary is needed). */
  svg?: boolean;
  /** Where to load the wasm from; default: droidflame_bg.wasm beside this module. */
  wasm?: string | URL | Response | BufferSource | WebAssembly.Module;
}

export interface ThreadSummary {
  tid: number;
  name: string;
  records: number;
  /** Sum of the thread's folded values, µs; null when the trace has no such clock. */
  wall_us: number | null;
  cpu_us: number | null;
  max_depth: number;
  /** System traces: the process, and whether this is a track of async slices. */
  pid?: number;
  process?: string;
  track?: boolean;
  running_us?: number;
  runnable_us?: number;
  sleeping_us?: number;
}

/** A repair or warning as the core words it: `key` is a `repairs` field, `merged_depth` or `warning`. */
export interface Note {
  key: string;
  count: number;
  text: string;
}

export interface MethodSummary {
  name: string;
  class: string;
  method: string;
  signature: string;
  source: string | null;
  calls: number;
  recursive_calls: number;
  incl_wall_us: number | null;
  excl_wall_us: number | null;
  incl_cpu_us: number | null;
  excl_cpu_us: number | null;
}

export interface Summary {
  schema: 1;
  format: {
    family: string;
    layout: string;
    version: number;
    streaming: boolean;
    clock: 'wall' | 'thread-cpu' | 'dual';
    vm: string | null;
    gzip: boolean;
    split: boolean;
    record_size: number | null;
    sampling_interval_us: number | null;
    clocks: Clock[];
    frame_kind: 'method' | 'slice';
    description: string;
  };
  header: Record<string, string>;
  records: number;
  threads: ThreadSummary[];
  methods: MethodSummary[];
  repairs: {
    unmatched_exits: number;
    mismatched_exits: number;
    open_at_end: number;
    unknown_methods: number;
    unknown_threads: number;
    truncated: boolean;
    overflow: boolean;
    invalid_records: number;
    time_wraps: number;
    reused_thread_ids: number;
  };
  warnings: string[];
  pid: number | null;
  elapsed_us: number | null;
  /** The thread to open on: an index into `threads`. */
  default_thread: number | null;
  /** All threads together; tracks are left out. */
  totals: { wall_us: number | null; cpu_us: number | null };
  notes: Note[];
  limits: Record<string, number>;
}

export interface Analysis {
  summary: Summary;
  threads: { tid: number; name: string; svg?: string }[];
}

export function initialize(wasm?: AnalyzeOptions['wasm']): Promise<unknown>;
type TraceInput = Uint8Array | ArrayBuffer | ArrayBufferView | Blob;
export function analyze(input: TraceInput | [TraceInput, TraceInput], options?: AnalyzeOptions): Promise<Analysis>;

export interface CompareOptions extends AnalyzeOptions {
  /** The side whose time sets the frames' widths; default: after. */
  widths?: 'after' | 'before';
  /** Scale the other side to the same total before colouring. */
  normalize?: boolean;
}

export interface MethodTotals {
  calls: number;
  incl_us: number;
  excl_us: number;
}

export interface Comparison {
  before: Summary;
  after: Summary;
  /** The clock both were compared on. */
  clock: Clock;
  /** Where the two differ in kind, or do not differ at all. */
  warnings: string[];
  /** Threads by name, most time first; `svg` the differential flame graph (red grew, blue shrank). */
  threads: { name: string; before_us: number; after_us: number; svg?: string }[];
  /** Largest change of inclusive time first. */
  methods: { name: string; class: string; method: string; signature: string; before: MethodTotals; after: MethodTotals }[];
  /** The thread name to look at first (the one each trace opens on, where both have time in it), or null. */
  default_thread: string | null;
}

export function compare(
  before: TraceInput | [TraceInput, TraceInput],
  after: TraceInput | [TraceInput, TraceInput],
  options?: CompareOptions,
): Promise<Comparison>;
