//! Writes atrace / systrace captures: event lines in every column layout the spec lists,
//! wrapped in every container (plain text, `TRACE:` + zlib chunks, the three HTML forms,
//! JSON). Tests describe events once and compare what each form gives.

use flate2::write::{GzEncoder, ZlibEncoder};
use flate2::Compression;
use std::io::Write;

/// How the columns before the timestamp look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    /// `None`: no TGID column; `Some(false)`: `(-----)`; `Some(true)`: the number.
    pub tgid: Option<bool>,
    /// 7-wide PID and TGID (newer kernels) instead of 5.
    pub wide: bool,
    /// 0 (none), 4 (`d..2`) or 5 (`d..1.`) irq-flag characters.
    pub flags: usize,
    /// Digits after the decimal point of timestamps (1 to 9).
    pub fraction_digits: u32,
}

impl Default for Columns {
    fn default() -> Self {
        Columns { tgid: Some(true), wide: false, flags: 4, fraction_digits: 6 }
    }
}

/// One event: written by `tid` (of process `pid`) on `cpu` at `ns` nanoseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub task: String,
    pub tid: u32,
    pub pid: u32,
    pub cpu: u32,
    pub ns: u64,
    /// `tracing_mark_write`, `0`, `print`, `sched_switch`, ...
    pub name: String,
    pub payload: String,
}

/// A described capture.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    pub events: Vec<Event>,
    pub columns: Columns,
    /// Write the `# tracer: nop` header block.
    pub header: bool,
    pub crlf: bool,
}

impl Capture {
    pub fn new() -> Self {
        Capture { header: true, ..Capture::default() }
    }

    /// Adds a `tracing_mark_write` event.
    pub fn mark(&mut self, task: &str, tid: u32, pid: u32, ns: u64, payload: &str) -> &mut Self {
        self.event(task, tid, pid, 0, ns, "tracing_mark_write", payload)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn event(&mut self, task: &str, tid: u32, pid: u32, cpu: u32, ns: u64, name: &str, payload: &str) -> &mut Self {
        self.events.push(Event { task: task.into(), tid, pid, cpu, ns, name: name.into(), payload: payload.into() });
        self
    }

    /// A `sched_switch` on `cpu` from `prev` (left in `state`) to `next`.
    pub fn switch(&mut self, cpu: u32, ns: u64, prev: (&str, u32), state: &str, next: (&str, u32)) -> &mut Self {
        let payload = format!(
            "prev_comm={} prev_pid={} prev_prio=120 prev_state={state} ==> next_comm={} next_pid={} next_prio=120",
            prev.0, prev.1, next.0, next.1
        );
        self.event(prev.0, prev.1, prev.1, cpu, ns, "sched_switch", &payload)
    }

    pub fn event_line(&self, e: &Event) -> String {
        let c = self.columns;
        let width = if c.wide { 7 } else { 5 };
        let task = format!("{:>16}-{:<width$}", e.task, e.tid);
        let tgid = match c.tgid {
            None => String::new(),
            Some(false) => format!(" ({})", "-".repeat(width)),
            Some(true) => format!(" ({:>width$})", e.pid),
        };
        let flags = match c.flags {
            4 => " d..2",
            5 => " d..1.",
            _ => "",
        };
        let scale = 10u64.pow(9 - c.fraction_digits);
        let fraction = (e.ns % 1_000_000_000) / scale;
        let digits = c.fraction_digits as usize;
        format!(
            "{task}{tgid} [{:03}]{flags} {}.{fraction:0digits$}: {}: {}",
            e.cpu,
            e.ns / 1_000_000_000,
            e.name,
            e.payload
        )
    }

    /// The plain ftrace text.
    pub fn text(&self) -> Vec<u8> {
        let mut out = String::new();
        if self.header {
            out.push_str("# tracer: nop\n#\n");
            let n = self.events.len();
            out.push_str(&format!("# entries-in-buffer/entries-written: {n}/{n}   #P:4\n#\n"));
            let tgid = if self.columns.tgid.is_some() { "  TGID  " } else { "" };
            out.push_str(&format!("#           TASK-PID{tgid}   CPU#  ||||    TIMESTAMP  FUNCTION\n"));
            out.push_str("#              | |        |      ||||       |         |\n");
        }
        for e in &self.events {
            out.push_str(&self.event_line(e));
            out.push('\n');
        }
        if self.crlf {
            out = out.replace('\n', "\r\n");
        }
        out.into_bytes()
    }

    /// `atrace -z` / `.ctrace`: the events in `dumps` consecutive groups, each written as a
    /// dump of its own (`TRACE:\n` + one zlib stream of whole lines, with the header if
    /// any), as Android Studio writes one dump per read of the kernel's buffer.
    pub fn ctrace(&self, dumps: usize) -> Vec<u8> {
        let size = self.events.len().div_ceil(dumps.max(1)).max(1);
        let mut out = Vec::new();
        let groups: Vec<&[Event]> = if self.events.is_empty() { vec![&[]] } else { self.events.chunks(size).collect() };
        for group in groups {
            let dump = Capture { events: group.to_vec(), ..self.clone() };
            out.extend_from_slice(b"TRACE:\n");
            let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
            z.write_all(&dump.text()).unwrap();
            out.extend(z.finish().unwrap());
        }
        out
    }

    /// Legacy systrace HTML: `var linuxPerfData = "\` with `\n\` line ends.
    pub fn html_legacy(&self) -> Vec<u8> {
        let mut out = String::from("<!DOCTYPE html>\n<html>\n<head><script>var linuxPerfData = \"\\\n  [</script></head>\n<body>\n  <script>\n  var linuxPerfData = \"\\\n");
        let text = String::from_utf8(self.text()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let end = if i + 1 == lines.len() { "\\n\";" } else { "\\n\\" };
            out.push_str(&format!("{line}{end}\n"));
        }
        out.push_str("  </script>\n</body>\n</html>\n");
        out.into_bytes()
    }

    /// systrace.py HTML: a process dump block, then the trace-data block. The viewer
    /// code before it mentions the block marker inside a regex, as the real one does.
    pub fn html_trace_data(&self) -> Vec<u8> {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html>\n<head>\n<script>if(!r.advanceToLineMatching(/^  <script class=\"trace-data\"/))return;</script>\n</head>\n<body>\n<!-- BEGIN TRACE -->\n",
        );
        out.push_str("  <script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\nUSER PID PPID NAME\nroot 1 0 init\n  </script>\n");
        out.push_str("  <script class=\"trace-data\" type=\"application/text\">\n");
        out.push_str(&String::from_utf8(self.text()).unwrap());
        out.push_str("  </script>\n<!-- END TRACE -->\n</body>\n</html>\n");
        out.into_bytes()
    }

    /// JSON with the text as `systemTraceEvents`.
    pub fn json(&self) -> Vec<u8> {
        let text = String::from_utf8(self.text()).unwrap();
        format!("{{\"traceEvents\": [], \"systemTraceEvents\": {}}}", json_string(&text)).into_bytes()
    }

    /// trace2html: the JSON, gzip'd and base64'd into a viewer-data block.
    pub fn html_viewer_data(&self) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(&self.json()).unwrap();
        let encoded = base64(&gz.finish().unwrap());
        let mut out =
            String::from("<!DOCTYPE html>\n<html>\n<body>\n<script id=\"viewer-data\" type=\"text/plain\">\n");
        for line in encoded.as_bytes().chunks(76) {
            out.push_str(std::str::from_utf8(line).unwrap());
            out.push('\n');
        }
        out.push_str("</script>\n</body>\n</html>\n");
        out.into_bytes()
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7E => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let n = group.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
