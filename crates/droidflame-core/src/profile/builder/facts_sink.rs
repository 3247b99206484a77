//! The facts sink: the repairs a decoder counts itself, its warnings (the first fifty
//! kept, the rest counted), the limits it reads under, and whether what was left out can
//! be read again.

use super::Limit;
use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::profile::repairs::{group_digits, Repair, Repairs, Warning};

/// At most this many warnings are kept; the rest are counted.
pub(super) const MAX_WARNINGS: usize = 50;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct FactsSink {
    /// The repairs the decoder counted (the other sinks count their own).
    #[serde(with = "crate::profile::repairs::as_text")]
    pub repairs: Repairs,
    pub(super) warnings: Vec<Warning>,
    pub(super) dropped_warnings: usize,
    /// Not sent with a piece: the receiver's own.
    #[serde(skip)]
    pub(super) limits: Options,
    /// Calls left out for being short can be read again from the input (the warning says
    /// so).
    pub(crate) rereadable: bool,
}

impl FactsSink {
    pub fn new(options: &Options) -> Self {
        FactsSink {
            repairs: Repairs::default(),
            warnings: Vec::new(),
            dropped_warnings: 0,
            limits: options.clone(),
            rereadable: false,
        }
    }

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

    /// A sink that reads on from this one: the same limits, nothing said yet.
    pub(super) fn continuing(&self) -> FactsSink {
        FactsSink::new(&self.limits)
    }

    /// This sink with `later`, fed what came after: repairs summed, warnings in order.
    pub(super) fn merge(&mut self, later: FactsSink) {
        self.repairs.add(&later.repairs);
        for warning in later.warnings {
            self.push_warning(warning.repair, warning.text);
        }
        self.dropped_warnings += later.dropped_warnings;
        self.rereadable |= later.rereadable;
    }
}

/// The error for a limit the trace went beyond.
pub(super) fn limit_error(limit: Limit, o: &Options) -> Error {
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
        Limit::Frames => format!("the trace has more than {} distinct methods (the method limit)", n(o.max_methods)),
    };
    Error::new(ErrorKind::Limit, message)
}
