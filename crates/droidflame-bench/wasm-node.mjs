// The same core, built for wasm32, under Node: streams FILE through dist/pkg in 1 MiB
// reads and prints one JSON line (time, records, wasm heap size).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = path.join(root, 'dist/pkg');
const { default: init, Session } = await import(pathToFileURL(path.join(pkg, 'droidflame.js')).href);
const exports = await init({ module_or_path: fs.readFileSync(path.join(pkg, 'droidflame_bg.wasm')) });

const file = process.argv[2];
const started = process.hrtime.bigint();
const session = new Session();
const fd = fs.openSync(file, 'r');
const buffer = new Uint8Array(1 << 20);
let bytes = 0;
for (;;) {
  const n = fs.readSync(fd, buffer, 0, buffer.length, null);
  if (n === 0) break;
  bytes += n;
  session.push(buffer.subarray(0, n));
}
fs.closeSync(fd);
session.finish();
const analyzeS = Number(process.hrtime.bigint() - started) / 1e9;
const summary = JSON.parse(session.summaryJson());
console.log(JSON.stringify({ bytes, records: summary.records, analyze_s: analyzeS, wasm_bytes: exports.memory.buffer.byteLength }));
