//! The shared dumps read into heap graphs, against what AOSP's ahat computes on them with
//! strong references alone: reachable objects and bytes by heap, unreachable ones, and the
//! largest retainers with their dominators.

use super::framing::Framing;
use super::graph::GraphReader;
use crate::feed::ChunkFeeder;
use crate::profile::Strength;

/// Reachable objects and bytes, by heap name; then unreachable objects and bytes.
type Totals = (Vec<(String, u64, u64)>, (u64, u64));
/// An object's id, shallow and retained bytes, and its immediate dominator's id (`None`:
/// the super-root).
type Retainer = (u64, u64, u64, Option<u64>);

/// A dump's totals, and its two largest retainers.
fn totals(file: &str) -> (Totals, Vec<Retainer>) {
    let bytes = droidflame_testkit::corpus_file(&format!("hprof/{file}"));
    let mut framing = Framing::new();
    let mut feeder = ChunkFeeder::default();
    let mut reader = GraphReader::default();
    feeder.push(&bytes, |data, offset| framing.decode(data, offset, &mut |piece| reader.piece(piece))).unwrap();
    let (graph, drops) = reader.finish().finish();
    let graph = graph.expect("objects");
    assert_eq!((drops.dangling_references, drops.duplicate_objects), (0, 0), "{file}: {drops:?}");
    let objects = &graph.objects;
    let mut heaps: Vec<(String, u64, u64)> = graph.heaps.iter().map(|h| (h.clone(), 0, 0)).collect();
    let mut unreachable = (0, 0);
    for i in 0..graph.len() {
        match graph.reached.reach[i] {
            Some(Strength::Strong) => {
                heaps[objects.heap[i] as usize].1 += 1;
                heaps[objects.heap[i] as usize].2 += objects.shallow[i];
            }
            None => {
                unreachable.0 += 1;
                unreachable.1 += objects.shallow[i];
            }
            Some(_) => {}
        }
    }
    heaps.sort();
    let mut top: Vec<usize> = (0..graph.len()).collect();
    top.sort_by_key(|&i| (std::cmp::Reverse(graph.reached.retained[i]), objects.ids[i]));
    let dominator = |i: usize| {
        let d = graph.reached.dominator[i];
        (d != u32::MAX).then(|| objects.ids[d as usize])
    };
    let top = top[..2]
        .iter()
        .map(|&i| (objects.ids[i], objects.shallow[i], graph.reached.retained[i], dominator(i)))
        .collect();
    ((heaps, unreachable), top)
}

#[test]
fn the_shared_dumps_reach_what_ahat_reaches() {
    if !droidflame_testkit::corpus_present("hprof graph") {
        return;
    }
    let (totals_binder, top_binder) = totals("leakcanary-leak_service_binder.hprof");
    assert_eq!(
        totals_binder,
        (vec![("app".to_owned(), 3_109, 161_982), ("zygote".to_owned(), 40_956, 2_441_330)], (347, 51_420))
    );
    let (totals_ignored, top_ignored) = totals("leakcanary-leak_service_binder_ignored.hprof");
    assert_eq!(
        totals_ignored,
        (vec![("app".to_owned(), 2_685, 147_770), ("zygote".to_owned(), 40_964, 2_441_534)], (198, 9_467))
    );
    // `java.lang.Class<android.content.res.Resources>`, a root, and the array it holds.
    let top = vec![(0xb0cc6c78, 206, 252_694, None), (0xb0d4da78, 8, 249_880, Some(0xb0cc6c78))];
    assert_eq!(top_binder, top);
    assert_eq!(top_ignored, top);
}
