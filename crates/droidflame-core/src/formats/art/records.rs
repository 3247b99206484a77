//! `ArtRecords`: ART's records in the builder's terms. Method and thread ids become frame
//! and thread slots, the record's action becomes an enter or an exit, 32-bit times are
//! unwrapped (wall times on one timeline across threads, thread-CPU times per thread), and
//! the first records of each thread are watched for the rhythm of a sampling trace.

use super::ids::IdIndex;
use crate::profile::{Doubt, FrameInfo, PerClock, Piece, PieceMark, ProfileBuilder, ThreadMark, TimeUnit};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// A record's action (its low two bits): a method is entered...
pub const ENTER: u8 = 0;
/// ...returns normally...
const EXIT: u8 = 1;
/// ...or is left by an exception. 3 means nothing and is counted as invalid.
const UNWIND: u8 = 2;

/// Method ids (ART's `index << 2`) below `DENSE_METHODS << 2` use a table.
const DENSE_METHODS: u64 = 1 << 20;
/// Thread ids below this use a table (V1 ids are u16).
pub const DENSE_THREADS: u64 = 1 << 16;
/// Records per thread looked at to tell a sampling trace from a tracing one.
const SAMPLING_WINDOW: u64 = 500;

/// Where a piece's clocks stood at one of its checkpoints, by the piece's thread slots:
/// each thread's only where it had a record in the piece (else it stands where the pieces
/// before left it, known at the join).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct PieceResume {
    pub(super) wall: Unwrap,
    pub(super) threads: Vec<Option<[Unwrap; 2]>>,
}

/// All a join reads of a later piece's records: where its clocks stand at its end, and
/// what each thread's first records were. Sent with a piece read on another worker.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct PieceClocks {
    wall: Unwrap,
    per_thread: Vec<ThreadRecords>,
}

/// Where the clocks stood at a piece's checkpoint, once joined: as `PieceResume`, by the
/// joined threads' slots, every thread's.
pub(super) struct JoinedClocks {
    pub(super) wall: Unwrap,
    pub(super) threads: Vec<[Unwrap; 2]>,
}

/// Unwraps a u32 tick counter that wraps every 2^32 ticks (71.6 min in µs).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Unwrap {
    last: u32,
    high: u64,
}

impl Unwrap {
    /// The common case, a forward step of less than half the range, costs one wrapping
    /// subtraction and one compare (the profile showed the two-sided test at 27 instructions
    /// a record for two clocks).
    #[inline(always)]
    pub fn next(&mut self, raw: u32, wraps: &mut u64) -> u64 {
        let step = raw.wrapping_sub(self.last);
        if step < 1 << 31 {
            if raw < self.last {
                // Forward across 2^32: the counter wrapped.
                self.high = self.high.saturating_add(1 << 32);
                *wraps += 1;
            }
        } else if raw > self.last && step > 1 << 31 && self.high > 0 {
            // A late value from just before the wrap: place it there, keep the state.
            return self.high - (1 << 32) + u64::from(raw);
        }
        self.last = raw;
        self.high + u64::from(raw)
    }

    /// Whether `raw`, read next, gives what a fresh unwrap gives it and leaves the state a
    /// fresh one would: no wrap before and none at `raw`. A piece read apart unwraps from
    /// fresh.
    pub fn joins(&self, raw: u32) -> bool {
        self.high == 0 && !(raw.wrapping_sub(self.last) < 1 << 31 && raw < self.last)
    }
}

/// A thread's first records on its first clock: when each valid one was, for the gaps
/// between them. Kept as read, not as gaps, so that a piece read apart joins on exactly.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct GapProbe {
    /// Records seen, valid or not.
    seen: u64,
    /// The time of each valid record seen.
    times: Vec<u64>,
    /// Where among the records seen each one that is not valid was.
    invalid: Vec<u64>,
    /// The first record's raw clock values: where a piece read apart began this thread.
    first_raw: [u32; 2],
}

impl GapProbe {
    #[inline(never)]
    fn observe(&mut self, valid: bool, time: u64, raw: [u32; 2]) {
        if self.seen == 0 {
            self.first_raw = raw;
        }
        if valid {
            self.times.push(time);
        } else {
            self.invalid.push(self.seen);
        }
        self.seen += 1;
    }

    /// The non-zero forward gaps between valid records.
    fn gaps(&self) -> impl Iterator<Item = u64> + '_ {
        self.times.windows(2).filter(|w| w[1] > w[0]).map(|w| w[1] - w[0])
    }

    /// The records of `later`, read after these, as far as the window goes.
    fn join(&mut self, later: &GapProbe) {
        let taken = later.seen.min(SAMPLING_WINDOW.saturating_sub(self.seen));
        let invalid = later.invalid.iter().filter(|&&at| at < taken);
        let valid = taken - invalid.clone().count() as u64;
        self.times.extend_from_slice(&later.times[..valid as usize]);
        self.invalid.extend(invalid.map(|at| at + self.seen));
        self.seen += taken;
    }
}

/// What ART keeps per thread between records.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct ThreadRecords {
    /// The thread's own unwrap of each clock; the wall clock uses it only when the trace's
    /// single clock is a thread-CPU clock.
    pub(super) unwrap: [Unwrap; 2],
    probe: GapProbe,
}

/// The frame of a method id, made (undescribed) on first use. Hot path.
#[inline(always)]
fn frame_of(frames: &mut MethodIds, id: u64, b: &mut ProfileBuilder) -> u32 {
    match frames.get(id) {
        Some(frame) => frame,
        None => new_frame(frames, id, b),
    }
}

#[cold]
fn new_frame(frames: &mut MethodIds, id: u64, b: &mut ProfileBuilder) -> u32 {
    let frame = b.frames.add_frame(id, None);
    frames.insert(id, frame);
    frame
}

type MethodIds = IdIndex<2, DENSE_METHODS>;

/// A record's action becomes an enter, an exit or a skipped event.
#[inline(always)]
fn act(thread: u32, frame: u32, action: u8, t: PerClock, b: &mut ProfileBuilder) {
    match action {
        ENTER => b.stacks.enter(thread, frame, t),
        EXIT | UNWIND => b.stacks.exit(thread, frame, t),
        _ => {
            b.stacks.skip_event(thread);
            b.facts.repairs.invalid_records += 1;
        }
    }
}

/// Records of one thread being read from a block: its state and the method ids, borrowed
/// apart.
pub struct ThreadBlock<'a> {
    frames: &'a mut MethodIds,
    state: &'a mut ThreadRecords,
    thread: u32,
}

impl ThreadBlock<'_> {
    /// A record of the block's thread. Hot path.
    #[inline(always)]
    pub fn record(&mut self, id: u64, action: u8, t: PerClock, b: &mut ProfileBuilder) {
        let frame = frame_of(self.frames, id, b);
        let probe = &mut self.state.probe;
        if probe.seen < SAMPLING_WINDOW {
            probe.observe(action <= UNWIND, t.wall, [0, 0]);
        }
        act(self.thread, frame, action, t, b);
    }
}

/// ART's ids and per-thread record state, between the decoders and the builder.
#[derive(Debug, Clone)]
pub struct ArtRecords {
    /// Method id -> frame.
    frames: MethodIds,
    /// Thread id as records carry it -> thread.
    pub(super) threads: IdIndex<0, DENSE_THREADS>,
    /// By thread slot.
    pub(super) per_thread: Vec<ThreadRecords>,
    /// The wall clock's unwrap, one for all threads.
    pub(super) wall: Unwrap,
    /// The trace's single clock is the thread-CPU clock, so its first clock is unwrapped
    /// per thread.
    pub cpu_only: bool,
    /// Thread names from lists (`*threads`, summaries), by the id the list gives.
    pub(super) listed: Vec<(u32, String)>,
    pub(super) listed_index: FxHashMap<u32, usize>,
}

impl ArtRecords {
    pub fn new() -> ArtRecords {
        ArtRecords {
            frames: IdIndex::new(),
            threads: IdIndex::new(),
            per_thread: Vec::new(),
            wall: Unwrap::default(),
            cpu_only: false,
            listed: Vec::new(),
            listed_index: FxHashMap::default(),
        }
    }

    // ---- methods -------------------------------------------------------------------

    /// Defines (or redefines: the last definition wins) a method id.
    pub fn define_method(&mut self, id: u64, info: FrameInfo, b: &mut ProfileBuilder) {
        match self.frames.get(id) {
            Some(frame) => b.frames.describe_frame(frame, info),
            None => {
                let frame = b.frames.add_frame(id, Some(info));
                self.frames.insert(id, frame);
            }
        }
    }

    pub fn is_method_defined(&self, id: u64, b: &ProfileBuilder) -> bool {
        self.frames.get(id).is_some_and(|frame| b.frames.is_described(frame))
    }

    // ---- threads -------------------------------------------------------------------

    /// The thread for a thread id as records carry it. Hot path.
    #[inline(always)]
    pub fn thread(&mut self, id: u32, b: &mut ProfileBuilder) -> u32 {
        match self.threads.get(u64::from(id)) {
            Some(thread) => thread,
            None => self.new_thread(id, None, b),
        }
    }

    /// A new thread for `id`, which from now on means it.
    #[cold]
    pub(super) fn new_thread(&mut self, id: u32, name: Option<String>, b: &mut ProfileBuilder) -> u32 {
        let thread = b.stacks.add_thread(id, name);
        self.threads.insert(u64::from(id), thread);
        if self.per_thread.len() <= thread as usize {
            self.per_thread.resize_with(thread as usize + 1, ThreadRecords::default);
        }
        thread
    }

    // ---- records -------------------------------------------------------------------
    // Each record indexes its thread's state afresh rather than borrowing it for a run of
    // records: older ART interleaves threads record by record, and setting up a run per
    // record cost more than the indexing it saved on long runs.

    /// A record of `thread` with 32-bit times (V1 layouts), which are unwrapped: `raw[0]`,
    /// wall (or the only clock), on the timeline all threads share, each value nearest the
    /// previous record of any thread, so threads stay aligned across a wrap; `raw[1]`,
    /// thread-CPU (`DUAL` only), per thread. Hot path.
    #[inline(always)]
    pub fn record32<const DUAL: bool>(
        &mut self,
        thread: u32,
        id: u64,
        action: u8,
        raw: [u32; 2],
        b: &mut ProfileBuilder,
    ) {
        let frame = frame_of(&mut self.frames, id, b);
        let state = &mut self.per_thread[thread as usize];
        let wraps = &mut b.facts.repairs.time_wraps;
        let first = if self.cpu_only { state.unwrap[0].next(raw[0], wraps) } else { self.wall.next(raw[0], wraps) };
        let cpu = if DUAL { state.unwrap[1].next(raw[1], wraps) } else { 0 };
        let t = PerClock::new(first, cpu);
        if state.probe.seen < SAMPLING_WINDOW {
            state.probe.observe(action <= UNWIND, t.wall, raw);
        }
        act(thread, frame, action, t, b);
    }

    /// Starts reading a block of `thread`'s records whose times are already whole (V2
    /// layouts write each thread's records in blocks of their own): the thread's state is
    /// borrowed once for the block.
    #[inline(always)]
    pub fn block(&mut self, thread: u32) -> ThreadBlock<'_> {
        ThreadBlock { frames: &mut self.frames, state: &mut self.per_thread[thread as usize], thread }
    }

    // ---- pieces --------------------------------------------------------------------

    /// Puts a piece read apart after the records read here: `later` is its state, read
    /// from fresh clocks starting with a record whose raw wall time is `first_wall`. The
    /// piece's new threads become this reading's, in the order the piece met them. A
    /// clock that wrapped, here, in the piece or between them, is a doubt: the piece's
    /// times would differ.
    pub(super) fn join_piece(
        &mut self,
        later: ArtRecords,
        piece: Piece,
        first_wall: u32,
        marked: &[(Vec<PieceMark>, PieceResume)],
        b: &mut ProfileBuilder,
    ) -> Result<Vec<(Vec<ThreadMark>, JoinedClocks)>, Doubt> {
        let before: Vec<[Unwrap; 2]> = self.per_thread.iter().map(|t| t.unwrap).collect();
        let wall_before = self.wall;
        let wrapped = b.facts.repairs.time_wraps > 0 || piece.builder.facts.repairs.time_wraps > 0;
        if wrapped || !(self.cpu_only || self.wall.joins(first_wall)) {
            return Err(Doubt);
        }
        let threads = piece.builder.stacks.thread_count();
        let mut slots = Vec::with_capacity(threads);
        for slot in 0..threads {
            let tid = piece.builder.stacks.tid(slot as u32);
            let here = match self.threads.get(u64::from(tid)) {
                Some(thread) => thread,
                None => self.new_thread(tid, None, b),
            };
            if self.per_thread.len() <= here as usize {
                self.per_thread.resize_with(here as usize + 1, ThreadRecords::default);
            }
            let state = &mut self.per_thread[here as usize];
            if let Some(records) = later.per_thread.get(slot).filter(|r| r.probe.seen > 0) {
                let raw = records.probe.first_raw;
                if !(state.unwrap[0].joins(raw[0]) && state.unwrap[1].joins(raw[1])) {
                    return Err(Doubt);
                }
                state.unwrap = records.unwrap;
                state.probe.join(&records.probe);
            }
            slots.push(here);
        }
        if b.limit_error().is_some() {
            return Err(Doubt);
        }
        if !self.cpu_only {
            self.wall = later.wall;
        }
        let marks: Vec<Vec<PieceMark>> = marked.iter().map(|(marks, _)| marks.clone()).collect();
        let joined = b.join_piece(piece, &slots, &marks)?;
        let resumes = marked.iter().map(|(_, resume)| {
            let mut threads = before.clone();
            threads.resize(self.per_thread.len(), Default::default());
            for (&slot, unwrap) in slots.iter().zip(&resume.threads) {
                if let Some(unwrap) = unwrap {
                    threads[slot as usize] = *unwrap;
                }
            }
            JoinedClocks { wall: if self.cpu_only { wall_before } else { resume.wall }, threads }
        });
        Ok(joined.into_iter().zip(resumes).collect())
    }

    /// What a join reads of this piece's records (`PieceClocks`).
    pub(super) fn piece_clocks(&self) -> PieceClocks {
        PieceClocks { wall: self.wall, per_thread: self.per_thread.clone() }
    }

    /// These records (a piece's, fresh after the header) as `clocks` were taken from the
    /// same piece read elsewhere.
    pub(super) fn set_piece_clocks(&mut self, clocks: PieceClocks) {
        (self.wall, self.per_thread) = (clocks.wall, clocks.per_thread);
    }

    /// Where this piece's clocks stand now (`PieceResume`).
    pub(super) fn piece_resume(&self) -> PieceResume {
        let threads = self.per_thread.iter().map(|t| (t.probe.seen > 0).then_some(t.unwrap)).collect();
        PieceResume { wall: self.wall, threads }
    }

    // ---- the end -------------------------------------------------------------------

    /// The first time of each thread on its first clock, for guessing an unnamed clock.
    pub fn first_times<'a>(&self, b: &'a ProfileBuilder) -> impl Iterator<Item = u64> + 'a {
        (0..b.stacks.thread_count() as u32).filter_map(|thread| b.stacks.first_time(thread)).map(|t| t.wall)
    }

    /// Sampling traces look like tracing ones; only their rhythm tells. Firefox Profiler's
    /// rule: the mean of the smallest 20% of non-zero gaps between a thread's first 500
    /// records is at least 100 µs. Returns that mean, in ticks, for a sampling trace.
    pub fn sampling_interval(&self, unit: TimeUnit) -> Option<u64> {
        let mut gaps: Vec<u64> = self.per_thread.iter().flat_map(|t| t.probe.gaps()).collect();
        if gaps.len() < 20 {
            return None;
        }
        gaps.sort_unstable();
        let lowest = &gaps[..gaps.len() / 5];
        let mean = lowest.iter().sum::<u64>() / lowest.len() as u64;
        (unit.micros(mean) >= 100).then_some(mean)
    }
}

#[cfg(test)]
mod tests {
    use super::Unwrap;

    /// The unwrap as first written, as the reference for the faster one.
    fn reference(state: &mut Unwrap, raw: u32, wraps: &mut u64) -> u64 {
        if raw < state.last && state.last - raw > 1 << 31 {
            state.high = state.high.saturating_add(1 << 32);
            *wraps += 1;
        } else if raw > state.last && raw - state.last > 1 << 31 && state.high > 0 {
            return state.high - (1 << 32) + u64::from(raw);
        }
        state.last = raw;
        state.high + u64::from(raw)
    }

    #[test]
    fn the_fast_unwrap_matches_the_reference_everywhere() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..2_000 {
            let (mut fast, mut slow) = (Unwrap::default(), Unwrap::default());
            let (mut fast_wraps, mut slow_wraps) = (0, 0);
            let mut raw = random() as u32;
            for _ in 0..200 {
                // Small steps both ways, steps near half the range, and jumps anywhere.
                raw = match random() % 6 {
                    0 | 1 => raw.wrapping_add((random() % 5000) as u32),
                    2 => raw.wrapping_sub((random() % 5000) as u32),
                    3 => raw.wrapping_add((1u32 << 31).wrapping_add((random() % 3) as u32).wrapping_sub(1)),
                    _ => random() as u32,
                };
                let a = fast.next(raw, &mut fast_wraps);
                let b = reference(&mut slow, raw, &mut slow_wraps);
                assert_eq!(
                    (a, fast.last, fast.high, fast_wraps),
                    (b, slow.last, slow.high, slow_wraps),
                    "round {round}"
                );
            }
        }
    }
}
