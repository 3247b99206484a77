// The frames view's data made by the wasm core under Node, timed: `framesJson`, the
// timeline's facts, a window of states and CPU lanes, on FILE (read with calls kept, as
// the page reads it). Prints one JSON line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = path.join(root, 'dist/pkg');
const { default: init, Session } = await import(pathToFileURL(path.join(pkg, 'droidflame.js')).href);
const exports = await init({ module_or_path: fs.readFileSync(path.join(pkg, 'droidflame_bg.wasm')) });

const session = Session.withCalls();
const fd = fs.openSync(process.argv[2], 'r');
const buffer = new Uint8Array(1 << 20);
for (;;) {
  const n = fs.readSync(fd, buffer, 0, buffer.length, null);
  if (n === 0) break;
  session.push(buffer.subarray(0, n));
}
fs.closeSync(fd);
session.finish();
const timed = (what) => {
  const s = process.hrtime.bigint();
  const out = what();
  return [Number(process.hrtime.bigint() - s) / 1e6, out];
};
const [framesMs, frames] = timed(() => session.framesJson());
const [timelineMs, timeline] = timed(() => session.timelineJson());
const length = JSON.parse(timeline).length_us;
const [statesMs] = timed(() => session.stateBoxes(0, 0, length, 1280));
// The whole trace's CPUs: the first window makes the CPUs' overview, the next read it;
// a window of a hundredth of the trace reads the runs themselves.
const [cpusMs] = timed(() => session.cpuBoxes(0, length, 1280));
const [cpusAgainMs] = timed(() => session.cpuBoxes(length / 4, length, 1280));
const [cpusNarrowMs] = timed(() => session.cpuBoxes(length / 2, length / 2 + length / 100, 1280));
const [tracksMs] = timed(() => session.tracksJson());
console.log(JSON.stringify({ frames_json_ms: framesMs, frames_json_bytes: frames.length, timeline_json_ms: timelineMs,
  state_boxes_ms: statesMs, cpu_boxes_first_ms: cpusMs, cpu_boxes_wide_ms: cpusAgainMs, cpu_boxes_hundredth_ms: cpusNarrowMs,
  tracks_json_ms: tracksMs, wasm_bytes: exports.memory.buffer.byteLength }));
