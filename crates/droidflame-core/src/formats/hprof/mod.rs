//! Heap dumps in HPROF (`JAVA PROFILE 1.0.2` and `1.0.3`, 4- or 8-byte ids): what ART,
//! `hprof-conv` and HotSpot write. The framing comes first; the importer that reads a dump
//! into the heap graph follows it.

#[cfg_attr(not(test), expect(dead_code, reason = "the framing is tested here before the importer reads with it"))]
mod framing;
#[cfg(test)]
mod framing_tests;
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the graph's reader is tested here before the importer reads with it")
)]
mod graph;
#[cfg(test)]
mod graph_tests;
