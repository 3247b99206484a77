//! One ftrace event line, tokenised without a regex:
//! `TASK-PID (TGID) [CPU] FLAGS TIMESTAMP: EVENT: PAYLOAD`, where the TGID and the flags
//! are optional and TASK may hold spaces, dashes and brackets. The `[CPU]` field anchors
//! everything: left of it the task, pid and tgid; right of it the rest.

use crate::text::{parse_u32, parse_u64, trim};

/// The fields of one event line, borrowed from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventLine<'a> {
    pub task: &'a [u8],
    pub tid: u32,
    /// `None` when the column is absent or unknown (`(-----)`).
    pub tgid: Option<u32>,
    pub cpu: u32,
    pub ts_ns: u64,
    pub event: &'a [u8],
    pub payload: &'a [u8],
}

/// Why a line is not an event line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineError {
    /// Not the event grammar at all (a continuation of a multi-line print, junk).
    Unrecognised,
    /// The grammar matches but the timestamp has no decimal point: a raw counter clock,
    /// which cannot be placed in time.
    RawClock,
}

pub fn parse_event_line(line: &[u8]) -> Result<EventLine<'_>, LineError> {
    let (open, close, cpu) = find_cpu(line).ok_or(LineError::Unrecognised)?;
    let (task, tid, tgid) = parse_left(&line[..open]).ok_or(LineError::Unrecognised)?;
    let rest = skip_spaces(&line[close + 1..]);
    let (ts_token, after) = split_timestamp(rest).ok_or(LineError::Unrecognised)?;
    let ts_ns = parse_timestamp(ts_token)?;
    let after = skip_spaces(after);
    let colon = after.iter().position(|&b| b == b':').ok_or(LineError::Unrecognised)?;
    let event = &after[..colon];
    if event.is_empty() || event.contains(&b' ') {
        return Err(LineError::Unrecognised);
    }
    let payload = trim(&after[colon + 1..]);
    Ok(EventLine { task, tid, tgid, cpu, ts_ns, event, payload })
}

/// The first `[digits]` with whitespace or `)` before it and whitespace after it.
fn find_cpu(line: &[u8]) -> Option<(usize, usize, u32)> {
    let mut from = 0;
    while let Some(found) = line[from..].iter().position(|&b| b == b'[') {
        let open = from + found;
        from = open + 1;
        let len = line[open + 1..].iter().position(|&b| !b.is_ascii_digit())?;
        let close = open + 1 + len;
        let before_ok = open > 0 && (line[open - 1] == b' ' || line[open - 1] == b')' || line[open - 1] == b'\t');
        let after_ok = line.get(close + 1).is_some_and(|&b| b == b' ' || b == b'\t');
        if len > 0 && len <= 6 && line[close] == b']' && before_ok && after_ok {
            return Some((open, close, parse_u32(&line[open + 1..close])?));
        }
    }
    None
}

/// `TASK-PID` with an optional `(TGID)` after it.
fn parse_left(left: &[u8]) -> Option<(&[u8], u32, Option<u32>)> {
    let mut left = trim(left);
    let mut tgid = None;
    if left.last() == Some(&b')') {
        let open = left.iter().rposition(|&b| b == b'(')?;
        let inside = trim(&left[open + 1..left.len() - 1]);
        if !inside.iter().all(|&b| b == b'-') {
            tgid = Some(parse_u32(inside)?);
        }
        left = trim(&left[..open]);
    }
    let digits = left.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits == left.len() {
        return None;
    }
    let dash = left.len() - digits - 1;
    if left[dash] != b'-' {
        return None;
    }
    let tid = parse_u32(&left[dash + 1..])?;
    let task = trim(&left[..dash]);
    (!task.is_empty()).then_some((task, tid, tgid))
}

/// Splits off the timestamp token (ending in `:`), skipping an irq-flags token before it.
fn split_timestamp(rest: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = rest.iter().position(|&b| b == b' ' || b == b'\t').unwrap_or(rest.len());
    let token = &rest[..end];
    if token.last() == Some(&b':') {
        return Some((strip_glued_flags(&token[..token.len() - 1]), &rest[end..]));
    }
    let is_flags = (4..=5).contains(&token.len()) && token.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'.');
    if !is_flags {
        return None;
    }
    let rest = skip_spaces(&rest[end..]);
    let end = rest.iter().position(|&b| b == b' ' || b == b'\t').unwrap_or(rest.len());
    let token = &rest[..end];
    (token.last() == Some(&b':')).then(|| (&token[..token.len() - 1], &rest[end..]))
}

/// Flags written with no space before the timestamp (`....316.196720`): a token with two
/// dots whose first 4 or 5 characters are flags. A timestamp starts with a digit, so a
/// fifth character that is not one is a flag (`d..1.316.196720`); a digit there is taken
/// as the timestamp's.
fn strip_glued_flags(token: &[u8]) -> &[u8] {
    if token.iter().filter(|&&b| b == b'.').count() < 2 {
        return token;
    }
    let flags = if token.get(4).is_some_and(u8::is_ascii_digit) { 4 } else { 5 };
    &token[flags.min(token.len())..]
}

/// `SECONDS.FRACTION` with 1 to 9 fraction digits, as exact integer nanoseconds.
pub fn parse_timestamp(token: &[u8]) -> Result<u64, LineError> {
    let Some(dot) = token.iter().position(|&b| b == b'.') else {
        return if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
            Err(LineError::RawClock)
        } else {
            Err(LineError::Unrecognised)
        };
    };
    let (secs, frac) = (&token[..dot], &token[dot + 1..]);
    // Empty digits do not parse, and seconds too many for nanoseconds overflow below.
    if frac.len() > 9 {
        return Err(LineError::Unrecognised);
    }
    let secs = parse_u64(secs).ok_or(LineError::Unrecognised)?;
    let mut nanos = parse_u64(frac).ok_or(LineError::Unrecognised)?;
    for _ in frac.len()..9 {
        nanos *= 10;
    }
    // Eleven digits of seconds can exceed u64 nanoseconds (found by fuzzing).
    secs.checked_mul(1_000_000_000).and_then(|ns| ns.checked_add(nanos)).ok_or(LineError::Unrecognised)
}

fn skip_spaces(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(bytes.len());
    &bytes[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> EventLine<'_> {
        parse_event_line(line.as_bytes()).unwrap_or_else(|e| panic!("{line:?}: {e:?}"))
    }

    #[test]
    fn every_column_layout() {
        let l = parse("   RenderThread-2774  ( 2652) [002] ...1 87694.672394: tracing_mark_write: E");
        assert_eq!(
            (l.task, l.tid, l.tgid, l.cpu, l.ts_ns),
            (&b"RenderThread"[..], 2774, Some(2652), 2, 87_694_672_394_000)
        );
        assert_eq!((l.event, l.payload), (&b"tracing_mark_write"[..], &b"E"[..]));
        let l = parse("<idle>-0     (-----) [003] .N.2 87698.427875: cpu_idle: state=1 cpu_id=3");
        assert_eq!((l.task, l.tid, l.tgid), (&b"<idle>"[..], 0, None));
        let l = parse("atrace-14446 [000] ...1 1.000001: sched_switch: prev_comm=a");
        assert_eq!((l.tid, l.tgid, l.ts_ns), (14446, None, 1_000_001_000));
        let l = parse("  surfaceflinger-276   [000]  1.5: 0: B|276|draw");
        assert_eq!((l.event, l.payload, l.ts_ns), (&b"0"[..], &b"B|276|draw"[..], 1_500_000_000));
        let l = parse(" Jit thread pool-1234567 (1234567) [001] d..1. 12.123456789: tracing_mark_write: I|1|x");
        assert_eq!(
            (l.task, l.tid, l.tgid, l.ts_ns),
            (&b"Jit thread pool"[..], 1_234_567, Some(1_234_567), 12_123_456_789)
        );
        let l = parse("ksoftirqd/0-3 ( 3) [000] d.s4 5.000000: sched_switch: x");
        assert_eq!((l.task, l.tid, l.tgid), (&b"ksoftirqd/0"[..], 3, Some(3)));
        let l = parse("a-b-c [x]-42 (-------) [010] ....316.196720: print: hi");
        assert_eq!((l.task, l.tid, l.cpu, l.ts_ns), (&b"a-b-c [x]"[..], 42, 10, 316_196_720_000));
    }

    #[test]
    fn what_is_not_an_event_line() {
        assert_eq!(parse_event_line(b"continued text of a print"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"task-1 [000] ...1 123456: e: p"), Err(LineError::RawClock));
        assert_eq!(parse_event_line(b"task [000] 1.0: e: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"-1 [000] 1.0: e: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_timestamp(b"99999999999.999999"), Err(LineError::Unrecognised));
        assert_eq!(parse_timestamp(b"18446744073.709551615"), Ok(u64::MAX));
        // An event name is one word.
        assert_eq!(parse_event_line(b"task-1 [000] 1.0: some event: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"task-1 [000] 1.0: : p"), Err(LineError::Unrecognised));
        // A CPU field starts no line; a task of digits alone has no thread id.
        assert_eq!(parse_event_line(b"[000] 1.0: e: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"42 [000] 1.0: e: p"), Err(LineError::Unrecognised));
        // Flags are 4 or 5 letters, digits and dots.
        assert_eq!(parse_event_line(b"task-1 [000] d.1 1.0: e: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"task-1 [000] d..1.. 1.0: e: p"), Err(LineError::Unrecognised));
        assert_eq!(parse_event_line(b"task-1 [000] d+.1 1.0: e: p"), Err(LineError::Unrecognised));
    }

    /// Seconds and a fraction of 1 to 9 digits; digits alone are a raw counter.
    #[test]
    fn timestamps() {
        assert_eq!(parse_timestamp(b"1.5"), Ok(1_500_000_000));
        assert_eq!(parse_timestamp(b"000000000001.000000001"), Ok(1_000_000_001));
        assert_eq!(parse_timestamp(b"1.1234567890"), Err(LineError::Unrecognised), "ten fraction digits");
        assert_eq!(parse_timestamp(b"1."), Err(LineError::Unrecognised));
        assert_eq!(parse_timestamp(b".5"), Err(LineError::Unrecognised));
        assert_eq!(parse_timestamp(b"123"), Err(LineError::RawClock));
        assert_eq!(parse_timestamp(b""), Err(LineError::Unrecognised));
        assert_eq!(parse_timestamp(b"12a"), Err(LineError::Unrecognised));
    }

    /// The CPU field is the first `[digits]` (1 to 6 of them) with a space, tab or `)`
    /// before it and a space or tab after it: brackets in a task name are not it.
    #[test]
    fn the_cpu_field_among_brackets_in_a_task_name() {
        for (line, task, cpu) in [
            ("a[1] b-42 [000] 1.0: e: p", "a[1] b", 0),
            ("a [1]x-42 [000] 1.0: e: p", "a [1]x", 0),
            ("a [] b-42 [000] 1.0: e: p", "a [] b", 0),
            ("a [12 b-42 [003] 1.0: e: p", "a [12 b", 3),
            ("a [1234567] b-42 [000] 1.0: e: p", "a [1234567] b", 0),
            ("t-42 [123456] 1.0: e: p", "t", 123_456),
            ("t-42 (7)[005] 1.0: e: p", "t", 5),
            ("t-42\t[006]\t1.0: e: p", "t", 6),
        ] {
            let l = parse(line);
            assert_eq!((l.task, l.tid, l.cpu, l.ts_ns), (task.as_bytes(), 42, cpu, 1_000_000_000), "{line:?}");
        }
    }

    /// Flags glued to the timestamp: four of them, or five where the fifth is no digit.
    #[test]
    fn flags_glued_to_the_timestamp() {
        for (line, ts_ns) in [
            ("t-42 [000] ....316.196720: e: p", 316_196_720_000),
            ("t-42 [000] dNh.316.196720: e: p", 316_196_720_000),
            ("t-42 [000] dNhs.316.196720: e: p", 316_196_720_000),
            ("t-42 [000] d..1.316.196720: e: p", 316_196_720_000),
            ("t-42 [000] ...1316.196720: e: p", 316_196_720_000),
        ] {
            assert_eq!(parse(line).ts_ns, ts_ns, "{line:?}");
        }
    }
}
