//! Trace writer.
