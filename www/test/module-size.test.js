// Every page module is read in one sitting: at most 400 lines (tests and the bundled
// wasm glue aside).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LINES = 400;
const www = new URL('..', import.meta.url).pathname;

function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'test' || name === 'pkg' ? [] : modules(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

test('no page module is over 400 lines', () => {
  const files = modules(www);
  assert.ok(files.length > 40, 'the page modules were found: ' + files.length);
  const long = files
    .map((path) => [path.slice(www.length), readFileSync(path, 'utf8').split('\n').length - 1])
    .filter(([, lines]) => lines > MAX_LINES);
  assert.deepEqual(long, [], 'split these along a seam');
});
