// The JSON the Rust golden tests write (tests/golden/, checked byte for byte there), read
// as the page gets it from the engine: page tests that need a summary use these, so that
// they see what the core really says.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const goldenDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../tests/golden');

/** A golden file's JSON, parsed anew (tests may change their copy). */
export function golden(name) {
  return JSON.parse(fs.readFileSync(path.join(goldenDir, name), 'utf8'));
}

/** Summaries by what their traces are. */
export const summary = {
  /** A dual-clock method trace (wall time, thread CPU time): one thread, two notes. */
  method: () => golden('perflib-exception.trace.summary.json'),
  /** A version 1 method trace with the thread CPU clock alone. */
  threadCpu: () => golden('perflib-basic-api10.trace.summary.json'),
  /** A system trace: slices, async tracks, processes, counters; wall time alone. */
  system: () => golden('catapult-systrace-decompressed_atrace_data.summary.json'),
  /** simpleperf samples with off-CPU ones: functions, on-CPU time first (its methods cut to 25). */
  samples: () => golden('ffprof-simpleperf-cpu-clock.summary-head.json'),
};
