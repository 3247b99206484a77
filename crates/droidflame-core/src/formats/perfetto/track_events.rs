//! Perfetto SDK track events: slices, instants and counters on tracks that track
//! descriptors declare. A thread's track puts its slices on that thread's stack, as atrace
//! markers do; any other track (a process's, or a named one) nests its slices on a track
//! of its own; a counter track gives a counter.

use super::proto::{CounterDescriptor, ProcessDescriptor, ThreadDescriptor, TrackDescriptor};
use crate::formats::system::{SystemTrace, TrackKey, TrackKind};
use bytes::Bytes;
use rustc_hash::FxHashMap;

/// Parents followed to find a track's process (real nesting is two or three deep).
const MAX_PARENTS: usize = 16;

/// A declared track.
#[derive(Debug, Default)]
struct Descriptor {
    parent: Option<u64>,
    name: Bytes,
    pid: Option<u32>,
    tid: Option<u32>,
    counter: Option<CounterShape>,
}

/// How a counter track's values are written and what they measure.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CounterShape {
    /// What one of its values counts (`ns`, `bytes`, or the writer's own name); empty for
    /// a plain count or where it is not said.
    pub unit: Box<str>,
    /// Each value written is this many of `unit`.
    pub multiplier: i64,
    /// Values are changes from the sequence's last value.
    pub incremental: bool,
}

impl CounterShape {
    fn of(d: &CounterDescriptor) -> CounterShape {
        let unit = match (d.unit_name.as_deref().filter(|n| !n.is_empty()), d.unit, d.r#type) {
            (Some(name), _, _) => name,
            (None, Some(1), _) | (None, None, Some(1)) => "ns",
            (None, Some(3), _) => "bytes",
            (None, None, Some(2)) => "instructions",
            _ => "",
        };
        CounterShape {
            unit: unit.into(),
            multiplier: d.unit_multiplier.filter(|&m| m != 0).unwrap_or(1),
            incremental: d.is_incremental == Some(true),
        }
    }
}

/// A counter events have gone to.
#[derive(Debug, Clone)]
pub struct CounterTrack {
    /// Its process (0: none).
    pub pid: u32,
    pub name: Box<[u8]>,
    pub shape: CounterShape,
}

/// Where a track's events go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The stack of thread `tid`.
    Thread(u32),
    /// A track of its own (an index into `TrackTable::lanes`).
    Lane(u32),
    /// A counter (an index into `TrackTable::counters`).
    Counter(u32),
}

/// Every declared track, and the tracks and counters events have gone to.
#[derive(Debug, Default)]
pub struct TrackTable {
    descriptors: FxHashMap<u64, Descriptor>,
    targets: FxHashMap<u64, Target>,
    /// Tracks of their own: key and name.
    pub lanes: Vec<(TrackKey, Box<[u8]>)>,
    /// Counters, with their process, name and shape.
    pub counters: Vec<CounterTrack>,
}

impl TrackTable {
    /// Takes in a track descriptor (`name_owners` names its process and thread).
    pub fn declare(&mut self, d: &TrackDescriptor) {
        let Some(uuid) = d.uuid else {
            return;
        };
        let mut descriptor = Descriptor {
            parent: d.parent_uuid.filter(|&p| p != 0 && p != uuid),
            name: d.name.clone().or_else(|| d.static_name.clone()).unwrap_or_default(),
            counter: d.counter.as_ref().map(CounterShape::of),
            ..Descriptor::default()
        };
        if let Some(process) = &d.process {
            descriptor.pid = pid_of(process);
        }
        if let Some(thread) = &d.thread {
            let (pid, tid) = thread_of(thread);
            descriptor.pid = descriptor.pid.or(pid);
            descriptor.tid = tid;
        }
        // A track declared again may say something new: where its events go is decided afresh.
        self.targets.remove(&uuid);
        self.descriptors.insert(uuid, descriptor);
    }

    /// Where events of track `uuid` go.
    pub fn target(&mut self, uuid: u64) -> Target {
        if let Some(&target) = self.targets.get(&uuid) {
            return target;
        }
        let target = self.resolve(uuid);
        self.targets.insert(uuid, target);
        target
    }

    fn resolve(&mut self, uuid: u64) -> Target {
        let pid = self.pid_of(uuid);
        let Some(d) = self.descriptors.get(&uuid) else {
            // Events before (or without) their track's descriptor: a track of its own.
            let name = format!("track {uuid}").into_bytes();
            return self.lane(TrackKey { pid: 0, kind: TrackKind::Nested(uuid), name: name.clone().into() }, &name);
        };
        if let Some(shape) = &d.counter {
            let name = if d.name.is_empty() { format!("counter {uuid}").into_bytes() } else { d.name.to_vec() };
            self.counters.push(CounterTrack { pid, name: name.into(), shape: shape.clone() });
            return Target::Counter(self.counters.len() as u32 - 1);
        }
        if let Some(tid) = d.tid {
            return Target::Thread(tid);
        }
        let name = if !d.name.is_empty() {
            d.name.to_vec()
        } else if d.pid.is_some() {
            // A process's own track: named after it in the thread list.
            b"process track".to_vec()
        } else {
            format!("track {uuid}").into_bytes()
        };
        self.lane(TrackKey { pid, kind: TrackKind::Nested(uuid), name: name.clone().into() }, &name)
    }

    fn lane(&mut self, key: TrackKey, name: &[u8]) -> Target {
        self.lanes.push((key, name.into()));
        Target::Lane(self.lanes.len() as u32 - 1)
    }

    /// The process of a track: its own, or its nearest ancestor's (0: none).
    fn pid_of(&self, mut uuid: u64) -> u32 {
        for _ in 0..MAX_PARENTS {
            let Some(d) = self.descriptors.get(&uuid) else {
                break;
            };
            if let Some(pid) = d.pid {
                return pid;
            }
            match d.parent {
                Some(parent) => uuid = parent,
                None => break,
            }
        }
        0
    }
}

/// Names a track descriptor's process and thread, where it has them.
pub fn name_owners(d: &TrackDescriptor, system: &mut SystemTrace) {
    if d.uuid.is_none() {
        return;
    }
    if let Some(process) = &d.process {
        name_process(process, system);
    }
    if let Some(thread) = &d.thread {
        name_thread(thread, system);
    }
}

/// A process descriptor's pid, where it gives a valid one.
fn pid_of(process: &ProcessDescriptor) -> Option<u32> {
    process.pid.filter(|&p| p > 0).map(|p| p as u32)
}

/// Names a process from its descriptor.
pub fn name_process(process: &ProcessDescriptor, system: &mut SystemTrace) {
    let Some(pid) = pid_of(process) else { return };
    let name = process.process_name.as_ref().or(process.cmdline.first()).filter(|n| !n.is_empty());
    if let Some(name) = name {
        system.name_process(pid, name);
    }
}

/// A thread descriptor's pid and tid, where it gives valid ones.
pub fn thread_of(thread: &ThreadDescriptor) -> (Option<u32>, Option<u32>) {
    let pid = thread.pid.filter(|&p| p > 0).map(|p| p as u32);
    let tid = thread.tid.filter(|&t| t > 0 && t < crate::formats::system::TRACK_ID_BASE as i64).map(|t| t as u32);
    (pid, tid)
}

/// Names a thread from its descriptor.
pub fn name_thread(thread: &ThreadDescriptor, system: &mut SystemTrace) {
    let (pid, Some(tid)) = thread_of(thread) else { return };
    let t = system.thread(tid);
    if let Some(pid) = pid {
        system.set_pid(t, pid);
    }
    if let Some(name) = &thread.thread_name {
        system.name_thread(t, name);
    }
}
