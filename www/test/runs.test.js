import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mappingOf, mappingProblem, medianChange, powerShortfall, newRuns, probabilityText, proposeGroups, proposeMappingGroups, shortLabels, sideOf, smallestP,
  ratioText, spreadPixels, verdictText, verdictWhy,
} from '../src/runs/run-groups.js';

test('two folders of the same names, their paths lost: the first of each name before, the second after', () => {
  const names = ['run1.trace', 'run2.trace', 'run3.trace', 'run1.trace (2)', 'run2.trace (2)', 'run3.trace (2)'];
  const proposal = proposeGroups(names);
  assert.deepEqual(proposal.groups, ['before', 'before', 'before', 'after', 'after', 'after']);
  assert.match(proposal.why, /each name twice/);
  // A name three times is no pair of folders.
  assert.equal(proposeGroups([...names, 'run1.trace (3)']).why, null);
});

test('groups come from a pair of side words in the names', () => {
  const names = ['before-01.trace', 'after-01.trace', 'before-02.trace', 'after-02.trace'];
  const proposal = proposeGroups(names);
  assert.deepEqual(proposal.groups, ['before', 'after', 'before', 'after']);
  assert.match(proposal.why, /before.*after/);
  assert.deepEqual(proposeGroups(['base_1.trace', 'head_1.trace']).groups, ['before', 'after']);
  // A name with both words, or neither, is left for the person to place.
  assert.deepEqual(proposeGroups(['before-after.trace', 'before.trace', 'after.trace']).groups, ['', 'before', 'after']);
});

test('else from the one place where names hold two values, each at least twice', () => {
  const names = ['app-v2-01.trace', 'app-v10-01.trace', 'app-v2-02.trace', 'app-v10-02.trace'];
  const proposal = proposeGroups(names);
  // Numbers sort as numbers: v2 comes before v10.
  assert.deepEqual(proposal.groups, ['before', 'after', 'before', 'after']);
  assert.equal(proposal.why, '“v2” and “v10” in the names');
  // Run numbers are not groups: five values, or two values once each, tell nothing.
  assert.equal(proposeGroups(['run-1.trace', 'run-2.trace', 'run-3.trace']).why, null);
  assert.deepEqual(proposeGroups(['x-a.trace', 'x-b.trace']).groups, ['', '']);
});

test('a spread strip spans both sides, least to most, with room at the ends', () => {
  const before = { excl_min_us: 10, excl_q1_us: 20, excl_median_us: 25, excl_q3_us: 30, excl_max_us: 50 };
  const after = { excl_min_us: 40, excl_q1_us: 60, excl_median_us: 70, excl_q3_us: 80, excl_max_us: 100 };
  // 10..100 with 4.5 of room each side: 5.5..104.5 over 99 pixels.
  const p = spreadPixels({ before, after }, 99);
  assert.deepEqual(p.before, { min: 4.5, q1: 14.5, median: 19.5, q3: 24.5, max: 44.5 });
  assert.equal(p.after.max, 94.5);
  const flat = { excl_min_us: 5, excl_q1_us: 5, excl_median_us: 5, excl_q3_us: 5, excl_max_us: 5 };
  assert.deepEqual(spreadPixels({ before: flat, after: flat }, 80).before, { min: 40, q1: 40, median: 40, q3: 40, max: 40 });
});

test('p-values, verdicts and changes read as words', () => {
  assert.equal(probabilityText(0.000011), '< 0.0001');
  assert.equal(probabilityText(0.01234), '0.0123');
  assert.equal(probabilityText(0.05), '0.05');
  assert.equal(probabilityText(1), '1');
  assert.equal(verdictText({ verdict: 'unchanged', evidence: '-' }), 'unchanged');
  assert.equal(verdictText({ verdict: 'slower', evidence: 'corrected test' }), 'slower (significant)');
  assert.equal(verdictText({ verdict: 'slower', evidence: 'every run' }), 'slower: every run');
  assert.match(verdictWhy({ verdict: 'slower', evidence: 'every run', q_value: 0.0671, shift_confidence: 0.987 }),
    /^Every run after is slower than every run before.*98% interval leaves out 0; too few runs for the corrected test\.$/);
  assert.equal(ratioText(16.62), '16.6×');
  assert.equal(ratioText(0.912), '0.91×');
  assert.equal(ratioText(null), '—');
  assert.equal(medianChange({ before: { excl_median_us: 200 }, after: { excl_median_us: 250 } }), 25);
  assert.equal(medianChange({ before: { excl_median_us: 0 }, after: { excl_median_us: 5 } }), null);
});

test('mapping files go to the groups their names say, else one for both or the first before', () => {
  assert.deepEqual(proposeMappingGroups(['mapping.txt']), ['both']);
  assert.deepEqual(proposeMappingGroups(['after/mapping.txt', 'before/mapping.txt']), ['after', 'before']);
  assert.deepEqual(proposeMappingGroups(['v1/mapping.txt', 'v2/mapping.txt']), ['before', 'after']);
  const both = [{ name: 'a.txt', group: 'both' }];
  assert.equal(mappingOf(both, 'after'), both[0]);
  assert.equal(mappingOf([{ name: 'a.txt', group: 'before' }], 'after'), null);
  assert.equal(mappingOf([{ name: 'a.txt', group: '' }], 'before'), null);
  assert.equal(mappingProblem([{ name: 'a.txt', group: 'before' }, { name: 'b.txt', group: 'after' }]), '');
  assert.equal(mappingProblem([{ name: 'a.txt', group: 'both' }, { name: 'b.txt', group: 'after' }]),
    'a.txt and b.txt would both rename the runs after the change: choose one for each group.');
});

test('too few runs to find one change among many methods says so, and how many would do', () => {
  assert.equal(smallestP(5, 5), 2 / 252);
  assert.equal(smallestP(1, 1), 1);
  assert.equal(smallestP(3, 4), 2 / 35);
  // 5 a side, 42 methods: q at best 42 × 2/252 = 0.33; 8 a side: 42 × 2/12870 < 0.05.
  const short = powerShortfall(5, 5, 42, 0.05);
  assert.ok(Math.abs(short.best - 1 / 3) < 1e-12);
  assert.equal(short.needed, 7);
  assert.ok(smallestP(7, 7) * 42 <= 0.05 && smallestP(6, 6) * 42 > 0.05);
  assert.equal(powerShortfall(10, 10, 42, 0.05), null);
});

test('one name alone says its group by a side word of its own', () => {
  assert.equal(sideOf('runs/before-00.trace'), 'before');
  assert.equal(sideOf('candidate_3.trace'), 'after');
  assert.equal(sideOf('before-and-after.trace'), '');
  assert.equal(sideOf('run-03.trace'), '');
});

test('a later drop adds the runs not yet held; a new file of a taken name is named apart', () => {
  const file = (name, size, lastModified) => ({ file: { name, lastModified }, name, size, group: 'before' });
  const current = [file('r1.trace', 10, 1), file('r2.trace', 10, 1)];
  const added = newRuns(current, [file('r1.trace', 10, 1), file('r2.trace', 12, 5), file('r3.trace', 10, 1)]);
  // r1 is the same file again; r2 another file of the same name (another folder's).
  assert.deepEqual(added.map((e) => e.name), ['r2.trace (2)', 'r3.trace']);
  assert.deepEqual(newRuns(current.concat(added), [file('r2.trace', 99, 9)]).map((e) => e.name), ['r2.trace (3)']);
  // A file named apart, dropped again, is still the same file.
  assert.deepEqual(newRuns(current.concat(added), [file('r2.trace', 12, 5)]), []);
});

test('run labels lose only the folders all of them share', () => {
  assert.deepEqual(shortLabels(['runs/before/r1.trace', 'runs/after/r1.trace']), ['before/r1.trace', 'after/r1.trace']);
  assert.deepEqual(shortLabels(['a/r1.trace', 'a/r2.trace']), ['r1.trace', 'r2.trace']);
  assert.deepEqual(shortLabels(['r1.trace', 'x/r2.trace']), ['r1.trace', 'x/r2.trace']);
  assert.deepEqual(shortLabels(['C:\\runs\\r1.trace']), ['r1.trace']);
});
