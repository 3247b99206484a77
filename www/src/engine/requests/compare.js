// Requests of a comparison of two analyses: made in a view, its differential graph and
// folded stacks, and the methods' deltas. Entries of the request table (../requests.js
// says what an entry holds).

/** @typedef {import('../requests.js').Request} Request */

const json = (text) => JSON.parse(text);

/** @type {Record<string, Request>} */
export const COMPARE_REQUESTS = {
  /**
   * Compares the analyses under `before` and `after` (kept under `key` until either is
   * released), both in the view `view` (as `svg`; the frames it names are before's):
   * resolves to `{clock, warnings, threads: [{name, before_us, after_us}]}`.
   */
  compare: {
    calls: ['Session.compareWith', 'Session.setView', 'Comparison.factsJson'],
    ask: (key, before, after, clock, view = '') => ({ key, before, after, clock, view }),
    answer(m, w) {
      const made = w.viewed(m.before, m.view || '').compareWith(w.session(m.after), m.clock || undefined);
      const old = w.comparisons.get(m.key);
      if (old) old.comparison.free();
      w.comparisons.set(m.key, { comparison: made, before: m.before, after: m.after });
      return made.factsJson();
    },
    read: json,
  },
  /** The differential flame graph of one thread name ('' for all threads). */
  diffSvg: {
    calls: ['Comparison.diffSvg'],
    ask: (key, thread, widths, normalize, theme, colour = 'self', changedOnly = false) =>
      ({ key, thread, widths, normalize, theme, colour, changedOnly }),
    answer: (m, w) => w.comparison(m.key).comparison
      .diffSvg(m.thread || undefined, m.widths, Boolean(m.normalize), m.theme, m.colour, Boolean(m.changedOnly)),
  },
  /** The differential folded stacks, `stack before_us after_us` a line. */
  diffFolded: {
    calls: ['Comparison.folded'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.comparison(m.key).comparison.folded(),
  },
  /** Method deltas of one thread name ('' for all threads) on `clock`, in the view `view` (as `methods`). */
  methodDeltas: {
    calls: ['Session.methodDeltasJson', 'Session.setView'],
    ask: (key, clock, thread, view = '') => ({ key, clock, thread, view }),
    answer(m, w) {
      const found = w.comparison(m.key);
      return w.viewed(found.before, m.view || '').methodDeltasJson(w.session(found.after), m.clock, m.thread || undefined);
    },
    read: json,
  },
};
