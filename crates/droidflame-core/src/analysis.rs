//! `Analysis`: one analysed trace. It holds the profile (the model, which knows no format,
//! no mapping and no input), what a mapping applied to it did, and what reading parts of
//! the input again needs. Products read its profile (`analysis.profile`), or the part of it
//! they need.

use crate::error::{Error, ErrorKind, Result};
use crate::mapping::{Mapping, MappingReport};
use crate::profile::Profile;
use crate::reread::{Reread, Rereading};
use std::sync::Arc;

/// An analysed trace.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The profile.
    pub profile: Profile,
    /// What the mapping applied with [`Analysis::deobfuscate`] did; `None` when none was.
    pub mapping: Option<MappingReport>,
    /// What reading parts of the input again needs, to find the calls too short to keep.
    pub(crate) reread: Option<Arc<Rereading>>,
}

impl Analysis {
    pub(crate) fn new(profile: Profile, reread: Option<Arc<Rereading>>) -> Self {
        Analysis { profile, mapping: None, reread }
    }

    /// The analysis within `from..=to` (ticks on the timeline clock): see
    /// [`Profile::within`]. The mapping's report stays; a range is not read again.
    pub fn within(&self, from: u64, to: u64) -> Result<Analysis> {
        Ok(Analysis { profile: self.profile.within(from, to)?, mapping: self.mapping.clone(), reread: None })
    }

    /// Renames the frames with `mapping`'s original names. Applying another mapping
    /// later starts again from the names the trace gave.
    pub fn deobfuscate(&mut self, mapping: &Mapping) -> &MappingReport {
        let report = mapping.apply(&mut self.profile);
        self.mapping.insert(report)
    }

    /// Reads the mapping file `mapping_txt` (whole, in memory), keeping only what this
    /// profile's classes need, and renames the frames with it: what a run of many does
    /// with the one mapping they share.
    pub fn deobfuscate_with(&mut self, mapping_txt: &[u8]) -> Result<&MappingReport> {
        let mut reader = crate::mapping::MappingReader::new(&[&self.profile]);
        reader.push(mapping_txt)?;
        let mapping = reader.finish()?;
        Ok(self.deobfuscate(&mapping))
    }

    /// Starts reading again the calls of thread `thread` (index into `threads`) that
    /// overlap `from..=to` (ticks on the timeline clock).
    pub fn reread(&self, thread: usize, from: u64, to: u64) -> Result<Reread> {
        let source = self
            .reread
            .as_ref()
            .filter(|_| self.profile.can_reread())
            .ok_or_else(|| Error::new(ErrorKind::Request, "this profile has no short calls to read again"))?;
        Reread::start(Arc::clone(source), &self.profile, thread, from, to)
    }

    /// The profile alone.
    pub fn into_profile(self) -> Profile {
        self.profile
    }
}
