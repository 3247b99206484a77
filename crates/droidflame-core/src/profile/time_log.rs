//! Times in order, kept small: each is the time since the one before as a variable-length
//! integer (a sample every millisecond of a nanosecond clock takes 3 bytes). Every
//! `MARK_EVERY` times a mark notes the time and offset, so a window is found without
//! decoding from the start. A thread's CPU samples keep their times here; the scheduler
//! states' log (`StateLog`) writes its numbers the same way.

use serde::{Deserialize, Serialize};

/// Times between two marks.
pub(crate) const MARK_EVERY: u32 = 64;

/// Appends `v` as a variable-length integer: seven bits a byte, low first.
pub(crate) fn put(bytes: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        bytes.push(v as u8 | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

/// A number `put` wrote: at most ten groups, the last at a shift of 63.
pub(crate) fn get(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        v |= u64::from(b & 0x7F) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            break;
        }
    }
    v
}

/// Times in order (ticks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLog {
    bytes: Vec<u8>,
    /// `(time, byte offset, time before)` of every `MARK_EVERY`th time.
    marks: Vec<(u64, u32, u64)>,
    len: u32,
    last: u64,
}

impl TimeLog {
    /// Appends `time`; times come in order (an earlier one is taken as the last).
    pub fn push(&mut self, time: u64) {
        let time = time.max(self.last);
        if self.len % MARK_EVERY == 0 {
            self.marks.push((time, self.bytes.len() as u32, self.last));
        }
        put(&mut self.bytes, time - self.last);
        self.len += 1;
        self.last = time;
    }

    /// Appends every time of `later`, a log of what came after this one's last time.
    pub(crate) fn append(&mut self, later: &TimeLog) {
        for time in later.from(0) {
            self.push(time);
        }
    }

    /// Times logged.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No time logged.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first and the last time, where any is logged.
    pub fn span(&self) -> Option<(u64, u64)> {
        Some((self.marks.first()?.0, self.last))
    }

    pub(crate) fn shrink(&mut self) {
        self.bytes.shrink_to_fit();
        self.marks.shrink_to_fit();
    }

    /// The times at or after `from`, in order.
    pub fn from(&self, from: u64) -> impl Iterator<Item = u64> + '_ {
        let mark = self.marks.partition_point(|m| m.0 <= from).saturating_sub(1);
        let (mut at, mut time) = self.marks.get(mark).map_or((0, 0), |m| (m.1 as usize, m.2));
        std::iter::from_fn(move || {
            (at < self.bytes.len()).then(|| {
                time += get(&self.bytes, &mut at);
                time
            })
        })
        .skip_while(move |&t| t < from)
    }

    /// The times within `from..to`, in order.
    pub fn within(&self, from: u64, to: u64) -> impl Iterator<Item = u64> + '_ {
        self.from(from).take_while(move |&t| t < to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_come_back_from_any_point() {
        let mut log = TimeLog::default();
        // Gaps of every width, a repeated time, and one out of order taken as the last.
        let mut expected = Vec::new();
        let mut t = 5u64;
        for i in 0..1_000u64 {
            t += (i * i * 7919) % 1_000_003;
            log.push(t);
            expected.push(t);
        }
        log.push(t);
        log.push(t - 1);
        expected.extend([t, t]);
        assert_eq!(log.len(), 1_002);
        assert_eq!(log.from(0).collect::<Vec<_>>(), expected);
        for &from in &[0, 5, expected[63], expected[64], expected[64] + 1, expected[500], t, t + 1] {
            let want: Vec<u64> = expected.iter().copied().filter(|&e| e >= from).collect();
            assert_eq!(log.from(from).collect::<Vec<_>>(), want, "from {from}");
        }
        let (a, b) = (expected[100], expected[700]);
        assert_eq!(log.within(a, b).count(), 600);
        // Two halves appended are the whole.
        let (mut first, mut second) = (TimeLog::default(), TimeLog::default());
        expected[..333].iter().for_each(|&e| first.push(e));
        expected[333..].iter().for_each(|&e| second.push(e));
        first.append(&second);
        assert_eq!(first.from(0).collect::<Vec<_>>(), expected);
        assert_eq!(first.from(expected[400]).next(), Some(expected[400]));
        assert!(TimeLog::default().from(0).next().is_none());
    }
}
