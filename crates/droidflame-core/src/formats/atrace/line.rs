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
/// dots whose first 4 or 5 characters are flags.
fn strip_glued_flags(token: &[u8]) -> &[u8] {
    if token.iter().filter(|&&b| b == b'.').count() < 2 {
        return token;
    }
    let lead = token.iter().take_while(|b| !b.is_ascii_digit()).count();
    if (4..=5).contains(&lead) {
        &token[lead..]
    } else {
        &token[token.len().min(4)..]
    }
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
    if secs.is_empty() || secs.len() > 11 || frac.is_empty() || frac.len() > 9 {
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
    }
}
