//! Sources: the kinds of stack data one trace can hold (calls, CPU samples, heap profiles).
//! A profile shows one source at a time: its `threads` and the facts that say how to read
//! their values are the selected source's, so every product works on every source without
//! knowing which it is. The others wait in the profile until one is selected.

use super::frame::FrameKind;
use super::repairs::counted;
use crate::error::{Error, ErrorKind, Result};

/// A kind of stack data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SourceKind {
    /// Method-trace calls and system-trace slices.
    Calls,
    /// CPU callstack samples.
    CpuSamples,
    /// Bytes allocated and not yet freed at a heap dump.
    HeapUnreleased,
    /// Bytes allocated in all, freed or not, up to a heap dump.
    HeapAllocated,
    /// A heap dump's objects down its dominator tree: what each object keeps alive.
    HeapDominators,
    /// A heap dump's objects down their shortest paths from the GC roots.
    HeapPaths,
}

impl SourceKind {
    /// Every kind, in order of preference.
    pub const ALL: [SourceKind; 6] = [
        SourceKind::Calls,
        SourceKind::CpuSamples,
        SourceKind::HeapUnreleased,
        SourceKind::HeapAllocated,
        SourceKind::HeapDominators,
        SourceKind::HeapPaths,
    ];

    /// The name the CLI, the summary and the bindings use.
    pub const fn name(self) -> &'static str {
        match self {
            SourceKind::Calls => "calls",
            SourceKind::CpuSamples => "cpu-samples",
            SourceKind::HeapUnreleased => "heap-unreleased",
            SourceKind::HeapAllocated => "heap-allocated",
            SourceKind::HeapDominators => "heap-dominators",
            SourceKind::HeapPaths => "heap-paths",
        }
    }

    /// The kind `text` names.
    pub fn parse(text: &str) -> Option<SourceKind> {
        Self::ALL.into_iter().find(|kind| kind.name() == text)
    }

    /// The kind named `text`, or an error that lists the names there are.
    pub fn named(text: &str) -> Result<SourceKind> {
        Self::parse(text).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
            Error::new(ErrorKind::Request, format!("{text}: no such source; the sources are {}", names.join(", ")))
        })
    }

    /// Bytes of memory, not calls in time: a heap profile (whose first frame is a
    /// process, not a thread) or a heap dump's objects (whose first frame is a heap).
    pub const fn is_heap(self) -> bool {
        !matches!(self, SourceKind::Calls | SourceKind::CpuSamples)
    }

    /// Made from one of a heap profile's dumps, the one chosen (`Profile::select_dump`).
    pub const fn from_dumps(self) -> bool {
        matches!(self, SourceKind::HeapUnreleased | SourceKind::HeapAllocated)
    }

    /// What its nodes' counts (`Node::calls`) count.
    pub const fn count(self) -> Count {
        match self {
            SourceKind::Calls => Count::Calls,
            SourceKind::CpuSamples => Count::Samples,
            SourceKind::HeapUnreleased | SourceKind::HeapAllocated => Count::Allocations,
            SourceKind::HeapDominators | SourceKind::HeapPaths => Count::Objects,
        }
    }
}

/// What a source counts beside its values, and how.
///
/// Calls are events in time: a node counts the calls that ended on its stack, a method
/// every call of it, recursive ones too, so a recursive method's calls can outnumber the
/// calls that reached it from outside. Samples and allocations are stacks: a node counts
/// those whose stack ends there (its self count, as self time is), a frame the ones whose
/// stack holds it, once per stack however often the stack holds it, so no frame's count
/// exceeds the source's total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// Calls made.
    Calls,
    /// CPU callstack samples taken.
    Samples,
    /// Allocations made.
    Allocations,
    /// Objects in a heap dump.
    Objects,
}

impl Count {
    /// `calls`, `samples` or `allocations`, as the summary spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Count::Calls => "calls",
            Count::Samples => "samples",
            Count::Allocations => "allocations",
            Count::Objects => "objects",
        }
    }

    /// `n` of them in words: `1 call`, `5,003 samples`.
    pub fn counted(self, n: u64) -> String {
        let (one, many) = match self {
            Count::Calls => ("call", "calls"),
            Count::Samples => ("sample", "samples"),
            Count::Allocations => ("allocation", "allocations"),
            Count::Objects => ("object", "objects"),
        };
        counted(n, one, many)
    }

    /// Counted once per stack, at the stack's last frame: samples, allocations, objects.
    pub const fn per_stack(self) -> bool {
        !matches!(self, Count::Calls)
    }
}

/// What a source's values count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Microseconds of time.
    Micros,
    /// Samples taken.
    Samples,
    /// Bytes of memory.
    Bytes,
}

impl Unit {
    /// `us`, `samples` or `bytes`, as the summary spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Micros => "us",
            Unit::Samples => "samples",
            Unit::Bytes => "bytes",
        }
    }

    /// `µs`, `samples` or `bytes`, as text for people writes it after a number.
    pub const fn symbol(self) -> &'static str {
        match self {
            Unit::Micros => "µs",
            Unit::Samples => "samples",
            Unit::Bytes => "bytes",
        }
    }
}

/// A source a trace has: its kind, the unit of its values and what they are, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Which kind it is.
    pub kind: SourceKind,
    /// What its values count.
    pub unit: Unit,
    /// What its values are, e.g. `CPU callstack samples of 38 threads (5,003 samples)`.
    pub description: String,
}

impl Source {
    /// A source of `count` threads (processes, for a heap source) whose frames are
    /// `frames`, described in words.
    pub(crate) fn new(kind: SourceKind, unit: Unit, frames: FrameKind, count: usize) -> Source {
        let threads = counted(count as u64, "thread", "threads");
        let processes = counted(count as u64, "process", "processes");
        let calls = match frames {
            FrameKind::Method => "Method calls",
            FrameKind::Slice => "Slices",
            // A dump's sources are no calls; its frames are never drawn as such.
            FrameKind::Function | FrameKind::Class => "Calls",
        };
        let description = match (kind, unit) {
            (SourceKind::Calls, _) => format!("{calls} of {threads}"),
            (SourceKind::CpuSamples, Unit::Samples) => format!("CPU callstack samples of {threads}, counted"),
            (SourceKind::CpuSamples, _) => format!("On-CPU time of {threads}, from callstack samples"),
            (SourceKind::HeapUnreleased, _) => {
                format!("Bytes allocated and not freed at the heap dump, in {processes}")
            }
            (SourceKind::HeapAllocated, _) => format!("Bytes allocated up to the heap dump, in {processes}"),
            (SourceKind::HeapDominators, _) => {
                format!(
                    "Bytes each object keeps alive, down the dominator tree, in {}",
                    counted(count as u64, "heap", "heaps")
                )
            }
            (SourceKind::HeapPaths, _) => {
                format!(
                    "Bytes of objects down their shortest paths from the GC roots, in {}",
                    counted(count as u64, "heap", "heaps")
                )
            }
        };
        Source { kind, unit, description }
    }
}
