//! What each recorded event measures, from the names in the meta info: one on-CPU event
//! (the first that is not the scheduler's switch), off-CPU samples where the recording
//! sampled every switch, and any other event, whose samples are counted and not shown.

/// A thread leaving its CPU; with it sampled (`--trace-offcpu`), each such sample holds the
/// stack the thread blocked in.
pub const OFF_CPU_EVENT: &str = "sched:sched_switch";

/// Events whose counts are nanoseconds of CPU time.
const TIME_EVENTS: [&str; 2] = ["cpu-clock", "task-clock"];

/// What a sample of some event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The thread was running: its stack gets the sample's count on the CPU clock.
    OnCpu,
    /// The thread left its CPU: its stack holds until the thread's next sample.
    OffCpu,
    /// Another event; not shown.
    Other,
}

/// The recording's events, by `event_type_id`.
#[derive(Debug, Clone, Default)]
pub struct EventTypes {
    /// Names as the meta info gives them (`cpu-clock`, `task-clock:u`, …).
    pub names: Vec<String>,
    roles: Vec<Role>,
    /// The meta info was read (before any sample, as simpleperf writes it).
    pub known: bool,
}

impl EventTypes {
    /// The events named by a meta info record.
    pub fn named(names: Vec<String>) -> EventTypes {
        let mut on_cpu_found = false;
        let roles = names
            .iter()
            .map(|name| {
                if name == OFF_CPU_EVENT {
                    Role::OffCpu
                } else if on_cpu_found {
                    Role::Other
                } else {
                    on_cpu_found = true;
                    Role::OnCpu
                }
            })
            .collect();
        EventTypes { names, roles, known: true }
    }

    /// The role of samples of event `id`. Without a meta info record, event 0 is taken to
    /// be the on-CPU event.
    #[inline]
    pub fn role(&self, id: u32) -> Role {
        match self.roles.get(id as usize) {
            Some(&role) => role,
            None if !self.known && id == 0 => Role::OnCpu,
            None => Role::Other,
        }
    }

    /// The on-CPU event's name, if the recording has one.
    pub fn on_cpu(&self) -> Option<&str> {
        self.roles.iter().position(|&r| r == Role::OnCpu).map(|i| self.names[i].as_str())
    }

    /// The on-CPU event counts nanoseconds, so its counts are CPU time.
    pub fn on_cpu_is_time(&self) -> bool {
        self.on_cpu().is_some_and(|name| TIME_EVENTS.contains(&base_name(name)))
    }

    /// The recording sampled threads leaving their CPU.
    pub fn traces_off_cpu(&self) -> bool {
        self.roles.contains(&Role::OffCpu)
    }
}

/// An event's name without its modifiers (`task-clock:u` is `task-clock`); a tracepoint's
/// own colon (`sched:sched_switch`) stays.
fn base_name(name: &str) -> &str {
    match name.rsplit_once(':') {
        Some((base, modifiers))
            if !modifiers.is_empty()
                && modifiers.chars().all(|c| matches!(c, 'u' | 'k' | 'h' | 'G' | 'H' | 'p' | 'P')) =>
        {
            base
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_event_that_is_not_a_switch_is_the_on_cpu_one() {
        let events = EventTypes::named(vec!["sched:sched_switch".into(), "task-clock:u".into(), "instructions".into()]);
        assert_eq!(
            [events.role(0), events.role(1), events.role(2), events.role(3)],
            [Role::OffCpu, Role::OnCpu, Role::Other, Role::Other]
        );
        assert_eq!(events.on_cpu(), Some("task-clock:u"));
        assert!(events.on_cpu_is_time() && events.traces_off_cpu());
        let cycles = EventTypes::named(vec!["cpu-cycles".into()]);
        assert!(!cycles.on_cpu_is_time() && !cycles.traces_off_cpu());
        assert_eq!(EventTypes::default().role(0), Role::OnCpu);
        assert_eq!(EventTypes::default().role(1), Role::Other);
        assert_eq!(base_name("sched:sched_switch"), "sched:sched_switch");
        assert_eq!(base_name("cpu-clock:uk"), "cpu-clock");
    }
}
