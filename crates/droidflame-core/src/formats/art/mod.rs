//! ART / Dalvik method traces, every layout: regular (text key + `SLOW` records, v1-v3),
//! streaming (0xF1-0xF3), and V2 (4/5, 0xF4/0xF5). Bytes in, `ProfileBuilder` calls out.
//!
//! The stages: `key` reads the text sections (the key of regular files, the summaries of
//! streaming and V2 files), `v1` the `SLOW` header and fixed-size records or the escape
//! stream, `v2` the typed packets; `names` parses method and thread lines; `records`
//! turns ids, actions and 32-bit times into builder events, with `ids` for the id maps
//! and `threads` for naming threads. `pieces` cuts regular files to read on every core.

mod decoder;
mod ids;
mod import;
mod key;
mod names;
mod pieces;
mod records;
mod resume;
mod threads;
mod v1;
mod v2;

use crate::importer::Format;

/// The registry's entry: method traces in every layout, whole or split in two files.
pub(crate) const FORMAT: Format = Format {
    family: "art",
    sniff: import::sniff,
    start: import::start,
    pair: Some(decoder::split_key_is_second),
    split: Some(pieces::split),
    stages: None,
};
