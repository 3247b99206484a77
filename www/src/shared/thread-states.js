// Scheduler states as the page shows them: their colours (light and dark), a call's time
// in each state as one line, and a state's hover lines. The states' keys and words are the
// core's (`state_legend`, `states`, `stateAt`).

import { timeText } from './timespan.js';

// Running stands out; waiting for a CPU (woken or preempted) is the question jank asks;
// sleeping recedes; uninterruptible sleep (I/O, kernel locks) warns, in a colour no frame
// tone has.
const COLOURS = {
  running: ['#2e7d32', '#66bb6a'],
  runnable: ['#9ccc65', '#c5e1a5'],
  preempted: ['#29b6f6', '#4fc3f7'],
  sleeping: ['#e3e3e3', '#3a3a3a'],
  uninterruptible: ['#8e24aa', '#ba68c8'],
};

/** A state's colour by its key (`running`, …) in the theme. */
export function stateColour(key, dark) {
  const pair = COLOURS[key] || ['#bdbdbd', '#616161'];
  return pair[dark ? 1 : 0];
}

/**
 * A call's time in each state, as one line (`Running 3.2 ms · Runnable 8.1 ms`); '' where
 * the trace has no states (`states` null) or none in the call's time.
 */
export function stateTimesLine(states) {
  if (!Array.isArray(states) || states.length === 0) return '';
  return states.map((s) => s.words + ' ' + timeText(s.us)).join(' · ');
}

/** The most time a call waited for a CPU (woken or preempted), in µs. */
export function waitingUs(states) {
  if (!Array.isArray(states)) return 0;
  return states.filter((s) => s.state === 'runnable' || s.state === 'preempted').reduce((sum, s) => sum + s.us, 0);
}

/** A state's hover lines: its words and length, then what the core knows of it. */
export function stateTipLines(state) {
  // Its ends to a tenth of its length: a 108 µs state reads 424.302–424.410 ms, not 424–424.
  const step = Math.max(state.dur_us / 10, 0.001);
  const lines = [state.words + ' for ' + timeText(state.dur_us), 'from ' + timeText(state.start_us, step) + ' to ' + timeText(state.end_us, step)];
  if (state.cpu !== null && state.cpu !== undefined) lines.push('on CPU ' + state.cpu);
  if (state.waker) lines.push('woken by ' + state.waker.name);
  if (state.blocked) lines.push('blocked in ' + state.blocked + (state.io_wait ? ' (waiting for I/O)' : ''));
  else if (state.io_wait) lines.push('waiting for I/O');
  return lines;
}

/**
 * A span's wakeups and CPUs as one line (`Woken 3 times, most by app [5] (2) · on CPU 2
 * 67%, 0 33% · I/O wait 1.2 ms`), from the core's scheduling of a thread; '' where it has
 * none of them (`scheduling` null: the trace has no states).
 */
export function schedulingLine(scheduling) {
  if (!scheduling) return '';
  const parts = [];
  if (scheduling.wakeups > 0) {
    const top = scheduling.wakers[0];
    parts.push('Woken ' + (scheduling.wakeups === 1 ? 'once' : scheduling.wakeups + ' times') + (top ? ', most by ' + top.name + ' (' + top.count + ')' : ''));
  }
  const running = scheduling.cpus.reduce((sum, c) => sum + c.us, 0);
  if (running > 0) {
    parts.push('on CPU ' + scheduling.cpus.map((c) => c.cpu + ' ' + Math.round((100 * c.us) / running) + '%').join(', '));
  }
  if (scheduling.io_wait_us > 0) parts.push('I/O wait ' + timeText(scheduling.io_wait_us));
  return parts.join(' · ');
}
