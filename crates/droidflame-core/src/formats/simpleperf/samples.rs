//! `SampleReader`: gives each record its meaning. A sample becomes its thread's stack
//! (outermost frame first) at the sample's time, as `SampledThreads` says; an on-CPU
//! sample weighs its count (ns of CPU time).

use super::events::{EventTypes, Role};
use super::frames::FrameTable;
use super::proto::{self, ContextSwitch, LostSituation, MetaInfo, Sample, Thread};
use super::symbols::FileNames;
use crate::formats::sampled::SampledThreads;
use crate::profile::ProfileBuilder;
use prost::Message;

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
}

#[derive(Debug, Default)]
pub struct SampleReader {
    pub events: EventTypes,
    pub meta: Option<MetaInfo>,
    pub stats: Stats,
    pub frames: FrameTable,
    pub files: Vec<Option<FileNames>>,
    pub thread_records: Vec<Thread>,
    pub threads: SampledThreads,
    /// Reused for every sample, so reading one allocates nothing once warm.
    sample: Sample,
    stack: Vec<u32>,
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
        self.threads.gaps_end_stacks = self.events.on_cpu_is_time() && !self.events.traces_off_cpu();
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
        let tid = self.sample.thread_id.unwrap_or(0) as u32;
        let thread = self.threads.thread(tid, builder, |b| b.stacks.add_thread(tid, None));
        self.stack.clear();
        for entry in self.sample.callchain.iter().rev() {
            let slot = self.frames.slot(entry, builder);
            self.stack.push(slot);
        }
        if self.stack.is_empty() {
            self.stats.no_call_chain += 1;
            self.stack.push(self.frames.no_call_chain(builder));
        }
        let on_cpu = (role == Role::OnCpu).then(|| self.sample.event_count.unwrap_or(0));
        self.threads.sample(thread, &self.stack, self.sample.time.unwrap_or(0), on_cpu, builder);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn file(id: u32) -> proto::File {
        proto::File { id: Some(id), path: Some(b"/system/lib64/libc.so".to_vec()), ..Default::default() }
    }

    #[test]
    fn a_files_id_up_to_65536_past_those_read_is_kept_and_one_more_is_damage() {
        let mut reader = SampleReader::default();
        assert!(reader.on_file(file(3)), "ids may skip a few");
        assert_eq!(reader.files.len(), 4);
        assert!(reader.files[3].is_some() && reader.files[..3].iter().all(Option::is_none));
        // 4 files read: ids up to 4 + 65,536 are kept, beyond is damage.
        assert!(reader.on_file(file(4 + 65_536)));
        assert_eq!(reader.files.len(), 65_541);
        let mut fresh = SampleReader::default();
        assert!(!fresh.on_file(file(65_537)));
        assert!(fresh.files.is_empty(), "no room made for damage");
    }

    #[test]
    fn samples_are_counted_by_event_for_the_first_1024_event_ids() {
        let mut reader = SampleReader::default();
        let mut b = ProfileBuilder::new(&crate::options::Options::default());
        for event in [1_023, 1_024, 5_000, 1_023] {
            reader.sample = Sample { event_type_id: Some(event), ..Default::default() };
            reader.on_sample(&mut b);
        }
        // Ids 0 to 1,023 have a count each; beyond, a damaged id is not worth the room.
        assert_eq!(reader.stats.samples, 4);
        assert_eq!(reader.stats.samples_by_event.len(), 1_024);
        assert_eq!((reader.stats.samples_by_event[1_023], reader.stats.samples_by_event.iter().sum::<u64>()), (2, 2));
    }

    /// A record's bytes: field `field`'s key of wire type `wire`, then a length-delimited body.
    fn record(field: u64, wire: u64, body: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for mut value in [(field << 3) | wire, body.len() as u64] {
            while value >= 0x80 {
                bytes.push((value as u8 & 0x7F) | 0x80);
                value >>= 7;
            }
            bytes.push(value as u8);
        }
        bytes.extend_from_slice(body);
        bytes
    }

    #[test]
    fn a_record_is_one_length_delimited_field_of_a_32_bit_number() {
        assert_eq!(only_field(&record(1, 2, b"abc")), Some((1, &b"abc"[..])));
        assert_eq!(only_field(&record(u64::from(u32::MAX), 2, b"x")), Some((u32::MAX, &b"x"[..])));
        assert_eq!(only_field(&record(u64::from(u32::MAX) + 1, 2, b"x")), None, "a field number past 32 bits");
        assert_eq!(only_field(&record(1, 0, b"abc")), None, "a varint, not a length-delimited field");
        assert_eq!(only_field(&record(1, 2, b"abc")[..4]), None, "cut short");
    }
}
