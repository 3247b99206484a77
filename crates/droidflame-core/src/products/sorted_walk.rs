//! Walking a tree of named frames as folded lines, in the byte order of the finished
//! text (as a sort of it would give), holding one path at a time: what folded stacks,
//! flame graphs and differential stacks are all written from.

use crate::profile::NONE;

/// A tree whose nodes have names, linked child by child.
pub(crate) trait NamedTree {
    /// The first child of `n`, `NONE` if it has none.
    fn first_child(&self, n: u32) -> u32;
    /// The next child of `n`'s parent, `NONE` after the last.
    fn next_sibling(&self, n: u32) -> u32;
    /// The name of `n`, as a line spells it.
    fn name(&self, n: u32) -> &str;
}

/// Calls `line(path, node)` for every node below `root` that `kept(parent, node)` keeps
/// (with everything below it), in the byte order of the lines. `prefix` starts every path.
pub(crate) fn walk_sorted<T: NamedTree, E>(
    tree: &T,
    root: u32,
    prefix: Option<&str>,
    kept: impl Fn(u32, u32) -> bool,
    mut line: impl FnMut(&str, u32) -> Result<(), E>,
) -> Result<(), E> {
    let mut path = String::from(prefix.unwrap_or(""));
    // One level per open node: its items, sorted, and how far they have been emitted.
    let mut levels: Vec<Level> = Vec::new();
    let mut spare: Vec<Vec<Item>> = Vec::new();
    levels.push(Level { items: items(tree, root, &kept, spare.pop()), next: 0, path_len: path.len() });
    while let Some(level) = levels.last_mut() {
        let Some(&item) = level.items.get(level.next) else {
            let done = levels.pop().expect("just looked at it");
            spare.push(done.items);
            continue;
        };
        level.next += 1;
        path.truncate(level.path_len);
        // Not `!path.is_empty()`: a frame may be named by the empty string.
        if levels.len() > 1 || prefix.is_some() {
            path.push(';');
        }
        path.push_str(tree.name(item.node));
        if item.descendants {
            let items = items(tree, item.node, &kept, spare.pop());
            levels.push(Level { items, next: 0, path_len: path.len() });
        } else {
            line(&path, item.node)?;
        }
    }
    Ok(())
}

/// The items under `n` in line order: each kept child's own line (key `name`) and its
/// descendants' lines (key `name;`). All lines below a child start with `name;`, so they
/// are one block, and sorting the keys sorts the lines.
fn items<T: NamedTree>(tree: &T, n: u32, kept: &impl Fn(u32, u32) -> bool, reuse: Option<Vec<Item>>) -> Vec<Item> {
    let mut items = reuse.unwrap_or_default();
    items.clear();
    let mut child = tree.first_child(n);
    while child != NONE {
        if kept(n, child) {
            items.push(Item { node: child, descendants: false });
            if tree.first_child(child) != NONE {
                items.push(Item { node: child, descendants: true });
            }
        }
        child = tree.next_sibling(child);
    }
    let key = |item: &Item| tree.name(item.node).bytes().chain(item.descendants.then_some(b';'));
    items.sort_unstable_by(|a, b| key(a).cmp(key(b)));
    items
}

#[derive(Clone, Copy)]
struct Item {
    node: u32,
    descendants: bool,
}

struct Level {
    items: Vec<Item>,
    next: usize,
    path_len: usize,
}
