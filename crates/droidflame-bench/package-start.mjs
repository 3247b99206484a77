// The package as a script uses it on a small trace, in a fresh Node process: from importing
// it to the analysis with every thread's graph, start-up included. Prints one JSON line:
// each phase's milliseconds (import, compiling and instantiating the wasm, analysing) and
// the whole. `node crates/droidflame-bench/package-start.mjs FILE [--no-svg]`
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const began = performance.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = path.join(root, 'dist/pkg');
const droidflame = await import(pathToFileURL(path.join(pkg, 'index.js')).href);
const imported = performance.now();
await droidflame.initialize(fs.readFileSync(path.join(pkg, 'droidflame_bg.wasm')));
const started = performance.now();
const result = await droidflame.analyze(fs.readFileSync(process.argv[2]), { svg: !process.argv.includes('--no-svg') });
const done = performance.now();
console.log(JSON.stringify({
  import_ms: imported - began,
  start_ms: started - imported,
  analyze_ms: done - started,
  total_ms: done - began,
  threads: result.threads.length,
  svg_bytes: result.threads.reduce((n, t) => n + (t.svg ? t.svg.length : 0), 0),
}));
