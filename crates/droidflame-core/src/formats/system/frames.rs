//! App frames derived from slices, for captures without a frame timeline (older Android,
//! atrace text): an app draws a frame in a `Choreographer#doFrame` slice on its UI thread,
//! and its RenderThread finishes it in the next `DrawFrame` slice. A derived frame runs from
//! the doFrame's start to the later of its end and that DrawFrame's end; its deadline is one
//! display refresh, measured from the compositor's `VSYNC-app` counter (each write is one
//! refresh) where the capture has it.

use crate::profile::{AppFrame, RENDER_THREAD};
use rustc_hash::FxHashMap;

const DO_FRAME: u8 = 1;
const DRAW_FRAME: u8 = 2;
/// Refreshes measured at most: enough for a median, bounded whatever the capture's length.
const MAX_VSYNCS: usize = 4096;
/// The refresh assumed where the capture does not say: 60 Hz.
const ASSUMED_PERIOD_NS: u64 = 16_666_667;

/// A slice that marks a frame, open.
#[derive(Debug, Clone, Copy)]
struct Open {
    kind: u8,
    /// The thread's stack depth below it.
    depth: usize,
    start: u64,
    token: i64,
}

/// A frame slice that ended, on thread `t` (the model's index).
#[derive(Debug, Clone, Copy)]
struct Done {
    t: usize,
    kind: u8,
    start: u64,
    end: u64,
    token: i64,
}

/// Frame slices being read.
#[derive(Debug, Default)]
pub struct FrameSlices {
    /// The kind of each slice name (by frame), 0 for none.
    kinds: Vec<u8>,
    /// A doFrame's token (the vsync id Android writes after its name), by frame.
    tokens: FxHashMap<u32, i64>,
    /// By thread index.
    open: Vec<Option<Open>>,
    /// How many of `open` are.
    opened: usize,
    done: Vec<Done>,
    /// Times of `VSYNC-app` writes.
    vsyncs: Vec<u64>,
}

/// A thread as the derivation needs it: its id, process and name.
pub struct ThreadFacts<'a> {
    pub tid: u32,
    pub pid: Option<u32>,
    pub name: &'a [u8],
}

impl FrameSlices {
    /// A slice name got frame `frame`.
    pub fn named(&mut self, frame: u32, name: &[u8]) {
        let kind = if name.starts_with(b"Choreographer#doFrame") {
            DO_FRAME
        } else if name.starts_with(b"DrawFrame") {
            DRAW_FRAME
        } else {
            0
        };
        if kind == 0 {
            return;
        }
        if self.kinds.len() <= frame as usize {
            self.kinds.resize(frame as usize + 1, 0);
        }
        self.kinds[frame as usize] = kind;
        let digits = name.iter().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit());
        let token = digits.fold(0i64, |n, &c| n.saturating_mul(10).saturating_add(i64::from(c - b'0')));
        self.tokens.insert(frame, token);
    }

    /// Whether slices of frame `frame` mark frames (checked before `begin`, so that other
    /// slices cost one load).
    #[inline]
    pub fn marks(&self, frame: u32) -> bool {
        self.kinds.get(frame as usize).is_some_and(|&k| k != 0)
    }

    /// Whether any thread has a marking slice open (checked before `end`).
    #[inline]
    pub fn any_open(&self) -> bool {
        self.opened > 0
    }

    /// Slice `frame`, which marks frames, begins on thread `t` at `depth`. Out of line: the
    /// slice loop that calls it stays small.
    #[inline(never)]
    pub fn begin(&mut self, t: usize, frame: u32, depth: usize, ts: u64) {
        let kind = self.kinds[frame as usize];
        if self.open.len() <= t {
            self.open.resize(t + 1, None);
        }
        if self.open[t].is_none() {
            let token = self.tokens.get(&frame).copied().unwrap_or(0);
            self.open[t] = Some(Open { kind, depth, start: ts, token });
            self.opened += 1;
        }
    }

    /// A slice of thread `t` ended at `ts`, leaving `depth` open. Out of line, as `begin`.
    #[inline(never)]
    pub fn end(&mut self, t: usize, depth: usize, ts: u64) {
        if let Some(Some(open)) = self.open.get(t) {
            if depth <= open.depth {
                let Open { kind, start, token, .. } = *open;
                self.done.push(Done { t, kind, start, end: ts.max(start), token });
                self.open[t] = None;
                self.opened -= 1;
            }
        }
    }

    /// Thread `t`'s slices were closed without their ends (a loss): what it had open is gone.
    pub fn drop_open(&mut self, t: usize) {
        if let Some(open) = self.open.get_mut(t) {
            if open.take().is_some() {
                self.opened -= 1;
            }
        }
    }

    /// The compositor wrote its `VSYNC-app` counter at `ts`.
    pub fn vsync(&mut self, ts: u64) {
        if self.vsyncs.len() < MAX_VSYNCS {
            self.vsyncs.push(ts);
        }
    }

    /// One refresh in ns, measured (the median time between two writes of `VSYNC-app`,
    /// pauses left out) where the capture has it.
    fn measured_period(&self) -> Option<u64> {
        let mut gaps: Vec<u64> =
            self.vsyncs.windows(2).map(|w| w[1].saturating_sub(w[0])).filter(|&g| g > 0 && g < 50_000_000).collect();
        if gaps.len() < 8 {
            return None;
        }
        gaps.sort_unstable();
        Some(gaps[gaps.len() / 2])
    }

    /// The frames, and the note that says how they were made; none where no app drew one.
    /// `thread` tells of each thread; `process` names a process.
    pub fn finish<'a>(
        &mut self,
        thread: impl Fn(usize) -> ThreadFacts<'a>,
        process: impl Fn(u32) -> Option<String>,
    ) -> Option<(Vec<AppFrame>, String)> {
        let mut by_pid: FxHashMap<u32, (Vec<Done>, Vec<Done>)> = FxHashMap::default();
        for done in self.done.drain(..) {
            let facts = thread(done.t);
            let Some(pid) = facts.pid.or(Some(facts.tid)).filter(|&p| p != 0) else { continue };
            let lists = by_pid.entry(pid).or_default();
            match done.kind {
                DO_FRAME => lists.0.push(done),
                _ if facts.name == RENDER_THREAD.as_bytes() => lists.1.push(done),
                _ => {}
            }
        }
        let measured = self.measured_period();
        let period = measured.unwrap_or(ASSUMED_PERIOD_NS);
        let mut frames = Vec::new();
        for (pid, (mut drawn, mut draws)) in by_pid {
            drawn.sort_by_key(|d| d.start);
            draws.sort_by_key(|d| d.start);
            let layer = format!(
                "{} (derived from Choreographer#doFrame and RenderThread DrawFrame)",
                process(pid).unwrap_or_else(|| format!("pid {pid}"))
            );
            for (i, frame) in drawn.iter().enumerate() {
                let next = drawn.get(i + 1).map_or(u64::MAX, |d| d.start);
                let from = draws.partition_point(|d| d.start < frame.start);
                let end = draws.get(from).filter(|d| d.start < next).map_or(frame.end, |d| d.end.max(frame.end));
                let janky = end - frame.start > period;
                frames.push(AppFrame {
                    pid,
                    layer: layer.clone(),
                    token: frame.token,
                    display_token: None,
                    start: frame.start,
                    end: Some(end),
                    expected: Some((frame.start, frame.start + period)),
                    jank: if janky { "Deadline Missed" } else { "None" }.to_owned(),
                    janky,
                    present: String::new(),
                    on_time_finish: !janky,
                    gpu_composition: false,
                    prediction: String::new(),
                    derived: true,
                });
            }
        }
        if frames.is_empty() {
            return None;
        }
        let hz = (1e9 / period as f64).round();
        let deadline = match measured {
            Some(_) => {
                format!("{:.1} ms ({hz} Hz, measured from the compositor's VSYNC-app counter)", period as f64 / 1e6)
            }
            None => "16.7 ms (60 Hz assumed: the capture does not say the display's rate)".to_owned(),
        };
        let note = format!(
            "the trace has no frame timeline: {} were derived from Choreographer#doFrame and RenderThread DrawFrame \
             slices, each janky where it took longer than one refresh, {deadline}",
            crate::text::counted(frames.len() as u64, "app frame", "app frames")
        );
        Some((frames, note))
    }
}
