// Where each track of the timeline goes, below its fixed header (the time axis and the
// frame lanes). The chosen thread comes first, as a flame chart, then the threads pinned
// beside it (by thread id: a frame pins its app's main thread and RenderThreads), then the
// CPUs. With no thread chosen ("All threads"), every process follows as a group of
// compact lanes with its counters, each group open or closed; counters of no process
// last. A thread's track is its name, then its CPU samples as ticks, its scheduler states
// as a strip, and its calls, as far as the trace has each. Pure: the canvas draws what
// this lays out, and the pointer finds what is under it here.

export const AXIS = 22; // px: the time axis
export const HEAD = 15; // px: a track's name
export const ROW = 17; // px per depth of the chosen and pinned threads
export const LANE_ROW = 5; // px per depth of a thread in a group
export const LANE_DEPTHS = 8; // depths drawn of a thread in a group
export const BESIDE_DEPTHS = 40; // depths drawn of the chosen thread beside the CPUs
export const PIN_DEPTHS = 12; // depths drawn at most of each thread where threads are pinned
const FEWEST_DEPTHS = 3; // depths drawn at least of each, however little room there is
export const MAX_DEPTHS = 256; // depths drawn of a thread shown alone
export const MARKS = 4; // px: CPU samples' ticks
export const STRIP = 8; // px: scheduler states of a chosen or pinned thread
export const LANE_STRIP = 4; // px: the same in a group
export const CPU_ROW = 12; // px per CPU
export const COUNTER_ROW = 26; // px per counter
export const GROUP = 18; // px: a process's heading
const GAP = 6; // px after a track
const MANY_THREADS = 40; // above this many threads, groups open only where asked

/** The key of a process's group in `timelineGroups` (null: the threads of no process). */
export const groupKey = (pid) => (pid === null || pid === undefined ? 'none' : String(pid));

/**
 * The catalog's thread (`tracksJson`'s) by tid, with its process: a Map of tid to
 * `{thread, process}`.
 */
export function threadsByTid(catalog) {
  const found = new Map();
  for (const process of catalog.processes) for (const thread of process.threads) found.set(thread.tid, { thread, process });
  return found;
}

/**
 * The tracks of `state` (`thread`, `summary`, `pins`, `timelineGroups`, `timelineDeep`) from the core's
 * `catalog` and the timeline's `facts` (its counters, each thread's depths), laid out from y = 0: `{tracks,
 * height}`. Each track has `key`, `kind` (`thread`, `cpus`, `group`, `counter`), `top` and
 * `height`; a thread's also `tid`, `thread` (its index in the summary, null where the
 * source shown lacks it), `label`, `pinned`, `chosen`, `rowHeight`, `depths` (drawn),
 * `skip` (outer depths left out), `allDepths`, and the tops of its parts: `marks`, `strip` (`{top, height}` or null) and
 * `rows`; a group's `pid`, `label`, `open`, `count`; a counter's `counter`. Where threads
 * are pinned, each shows as many depths as let them and the CPUs fit `room` px.
 */
export function layoutTracks(catalog, facts, state, room = Infinity) {
  const byTid = threadsByTid(catalog);
  const tracks = [];
  let top = 0;
  const chosen = state.thread >= 0 ? state.summary.threads[state.thread] : null;
  const pins = (state.pins || []).filter((tid) => byTid.has(tid) && (!chosen || tid !== chosen.tid));
  const alone = chosen && ((pins.length === 0 && !(catalog.cpus > 0)) || state.timelineDeep);
  // Where threads are pinned: the depths each can show with the others and the CPUs in view.
  const pinned = [...(chosen ? [byTid.get(chosen.tid)] : []), ...pins.map((tid) => byTid.get(tid))].filter(Boolean);
  const fixed = pinned.reduce((sum, e) => sum + HEAD + (e.thread.samples > 0 ? MARKS : 0) + (e.thread.states > 0 ? STRIP + 1 : 0) + GAP, 0) +
    (catalog.cpus > 0 ? HEAD + catalog.cpus * CPU_ROW + GAP : 0);
  const fit = Math.floor((room - fixed) / (ROW * Math.max(pinned.length, 1)));
  const pinDepths = Math.max(FEWEST_DEPTHS, Math.min(PIN_DEPTHS, Number.isFinite(fit) ? fit : PIN_DEPTHS));

  function thread(entry, kind) {
    const { thread: t } = entry;
    const full = kind !== 'lane';
    // Pinned threads and the CPUs fit one screen with the chosen thread; a click on its
    // name shows all its depths (`timelineDeep`).
    const limit = kind === 'lane' ? LANE_DEPTHS : kind === 'chosen' && alone ? MAX_DEPTHS
      : pins.length > 0 ? pinDepths : BESIDE_DEPTHS;
    const all = t.shown === null ? 0 : t.depths;
    // Fewer depths drawn than the thread has: the outer frames every one of its stacks
    // shares (`__libc_init` to `Looper.loop`) are left out first.
    const skip = all > limit ? Math.min(t.shared || 0, all - limit) : 0;
    const depths = Math.min(all - skip, limit);
    const rowHeight = full ? ROW : LANE_ROW;
    const marks = t.samples > 0 ? { top: top + HEAD, height: MARKS } : null;
    const stripTop = top + HEAD + (marks ? MARKS : 0);
    const strip = t.states > 0 ? { top: stripTop, height: full ? STRIP : LANE_STRIP } : null;
    const rows = stripTop + (strip ? strip.height + 1 : 0);
    const height = rows - top + depths * rowHeight + GAP;
    tracks.push({
      key: 't:' + t.tid, kind: 'thread', top, height, tid: t.tid, thread: t.shown, label: t.label, pid: entry.process.pid,
      pinned: kind === 'pin', chosen: kind === 'chosen', rowHeight, depths, skip, allDepths: t.depths, marks, strip, rows,
      first_us: t.first_us, last_us: t.last_us,
    });
    top += height;
  }

  if (chosen) {
    const entry = byTid.get(chosen.tid);
    // A thread the catalog lacks (a heap, a track of spans) is still drawn from the summary.
    thread(entry && entry.thread.shown === state.thread ? entry : {
      thread: { tid: chosen.tid, shown: state.thread, label: chosen.name, depths: facts.threads[state.thread]?.depths ?? 0, samples: 0, states: 0 },
      process: { pid: chosen.pid ?? null },
    }, 'chosen');
  }
  for (const tid of pins) thread(byTid.get(tid), 'pin');
  if (catalog.cpus > 0) {
    const height = HEAD + catalog.cpus * CPU_ROW + GAP;
    tracks.push({ key: 'cpus', kind: 'cpus', top, height, rows: top + HEAD, cpus: catalog.cpus });
    top += height;
  }
  if (!chosen) {
    const threadCount = catalog.processes.reduce((sum, p) => sum + p.threads.length, 0);
    const groups = state.timelineGroups || {};
    const counterOf = new Map(facts.counters.map((c) => [c.index, c]));
    const addCounters = (indices) => {
      for (const index of indices) {
        const counter = counterOf.get(index);
        if (!counter) continue;
        tracks.push({ key: 'c:' + index, kind: 'counter', top, height: COUNTER_ROW, counter });
        top += COUNTER_ROW;
      }
    };
    for (const process of catalog.processes) {
      const key = groupKey(process.pid);
      const pinnedHere = process.threads.some((t) => pins.includes(t.tid));
      const open = key in groups ? groups[key] : threadCount <= MANY_THREADS || pinnedHere;
      const label = (process.name || (process.pid === null ? 'Threads of no known process' : 'Process')) +
        (process.pid !== null ? ' (pid ' + process.pid + ')' : '');
      tracks.push({ key: 'g:' + key, kind: 'group', top, height: GROUP, pid: process.pid, label, open, count: process.threads.length });
      top += GROUP;
      if (!open) continue;
      for (const t of process.threads) if (!pins.includes(t.tid)) thread({ thread: t, process }, 'lane');
      addCounters(process.counters);
    }
    if (catalog.counters.length > 0) {
      const key = groupKey(null) + '-counters';
      const open = key in groups ? groups[key] : true;
      tracks.push({ key: 'g:' + key, kind: 'group', top, height: GROUP, pid: null, label: 'Counters of the system', open, count: catalog.counters.length, counters: true });
      top += GROUP;
      if (open) addCounters(catalog.counters);
    }
  }
  return { tracks, height: top };
}

/** The tracks that show between `from` and `to` (content y). */
export function tracksIn(tracks, from, to) {
  return tracks.filter((t) => t.top < to && t.top + t.height > from);
}

/**
 * What is at content y `y` of track `track`: `{part: 'head' | 'marks' | 'strip' | 'rows' |
 * 'cpu' | 'counter' | 'group', depth?, cpu?}`; null past its parts.
 */
export function partAt(track, y) {
  if (!track || y < track.top || y >= track.top + track.height) return null;
  if (track.kind === 'group') return { part: 'group' };
  if (track.kind === 'counter') return { part: 'counter' };
  if (y < track.top + HEAD) return { part: 'head' };
  if (track.kind === 'cpus') {
    const cpu = Math.floor((y - track.rows) / CPU_ROW);
    return cpu >= 0 && cpu < track.cpus ? { part: 'cpu', cpu } : null;
  }
  if (track.marks && y < track.marks.top + track.marks.height) return { part: 'marks' };
  if (track.strip && y >= track.strip.top - 1 && y < track.strip.top + track.strip.height + 1) return { part: 'strip' };
  const depth = Math.floor((y - track.rows) / track.rowHeight);
  return depth >= 0 && depth < track.depths ? { part: 'rows', depth } : null;
}

/** The track at content y `y`, or null. */
export function trackAt(tracks, y) {
  // Tracks are in order: a binary search keeps a pointer move cheap with 1,000s of them.
  let lo = 0;
  let hi = tracks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tracks[mid];
    if (y < t.top) hi = mid - 1;
    else if (y >= t.top + t.height) lo = mid + 1;
    else return t;
  }
  return null;
}
