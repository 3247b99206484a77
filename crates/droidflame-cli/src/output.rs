//! Where products go: a file named on stderr, or standard output, where a closed pipe
//! (`| head`) is no error.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Writes a product to `output`, or to standard output for `-`; a written file is named on
/// stderr.
pub(crate) fn write_to(
    output: &Path,
    write: impl FnOnce(&mut dyn Write) -> droidflame_core::Result<()>,
) -> Result<(), String> {
    if output.as_os_str() == "-" {
        return stdout_stream(|out| write(out));
    }
    let file = File::create(output).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
    let mut out = io::BufWriter::with_capacity(1 << 16, file);
    write(&mut out).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
    eprintln!("wrote {}", output.display());
    Ok(())
}

/// Writes finished text to `output`, as `write_to` does.
pub(crate) fn write_text(output: &Path, text: &str) -> Result<(), String> {
    write_to(output, |out| {
        out.write_all(text.as_bytes())
            .map_err(|e| droidflame_core::Error::new(droidflame_core::ErrorKind::Output, e.to_string()))
    })
}

/// Writes a product to standard output as it is made; a closed pipe (`| head`) ends it
/// without an error.
pub(crate) fn stdout_stream(
    write: impl FnOnce(&mut PipeOut<io::BufWriter<io::StdoutLock<'static>>>) -> droidflame_core::Result<()>,
) -> Result<(), String> {
    let mut out = PipeOut { inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()), closed: false };
    match write(&mut out) {
        Err(_) if out.closed => Ok(()),
        result => result.map_err(|e| e.to_string()),
    }
}

/// Standard output that notes a closed pipe (`| head`), which is not an error.
pub(crate) struct PipeOut<W: Write> {
    pub(crate) inner: W,
    pub(crate) closed: bool,
}

impl<W: Write> Write for PipeOut<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| self.closed |= e.kind() == io::ErrorKind::BrokenPipe)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().inspect_err(|e| self.closed |= e.kind() == io::ErrorKind::BrokenPipe)
    }
}

pub(crate) fn print(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A closed pipe (`| head`) is not an error.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("cannot write output: {e}")),
        _ => Ok(()),
    }
}
