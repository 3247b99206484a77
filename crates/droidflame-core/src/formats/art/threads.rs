//! ART's thread names. Lists (`*threads`, summaries) name threads by their full id, while
//! records of older ART carry it truncated to 16 bits, and a thread id may be reused by a
//! new thread while tracing runs: names are matched to record ids when the input ends.

use super::records::{ArtRecords, DENSE_THREADS};
use crate::profile::Repair;
use crate::profile::{Limit, ProfileBuilder};
use rustc_hash::FxHashMap;

impl ArtRecords {
    /// A thread named in a list. A repeated id with another name means the id was reused.
    pub fn list_thread(&mut self, id: u32, name: String, b: &mut ProfileBuilder) {
        let name = b.stacks.clip_name(name);
        if let Some(&at) = self.listed_index.get(&id) {
            let entry = &mut self.listed[at];
            if entry.1 != name {
                let merged = format!("{} / {}", entry.1, name);
                let message = format!(
                    "thread id {id} is listed twice ({:?} and {:?}): the id was reused and the \
                     trace cannot tell their records apart, so they are shown as one thread",
                    entry.1, name
                );
                entry.1 = merged;
                b.facts.repairs.reused_thread_ids += 1;
                b.facts.warn_about(Repair::ReusedThreadIds, message);
            }
        } else if self.listed.len() >= b.facts.limits().max_threads.max(1) {
            b.stacks.refuse(Limit::Threads);
        } else {
            self.listed_index.insert(id, self.listed.len());
            self.listed.push((id, name));
        }
    }

    /// A thread defined in the record stream (a streaming thread packet, a V2 thread
    /// packet). A new name for an id whose stack is empty starts a new thread: the id was
    /// reused.
    pub fn define_thread(&mut self, id: u32, name: String, b: &mut ProfileBuilder) {
        let name = b.stacks.clip_name(name);
        let Some(thread) = self.threads.get(u64::from(id)) else {
            self.new_thread(id, Some(name), b);
            return;
        };
        let old = b.stacks.thread_name(thread);
        if old == Some(name.as_str()) {
            return;
        }
        if b.stacks.thread_events(thread) == 0 || old.is_none() {
            b.stacks.name_thread(thread, name, true);
        } else if b.stacks.depth(thread) == 0 {
            self.new_thread(id, Some(name), b);
            b.facts.repairs.reused_thread_ids += 1;
        } else {
            let old = old.unwrap_or_default().to_owned();
            b.stacks.name_thread(thread, format!("{old} / {name}"), true);
            b.facts.repairs.reused_thread_ids += 1;
            b.facts.warn_about(
                Repair::ReusedThreadIds,
                format!(
                    "thread id {id} was renamed from {old:?} to {name:?} while it had methods running; its \
                     records are kept as one thread"
                ),
            );
        }
    }

    /// Gives every thread the name listed for its id, or for a full id whose low 16 bits
    /// it is (older ART truncates ids in records). Threads left unnamed are named by the
    /// builder.
    pub fn name_threads(&mut self, b: &mut ProfileBuilder) {
        let listed = std::mem::take(&mut self.listed);
        let index = std::mem::take(&mut self.listed_index);
        // Listed full ids above 16 bits, by their low 16 bits (in list order).
        let mut by_low_bits: FxHashMap<u32, Vec<&(u32, String)>> = FxHashMap::default();
        for entry in listed.iter().filter(|(id, _)| u64::from(*id) >= DENSE_THREADS) {
            by_low_bits.entry(entry.0 & 0xFFFF).or_default().push(entry);
        }
        let mut collisions = Vec::new();
        for thread in 0..b.stacks.thread_count() as u32 {
            let tid = b.stacks.tid(thread);
            if let Some(&at) = index.get(&tid) {
                b.stacks.name_thread(thread, listed[at].1.clone(), false);
                continue;
            }
            if u64::from(tid) >= DENSE_THREADS {
                continue;
            }
            let mut wide = by_low_bits.get(&tid).into_iter().flatten().copied();
            if let Some((full, name)) = wide.next() {
                let named_alike = b.stacks.thread_name(thread).is_none_or(|n| n == name);
                match wide.next() {
                    None if named_alike => {
                        b.stacks.set_tid(thread, *full);
                        b.stacks.name_thread(thread, name.clone(), true);
                    }
                    Some((other, _)) => collisions.push((tid, *full, *other)),
                    None => {}
                }
            }
        }
        for (short, a, b_id) in collisions {
            b.facts.warn(format!(
                "records use thread id {short}, which is the low 16 bits of both listed threads {a} and {b_id} \
                 (older ART truncates thread ids): its records cannot be attributed and are shown as Thread {short}"
            ));
        }
    }
}
