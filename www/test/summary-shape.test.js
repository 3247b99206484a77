// The JSON the Rust golden tests write conforms to the shape the page describes
// (summary-shape.js): every key it names is there with its type, and none it does not
// know. A change to the core's JSON fails here until the page's description follows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { golden, goldenDir } from './golden.js';
import { METHODS_TABLE_SHAPE, MAPPING_REPORT_SHAPE, SUMMARY_SHAPE, shapeProblems } from '../src/shared/summary-shape.js';

const files = (pattern) => fs.readdirSync(goldenDir).filter((name) => pattern.test(name)).sort();

test('every summary the golden tests write has the shape the page knows', () => {
  const summaries = files(/\.summary(-head)?\.json$/);
  assert.ok(summaries.length >= 5, 'the golden summaries are found: ' + summaries.join(', '));
  for (const name of summaries) {
    const summary = golden(name);
    assert.deepEqual(shapeProblems(summary, SUMMARY_SHAPE), [], name);
    // The page names each clock it offers in the core's words, and opens on one it offers.
    assert.deepEqual(Object.keys(summary.format.clock_words).sort(), [...summary.format.clocks].sort(), name);
    assert.ok(summary.format.clocks.includes(summary.format.default_clock), name);
  }
});

test('the methods tables and a mapping\'s report have the shapes the page knows', () => {
  const tables = files(/\.methods\..*\.json$/);
  assert.ok(tables.length >= 2, tables.join(', '));
  for (const name of tables) assert.deepEqual(shapeProblems(golden(name), METHODS_TABLE_SHAPE), [], name);
  const deobfuscated = golden('obfuscated-r8.deobfuscated.json');
  assert.deepEqual(shapeProblems(deobfuscated.mapping, MAPPING_REPORT_SHAPE), []);
  // Renamed methods carry the name the trace gave them (`[name, signature, source, obfuscated]`).
  assert.ok(deobfuscated.methods.some((m) => typeof m[3] === 'string'));
});

test('a field added, renamed, dropped or retyped is found', () => {
  const summary = golden('perflib-exception.trace.summary.json');
  summary.format.clock_unit = 'µs';
  delete summary.format.frame_kind;
  summary.threads[0].wall_us = '60';
  summary.format.clocks.push('gpu');
  summary.threads[0].running_us = null;
  assert.deepEqual(shapeProblems(summary, SUMMARY_SHAPE), [
    '.format.clocks[2] is "gpu", not one of wall, cpu',
    '.format.frame_kind is missing',
    '.format.clock_unit is not in the shape the page knows',
    '.threads[0].wall_us is "60", not a number',
    '.threads[0].running_us is null, not a number',
  ]);
  assert.deepEqual(shapeProblems([], SUMMARY_SHAPE), ['the value is an array, not an object']);
});
