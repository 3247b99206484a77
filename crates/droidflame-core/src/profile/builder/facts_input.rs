//! The builder's facts: warnings (the first fifty kept, the rest counted), the limits it
//! reads under and the first one the trace went beyond, and names cut to the limit.

use super::frames::FrameInfo;
use super::{Limit, ProfileBuilder, MAX_WARNINGS};
use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::profile::repairs::{group_digits, Repair, Warning};

impl ProfileBuilder {
    pub fn warn(&mut self, message: impl Into<String>) {
        self.push_warning(None, message.into());
    }
    /// A warning that details one repair: the summary's notes show it with that repair
    /// instead of on its own.
    pub fn warn_about(&mut self, repair: Repair, message: impl Into<String>) {
        self.push_warning(Some(repair), message.into());
    }
    pub(super) fn push_warning(&mut self, repair: Option<Repair>, text: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning { text, repair });
        } else {
            self.dropped_warnings += 1;
        }
    }
    pub fn limits(&self) -> &Options {
        &self.limits
    }
    /// The trace went beyond `limit`: the analysis stops with its error after this chunk.
    pub fn refuse(&mut self, limit: Limit) {
        self.limit_hit.get_or_insert(limit);
    }
    /// The error for the first limit the trace reached, if it reached one.
    pub fn limit_error(&self) -> Option<Error> {
        let limit = self.limit_hit.or(self.budget.exhausted.then_some(Limit::CallStacks))?;
        let o = &self.limits;
        let n = |limit: usize| group_digits(limit as u64);
        let message = match limit {
            Limit::Depth => {
                format!("a thread's stack is deeper than {} frames (the stack-depth limit)", n(o.max_stack_depth))
            }
            Limit::CallStacks => format!(
                "the trace has more than {} unique call stacks (the call-stack limit); real traces have far \
                 fewer, so this one is probably generated or damaged",
                group_digits(o.max_call_stacks)
            ),
            Limit::Threads => format!("the trace has more than {} threads (the thread limit)", n(o.max_threads)),
            Limit::Frames => {
                format!("the trace has more than {} distinct methods (the method limit)", n(o.max_methods))
            }
        };
        Some(Error::new(ErrorKind::Limit, message))
    }
    /// A name as the profile keeps it: cut to the name-length limit (on a character
    /// boundary, ending in `…`), the cut counted.
    pub fn clip_name(&mut self, mut name: String) -> String {
        let max = self.limits.max_name_bytes.max(4);
        if name.len() > max {
            let mut end = max - '…'.len_utf8();
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            name.truncate(end);
            name.push('…');
            self.repairs.long_names += 1;
        }
        name
    }
    /// Each of a frame's names as the profile keeps it (`clip_name` moves a short one as it is).
    pub(super) fn clip_frame(&mut self, info: FrameInfo) -> FrameInfo {
        FrameInfo {
            class: self.clip_name(info.class),
            name: self.clip_name(info.name),
            signature: self.clip_name(info.signature),
            source: info.source.map(|s| self.clip_name(s)),
            line: info.line,
        }
    }
}
