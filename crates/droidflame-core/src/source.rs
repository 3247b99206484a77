//! Input that can be read at any offset: what reading in pieces at once needs
//! (`parallel.rs`).

use std::io;

/// Input that several threads can read at any offset at once: a file, or bytes in memory.
pub trait ReadAt: Sync {
    /// Its length in bytes.
    fn size(&self) -> u64;

    /// Fills `buf` with the bytes from `offset` on; an error where fewer are there.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;

    /// All of it, where it is in memory already (then nothing is copied).
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
}

impl ReadAt for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let bytes = start.checked_add(buf.len()).and_then(|end| self.get(start..end));
        let bytes = bytes.ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(bytes);
        Ok(())
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
}

impl ReadAt for Vec<u8> {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.as_slice().read_at(offset, buf)
    }

    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
}

/// `len` bytes of `source` from `offset` on.
pub(crate) fn read_vec(source: &dyn ReadAt, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    let len = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    let mut out = vec![0; len];
    source.read_at(offset, &mut out)?;
    Ok(out)
}

/// Hands `decode` the bytes of `source` from `from` to `to`, in steps of at most `step`
/// bytes (a multiple of the items they hold), with each step's offset; borrowed, not
/// copied, where the input is in memory.
pub(crate) fn read_steps<E: From<io::Error>>(
    source: &dyn ReadAt,
    from: u64,
    to: u64,
    step: u64,
    mut decode: impl FnMut(&[u8], u64) -> Result<(), E>,
) -> Result<(), E> {
    let all = source.as_slice();
    let mut buf = Vec::new();
    let mut at = from;
    while at < to {
        let len = step.max(1).min(to - at);
        let bytes = match all {
            Some(all) => {
                all.get(at as usize..(at + len) as usize).ok_or(io::Error::from(io::ErrorKind::UnexpectedEof))?
            }
            None => {
                buf.resize(len as usize, 0);
                source.read_at(at, &mut buf)?;
                &buf
            }
        };
        decode(bytes, at)?;
        at += len;
    }
    Ok(())
}
