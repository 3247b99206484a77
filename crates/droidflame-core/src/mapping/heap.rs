//! A mapping applied to a heap dump: its classes' names (array classes by their element's)
//! and each class's fields' and statics' names, by that class's own entry; and the frames
//! that name the classes in the dump's stacks.

use super::kept::Mapping;
use crate::profile::{Frame, HeapGraph, NONE};

impl Mapping {
    /// Renames `graph`'s classes and fields, starting again from the dump's names, and the
    /// frames its stacks name classes with. Returns how many classes it renamed.
    pub(super) fn apply_to_heap(&self, graph: &mut HeapGraph, frames: &mut [Frame]) -> u64 {
        let (classes, names) = match graph.unmapped.take() {
            Some(unmapped) => unmapped,
            None => (graph.classes.clone(), graph.names.clone()),
        };
        let mut renamed = 0;
        graph.classes = classes
            .iter()
            .map(|name| {
                let element = name.trim_end_matches("[]");
                match self.classes.get(element) {
                    Some(entry) => {
                        renamed += 1;
                        entry.original.clone() + &name[element.len()..]
                    }
                    None => name.clone(),
                }
            })
            .collect();
        graph.names = names
            .iter()
            .zip(&graph.name_class)
            .map(|(name, &class)| {
                let entry = (class != NONE).then(|| self.classes.get(&classes[class as usize])).flatten();
                entry.and_then(|e| e.fields.get(name)).cloned().unwrap_or_else(|| name.clone())
            })
            .collect();
        graph.unmapped = Some((classes, names));
        for (class, at) in graph.frames.iter().enumerate() {
            let name = &graph.classes[class];
            if at.instances != NONE {
                frames[at.instances as usize].name = name.clone();
            }
            if at.class_object != NONE {
                frames[at.class_object as usize].name = format!("java.lang.Class<{name}>");
            }
        }
        renamed
    }
}
