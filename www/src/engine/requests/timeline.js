// Requests of the timeline: its facts, a window's boxes (calls, scheduler states, CPUs,
// counters) merged to its pixels, what is at a point, and a window's short calls read again
// from the file. Entries of the request table (../requests.js says what an entry holds);
// those marked `fresh` are asked each time, by the products of the trace on show too.

import { readAgain } from '../feed.js';

/** @typedef {import('../requests.js').Request} Request */

const json = (text) => JSON.parse(text);

/** @type {Record<string, Request>} */
export const TIMELINE_REQUESTS = {
  /** The timeline's facts (length, per-thread span and depths) and the frame names. */
  timeline: {
    calls: ['Session.timelineJson', 'Session.frameNamesJson'],
    ask: (key) => ({ key }),
    answer(m, w) {
      const found = w.session(m.key);
      return { timeline: found.timelineJson(), names: found.frameNamesJson() };
    },
    read: (answer) => Object.assign(json(answer.timeline), { names: json(answer.names) }),
  },
  /**
   * A thread's boxes in a window, in the view `view` (its transforms: a timeline is never
   * inverted): `{boxes, made}`, a Float64Array of `depth, start_us, end_us, name` fours
   * (names index the timeline's names, then `made`: the names the view's transforms make).
   */
  boxes: {
    calls: ['Session.timelineBoxes', 'Session.madeNamesJson', 'Session.setView'],
    fresh: true,
    ask: (key, thread, from, to, pixels, maxDepth, view = '') => ({ key, thread, from, to, pixels, maxDepth, view }),
    answer(m, w) {
      const found = w.viewed(m.key, m.view || '');
      const boxes = new Float64Array(found.timelineBoxes(m.thread, m.from, m.to, m.pixels, m.maxDepth));
      return { boxes, made: m.view ? found.madeNamesJson() : '[]' };
    },
    read: (answer) => ({ boxes: answer.boxes, made: json(answer.made) }),
  },
  /** The box at `depth` running at `at` µs, in the view `view` (as `boxes`), with its path. */
  callAt: {
    calls: ['Session.callAtJson', 'Session.setView'],
    fresh: true,
    ask: (key, thread, depth, at, view = '') => ({ key, thread, depth, at, view }),
    answer: (m, w) => w.viewed(m.key, m.view || '').callAtJson(m.thread, m.depth, m.at),
    read: json,
  },
  /** A thread's scheduler states in a window: a Float64Array of `start_us, end_us, state, mixed` fours. */
  states: {
    calls: ['Session.stateBoxes'],
    fresh: true,
    ask: (key, thread, from, to, pixels) => ({ key, thread, from, to, pixels }),
    answer: (m, w) => new Float64Array(w.session(m.key).stateBoxes(m.thread, m.from, m.to, m.pixels)),
  },
  /**
   * Every thread's scheduling between `from` and `to` µs, whichever source is shown: time
   * per state, I/O wait, wakeups, top wakers and CPUs, the most running first.
   */
  scheduling: {
    calls: ['Session.schedulingJson'],
    fresh: true,
    ask: (key, from, to) => ({ key, from, to }),
    answer: (m, w) => w.session(m.key).schedulingJson(m.from, m.to),
    read: json,
  },
  /** The scheduler state of a thread at `at` µs, whole (null where unknown). */
  stateAt: {
    calls: ['Session.stateAtJson'],
    fresh: true,
    ask: (key, thread, at) => ({ key, thread, at }),
    answer: (m, w) => w.session(m.key).stateAtJson(m.thread, m.at),
    read: json,
  },
  /**
   * What every CPU ran in a window, whichever source is shown: a Float64Array of `cpu,
   * start_us, end_us, pid, mixed` fives (pid -1: unknown).
   */
  cpus: {
    calls: ['Session.cpuBoxes'],
    fresh: true,
    ask: (key, from, to, pixels) => ({ key, from, to, pixels }),
    answer: (m, w) => new Float64Array(w.session(m.key).cpuBoxes(m.from, m.to, m.pixels)),
  },
  /** The thread on `cpu` at `at` µs with its state (null where none). */
  cpuAt: {
    calls: ['Session.cpuAtJson'],
    fresh: true,
    ask: (key, cpu, at) => ({ key, cpu, at }),
    answer: (m, w) => w.session(m.key).cpuAtJson(m.cpu, m.at),
    read: json,
  },
  /**
   * What the timeline can show as tracks, by process (threads by tid across sources, with
   * what each has: calls, states, samples), the CPUs and the span with thread data.
   */
  tracks: {
    calls: ['Session.tracksJson'],
    ask: (key) => ({ key }),
    answer: (m, w) => w.session(m.key).tracksJson(),
    read: json,
  },
  /** Thread `tid`'s scheduler states in a window, as `states` gives a thread's. */
  threadStates: {
    calls: ['Session.threadStateBoxes'],
    fresh: true,
    ask: (key, tid, from, to, pixels) => ({ key, tid, from, to, pixels }),
    answer: (m, w) => new Float64Array(w.session(m.key).threadStateBoxes(m.tid, m.from, m.to, m.pixels)),
  },
  /** Thread `tid`'s scheduler state at `at` µs, whole (null where unknown). */
  threadStateAt: {
    calls: ['Session.threadStateAtJson'],
    fresh: true,
    ask: (key, tid, at) => ({ key, tid, at }),
    answer: (m, w) => w.session(m.key).threadStateAtJson(m.tid, m.at),
    read: json,
  },
  /** Thread `tid`'s CPU samples in a window: a Float64Array of `start_us, end_us, count` threes. */
  sampleMarks: {
    calls: ['Session.sampleMarks'],
    fresh: true,
    ask: (key, tid, from, to, pixels) => ({ key, tid, from, to, pixels }),
    answer: (m, w) => new Float64Array(w.session(m.key).sampleMarks(m.tid, m.from, m.to, m.pixels)),
  },
  /** Thread `tid`'s samples between `from` and `to` µs by its state: `{total, unknown, states}`. */
  samplesInStates: {
    calls: ['Session.samplesInStatesJson'],
    fresh: true,
    ask: (key, tid, from, to) => ({ key, tid, from, to }),
    answer: (m, w) => w.session(m.key).samplesInStatesJson(m.tid, m.from, m.to),
    read: json,
  },
  /**
   * Thread `tid`'s CPU sample nearest the middle of `from..to` µs, with its stack:
   * `{time_us, count, frames}` (root first), or null.
   */
  sampleAt: {
    calls: ['Session.sampleAtJson'],
    fresh: true,
    ask: (key, tid, from, to) => ({ key, tid, from, to }),
    answer: (m, w) => w.session(m.key).sampleAtJson(m.tid, m.from, m.to),
    read: json,
  },
  /** A counter's steps in a window: a Float64Array of `start_us, end_us, min, max` fours. */
  counterSteps: {
    calls: ['Session.counterSteps'],
    fresh: true,
    ask: (key, counter, from, to, pixels) => ({ key, counter, from, to, pixels }),
    answer: (m, w) => new Float64Array(w.session(m.key).counterSteps(m.counter, m.from, m.to, m.pixels)),
  },
  /** A counter's value at `at` µs: `{value, since_us}` (null before its first). */
  counterAt: {
    calls: ['Session.counterAtJson'],
    fresh: true,
    ask: (key, counter, at) => ({ key, counter, at }),
    answer: (m, w) => w.session(m.key).counterAtJson(m.counter, m.at),
    read: json,
  },
  /**
   * Reads every call of one thread between `from` and `to` µs again, short ones included;
   * `progress(bytes)` while reading. Resolves to `{cancelled}`: true when a newer request
   * took over.
   */
  detail: {
    calls: ['Session.rereadStart', 'Session.rereadPush', 'Session.rereadFinish'],
    fresh: true,
    ask: (key, thread, from, to, progress) => ({ key, thread, from, to, progress }),
    async answer(m, w) {
      const found = w.session(m.key);
      const input = w.inputsOf.get(m.key);
      if (!input) throw new Error('the file is not at hand to read again; open it again');
      const run = ++w.rereadRun;
      const offset = found.rereadStart(m.thread, m.from, m.to);
      const reading = { push: (chunk) => found.rereadPush(chunk) };
      let finished;
      try {
        finished = await readAgain(reading, input, offset, () => run !== w.rereadRun, (read) => w.progress(m.id, read, 0));
      } catch (error) {
        // The browser refuses to read a file changed or removed since it was picked.
        if (!['NotReadableError', 'NotFoundError'].includes(error && error.name)) throw error;
        throw new Error('the file could not be read again (was it changed or moved since it was opened?): ' + error.message);
      }
      if (finished) found.rereadFinish();
      return { cancelled: !finished };
    },
  },
};
