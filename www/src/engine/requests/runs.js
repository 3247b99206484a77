// Requests of many runs of one scenario in two groups: each run read, reduced into its group
// and let go; the methods tested, a method's runs, a group's graph and call tree, and the
// graph of the groups' medians. Entries of the request table (../requests.js says what an
// entry holds).

import { analyzeInto, feed, sizeOf } from '../feed.js';
import { treeColumns } from '../sessions.js';

/** @typedef {import('../requests.js').Request} Request */

const json = (text) => JSON.parse(text);

/** @type {Record<string, Request>} */
export const RUNS_REQUESTS = {
  /** Opens an empty pair of groups measured on `clock` ('' for the first run's choice); resolves to their facts. */
  runsOpen: {
    calls: ['RunGroups.constructor', 'RunGroups.factsJson'],
    ask: (clock = '') => ({ clock }),
    answer(m, w) {
      w.dropRuns();
      w.runGroups = new w.wasm.RunGroups(m.clock || undefined);
      return w.runGroups.factsJson();
    },
    read: json,
  },
  /**
   * Reads one run (a file) into `group` (`before` or `after`) under `label`, its names from
   * the mapping file `mapping` if given (read again for each run, keeping only what that
   * run's classes need); resolves to `{facts, mapped}`: the groups' facts, and what the
   * mapping renamed (`{report, text}`) or null.
   */
  runsAdd: {
    calls: ['Session.constructor', 'Session.push', 'Session.endOfKeyFile', 'Session.finish', 'splitKeyIsSecond',
      'MappingRead.constructor', 'MappingRead.want', 'MappingRead.push', 'MappingRead.finish', 'MappingRead.applyTo',
      'RunGroups.add', 'RunGroups.factsJson'],
    ask: (group, label, inputs, progress, mapping = null) => ({ group, label, inputs, progress, mapping }),
    async answer(m, w) {
      w.runs();
      const run = new w.wasm.Session();
      let mapped = null;
      try {
        const traceSize = m.inputs.reduce((sum, input) => sum + sizeOf(input), 0);
        const whole = traceSize + (m.mapping ? sizeOf(m.mapping) : 0);
        const progress = (done) => w.progress(m.id, done, whole);
        await analyzeInto(run, m.inputs, w.wasm.splitKeyIsSecond, progress);
        if (m.mapping) mapped = await mapRun(w, run, m.mapping, (done) => progress(traceSize + done));
        w.runs().add(m.label, m.group, run);
      } finally {
        run.free();
      }
      if (w.runMedians) w.runMedians.free();
      w.runMedians = null;
      return { facts: w.runs().factsJson(), mapped };
    },
    read: (answer) => ({ facts: json(answer.facts), mapped: answer.mapped }),
  },
  /** Every method of the runs tested at false-discovery rate `alpha` (on shares with `share`). */
  runsMethods: {
    calls: ['RunGroups.methodsJson'],
    ask: (alpha, share) => ({ alpha, share }),
    answer: (m, w) => w.runs().methodsJson(m.alpha, Boolean(m.share)),
    read: json,
  },
  /** One method's totals run by run: `{before: [...], after: [...]}`. */
  runsMethodRuns: {
    calls: ['RunGroups.methodRunsJson'],
    ask: (method) => ({ method }),
    answer: (m, w) => w.runs().methodRunsJson(m.method),
    read: json,
  },
  /** A group's flame graph of `stat` (median, mean, sum) per stack. */
  runsGroupSvg: {
    calls: ['RunGroups.groupSvg'],
    ask: (group, stat, thread, theme) => ({ group, stat, thread, theme }),
    answer: (m, w) => w.runs().groupSvg(m.group, m.stat || undefined, m.thread || undefined, m.theme),
  },
  /**
   * The differential graph of the groups' medians, coloured where the methods changed as
   * the comparison at false-discovery rate `alpha` (on shares where `share`) finds, not by
   * size alone.
   */
  runsDiffSvg: {
    calls: ['RunGroups.medianComparison', 'RunGroups.changedNames', 'Comparison.diffSvg'],
    ask: (thread, widths, normalize, theme, colour, { alpha = 0.05, share = false, changedOnly = false } = {}) =>
      ({ thread, widths, normalize, theme, colour, alpha, share, changedOnly }),
    answer(m, w) {
      if (!w.runMedians) w.runMedians = w.runs().medianComparison();
      const shown = w.runs().changedNames(m.alpha, Boolean(m.share));
      return w.runMedians.diffSvg(m.thread || undefined, m.widths, Boolean(m.normalize), m.theme, m.colour, Boolean(m.changedOnly), shown);
    },
  },
  /** The call tree of `group`'s `stat` per stack, of the threads named `thread` ('' for all), as `tree` gives it. */
  runsTree: {
    calls: ['RunGroups.groupTree', 'CallTreeColumns.namesJson', 'CallTreeColumns.parent', 'CallTreeColumns.name',
      'CallTreeColumns.totalWall', 'CallTreeColumns.selfWall', 'CallTreeColumns.totalCpu', 'CallTreeColumns.selfCpu', 'CallTreeColumns.calls'],
    ask: (group, stat, thread) => ({ group, stat, thread }),
    answer: (m, w) => treeColumns(w.runs().groupTree(m.group, m.stat || undefined, m.thread || undefined)),
  },
  /** Lets the runs go. */
  runsClose: {
    calls: [],
    ask: () => ({}),
    answer(m, w) {
      w.dropRuns();
      return null;
    },
  },
};

/** `run`'s names from the mapping file `input`: `{report, text}` as `mappings` answers. */
export async function mapRun(w, run, input, progress) {
  const read = new w.wasm.MappingRead();
  try {
    read.want(run);
    let done = 0;
    try {
      await feed(read, input, (n) => progress(done += n));
      read.finish();
    } catch (error) {
      throw new Error((input.name || 'the mapping') + ': ' + error.message);
    }
    return JSON.parse(read.applyTo(run));
  } finally {
    read.free();
  }
}
