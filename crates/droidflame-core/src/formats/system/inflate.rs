//! A budget of inflated bytes, shared by every reader of compressed system traces.

use crate::error::{Error, ErrorKind, Result};

/// Counts inflated bytes against the decompressed-size limit (a decompression bomb
/// stops here with an error instead of filling memory).
#[derive(Debug)]
pub struct InflateBudget {
    pub inflated: u64,
    pub limit: u64,
}

impl InflateBudget {
    pub fn spend(&mut self, bytes: usize) -> Result<()> {
        self.inflated += bytes as u64;
        if self.inflated > self.limit {
            return Err(Error::new(
                ErrorKind::Limit,
                format!(
                    "the compressed capture inflates to more than {} bytes (the decompressed-size limit)",
                    self.limit
                ),
            ));
        }
        Ok(())
    }
}
