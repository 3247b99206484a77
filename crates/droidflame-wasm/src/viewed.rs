//! The calls a timeline request reads: the profile's own, or as the session's view shows
//! them, with how their frames are named.

use droidflame_core::products::{self, ViewedCalls};
use droidflame_core::profile::{Call, ThreadCalls};
use droidflame_core::Profile;

/// One thread's calls as the session's view shows them, for the calls they were made from.
pub(crate) struct Viewed {
    pub(crate) thread: u32,
    /// Made from the window read again (else from the calls the profile kept).
    pub(crate) detail: bool,
    pub(crate) calls: ViewedCalls,
}

/// The calls a timeline request reads, and how their frames are named.
pub(crate) enum Drawn<'a> {
    Plain(&'a ThreadCalls),
    Viewed(&'a ViewedCalls),
}

impl Drawn<'_> {
    pub(crate) fn calls(&self) -> &ThreadCalls {
        match self {
            Drawn::Plain(calls) => calls,
            Drawn::Viewed(viewed) => &viewed.calls,
        }
    }

    /// A box's frame as an index into `frameNamesJson`, or past it into `madeNamesJson`.
    pub(crate) fn name_index(&self, profile: &Profile, frame: u32) -> u32 {
        match self {
            Drawn::Plain(_) => profile.frame_name_of[frame as usize],
            Drawn::Viewed(_) => frame,
        }
    }

    pub(crate) fn name<'a>(&'a self, profile: &'a Profile, frame: u32) -> &'a str {
        match self {
            Drawn::Plain(_) => profile.frame_name(frame),
            Drawn::Viewed(viewed) => viewed.name(profile, frame),
        }
    }

    /// A box's CPU time, where it has one of its own.
    pub(crate) fn cpu(&self, call: &Call) -> Option<u64> {
        match self {
            Drawn::Viewed(_) if call.cpu == products::NO_CPU => None,
            _ => Some(call.cpu),
        }
    }
}
