//! `SampleReader`: gives each record its meaning. A sample becomes its thread's stack
//! (outermost frame first) at the sample's time, so a frame that stays on the stack from one
//! sample to the next is one call:
//!
//! - CPU clock: a thread's on-CPU samples each add their count (ns of CPU time) to the stack
//!   they hold, in order.
//! - Wall clock: a sample's stack holds until the thread's next sample. Where the recording
//!   sampled threads leaving their CPU, that is exact up to the sampling: an off-CPU sample
//!   holds the stack the thread blocked in until it ran again. Where it did not, a gap longer
//!   than 1.5 sampling periods means the thread was not running for the rest of it, so the
//!   stack holds one period (its count) and the thread holds no stack until its next sample;
//!   the wall clock then counts only time the thread was seen running.

use super::events::{EventTypes, Role};
use super::frames::FrameTable;
use super::proto::{self, ContextSwitch, LostSituation, MetaInfo, Sample, Thread};
use super::symbols::FileNames;
use crate::profile::{PerClock, ProfileBuilder};
use prost::Message;
use rustc_hash::FxHashMap;

/// What the records held besides stacks, counted for the notes.
#[derive(Debug, Default)]
pub struct Stats {
    /// Samples read, of every event.
    pub samples: u64,
    /// Samples of each event id, shown or not.
    pub samples_by_event: Vec<u64>,
    /// Samples with an empty call chain.
    pub no_call_chain: u64,
    /// The recording's own count of samples and of samples it lost.
    pub lost: Option<LostSituation>,
    pub context_switches: u64,
    /// Records of a kind this reader does not know, skipped.
    pub unknown_records: u64,
    /// Records that would not decode: how many, and where the first began.
    pub damaged: u64,
    pub first_damaged_at: Option<u64>,
    /// A sample earlier than its thread's previous one: taken at that one's time.
    pub out_of_order: u64,
}

/// One thread's clocks as its samples come.
#[derive(Debug, Clone, Copy)]
struct ThreadClock {
    slot: u32,
    /// The time of its last sample, ns.
    last: u64,
    /// CPU time of its on-CPU samples so far, ns.
    cpu: u64,
    /// How long its last sample may hold its stack when the next one is late: its count.
    period: u64,
}

#[derive(Debug, Default)]
pub struct SampleReader {
    pub events: EventTypes,
    pub meta: Option<MetaInfo>,
    pub stats: Stats,
    pub frames: FrameTable,
    pub files: Vec<Option<FileNames>>,
    pub thread_records: Vec<Thread>,
    threads: Vec<ThreadClock>,
    thread_of: FxHashMap<i32, u32>,
    /// The last tid seen and its index in `threads`: consecutive samples often share one.
    last_thread: Option<(i32, usize)>,
    /// Reused for every sample, so reading one allocates nothing once warm.
    sample: Sample,
    stack: Vec<u32>,
    /// A gap of more than 1.5 periods ends a stack (the recording has no off-CPU samples).
    pub gaps_end_stacks: bool,
    /// The latest sample's time, ns: where the trace's timeline ends.
    latest: u64,
}

impl SampleReader {
    /// One `Record`'s bytes, found at input offset `at`.
    pub fn record(&mut self, body: &[u8], at: u64, builder: &mut ProfileBuilder) {
        let Some((field, payload)) = only_field(body) else {
            return self.damaged(at);
        };
        let fine = match field {
            proto::RECORD_SAMPLE => {
                self.sample.clear();
                self.sample.merge(payload).is_ok() && {
                    self.on_sample(builder);
                    true
                }
            }
            proto::RECORD_LOST => LostSituation::decode(payload).map(|lost| self.stats.lost = Some(lost)).is_ok(),
            proto::RECORD_FILE => proto::File::decode(payload).is_ok_and(|file| self.on_file(file)),
            proto::RECORD_THREAD => Thread::decode(payload).map(|thread| self.thread_records.push(thread)).is_ok(),
            proto::RECORD_META_INFO => MetaInfo::decode(payload).map(|meta| self.on_meta(meta)).is_ok(),
            proto::RECORD_CONTEXT_SWITCH => {
                ContextSwitch::decode(payload).map(|_| self.stats.context_switches += 1).is_ok()
            }
            _ => {
                self.stats.unknown_records += 1;
                true
            }
        };
        if !fine {
            self.damaged(at);
        }
    }

    fn damaged(&mut self, at: u64) {
        self.stats.damaged += 1;
        self.stats.first_damaged_at.get_or_insert(at);
    }

    fn on_meta(&mut self, meta: MetaInfo) {
        let names = meta.event_type.iter().map(|n| String::from_utf8_lossy(n).into_owned()).collect();
        self.events = EventTypes::named(names);
        self.gaps_end_stacks = self.events.on_cpu_is_time() && !self.events.traces_off_cpu();
        self.meta = Some(meta);
    }

    /// Keeps a file's names; false for an id far beyond the files read (ids count up from
    /// 0), which is damage and not worth the room.
    fn on_file(&mut self, file: proto::File) -> bool {
        let id = file.id.unwrap_or(0) as usize;
        if id > self.files.len() + (1 << 16) {
            return false;
        }
        if self.files.len() <= id {
            self.files.resize_with(id + 1, || None);
        }
        self.files[id] = Some(file.into());
        true
    }

    fn on_sample(&mut self, builder: &mut ProfileBuilder) {
        let event = self.sample.event_type_id.unwrap_or(0);
        self.stats.samples += 1;
        if let Some(count) = self.stats.samples_by_event.get_mut(event as usize) {
            *count += 1;
        } else if (event as usize) < (1 << 10) {
            self.stats.samples_by_event.resize(event as usize + 1, 0);
            self.stats.samples_by_event[event as usize] = 1;
        }
        let role = self.events.role(event);
        if role == Role::Other {
            return;
        }
        let thread = self.thread(self.sample.thread_id.unwrap_or(0), builder);
        self.stack.clear();
        for entry in self.sample.callchain.iter().rev() {
            let slot = self.frames.slot(entry, builder);
            self.stack.push(slot);
        }
        if self.stack.is_empty() {
            self.stats.no_call_chain += 1;
            self.stack.push(self.frames.no_call_chain(builder));
        }
        let clock = &mut self.threads[thread];
        let mut time = self.sample.time.unwrap_or(0);
        if time < clock.last {
            self.stats.out_of_order += 1;
            time = clock.last;
        }
        // Before a thread's first sample nothing is open, so there is nothing to end.
        if self.gaps_end_stacks && time - clock.last > clock.period.saturating_add(clock.period / 2) {
            builder.close_open(clock.slot, PerClock::new(clock.last.saturating_add(clock.period), clock.cpu));
        }
        builder.sample(clock.slot, &self.stack, PerClock::new(time, clock.cpu));
        self.latest = self.latest.max(time);
        clock.last = time;
        if role == Role::OnCpu {
            let count = self.sample.event_count.unwrap_or(0);
            clock.cpu = clock.cpu.saturating_add(count);
            clock.period = count;
        }
    }

    /// The index of thread `tid`'s clocks, made on its first sample.
    #[inline]
    fn thread(&mut self, tid: i32, builder: &mut ProfileBuilder) -> usize {
        if let Some((last, index)) = self.last_thread {
            if last == tid {
                return index;
            }
        }
        let index = match self.thread_of.get(&tid) {
            Some(&index) => index as usize,
            None => {
                let slot = builder.add_thread(tid as u32, None);
                self.threads.push(ThreadClock { slot, last: 0, cpu: 0, period: 0 });
                self.thread_of.insert(tid, (self.threads.len() - 1) as u32);
                self.threads.len() - 1
            }
        };
        self.last_thread = Some((tid, index));
        index
    }

    /// The input ended: each thread's last stack holds until the last sample of any thread
    /// (one period, where gaps end stacks). Ending there is what samples mean, not a
    /// repair of frames left open.
    pub fn finish_threads(&self, builder: &mut ProfileBuilder) {
        for clock in &self.threads {
            let end = if self.gaps_end_stacks { clock.last.saturating_add(clock.period) } else { self.latest };
            builder.close_open(clock.slot, PerClock::new(end, clock.cpu));
        }
    }

    /// CPU time of every thread's on-CPU samples, ns.
    pub fn total_on_cpu_ns(&self) -> u64 {
        self.threads.iter().fold(0u64, |sum, clock| sum.saturating_add(clock.cpu))
    }

    /// The builder slot of each thread id that has samples.
    pub fn thread_slots(&self) -> impl Iterator<Item = (i32, u32)> + '_ {
        self.thread_of.iter().map(|(&tid, &index)| (tid, self.threads[index as usize].slot))
    }
}

/// The one field of a `Record` (a oneof): its number and bytes. `None` where the record is
/// not one length-delimited field.
fn only_field(body: &[u8]) -> Option<(u32, &[u8])> {
    let (key, at) = varint(body)?;
    if key & 7 != 2 || key >> 3 > u64::from(u32::MAX) {
        return None;
    }
    let (len, n) = varint(&body[at..])?;
    let start = at + n;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    (end == body.len()).then(|| ((key >> 3) as u32, &body[start..end]))
}

fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7F) << (7 * i);
        if b < 0x80 {
            return Some((value, i + 1));
        }
    }
    None
}
