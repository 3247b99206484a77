// A call tree as the core gives it (flat columns, a parent before its children), made
// walkable: each node's children, heaviest first on a clock; the heaviest path; the rows a
// tree grid shows for a set of open nodes; the nodes a search finds and what opens to show
// them. Pure logic, no DOM (unit-tested). Names are trace text: only ever shown as text.

/** Node 0: the thread, or every thread (whose nodes are then its children). */
export const ROOT = 0;

/**
 * The walkable tree of the core's table (`names`, and per node `parent`, `name`,
 * `total_wall`, `self_wall`, `total_cpu`, `self_cpu`, `calls`). `allThreads`: node 0's
 * children are threads, not frames of the trace's stacks.
 */
export function callTree(table, allThreads = false) {
  const size = table.parent.length;
  // Children by parent, in one array: node n's are at [start[n], start[n + 1]).
  const start = new Int32Array(size + 1);
  for (let n = 1; n < size; n++) start[table.parent[n] + 1]++;
  for (let n = 0; n < size; n++) start[n + 1] += start[n];
  const fill = start.slice(0, size);
  const children = new Int32Array(Math.max(0, size - 1));
  for (let n = 1; n < size; n++) children[fill[table.parent[n]]++] = n;
  return { table, size, start, children, allThreads, sorted: new Map() };
}

/** A node's time on `clock` (`wall` or `cpu`): `total` or `self`. */
export function timeOf(tree, node, clock, kind = 'total') {
  return tree.table[kind + '_' + clock][node];
}

export function nameOf(tree, node) {
  return node === ROOT ? '' : tree.table.names[tree.table.name[node]];
}

export function parentOf(tree, node) {
  return node === ROOT ? -1 : tree.table.parent[node];
}

/** Whether a node stands for a thread (in the all-threads tree), not a frame. */
export function isThread(tree, node) {
  return tree.allThreads && parentOf(tree, node) === ROOT;
}

/** A node's children, the most time on `clock` first (then by name). */
export function childrenOf(tree, node, clock) {
  const key = clock + ':' + node;
  let list = tree.sorted.get(key);
  if (!list) {
    const total = tree.table['total_' + clock];
    list = Array.from(tree.children.subarray(tree.start[node], tree.start[node + 1]));
    list.sort((a, b) => total[b] - total[a] || (nameOf(tree, a) < nameOf(tree, b) ? -1 : nameOf(tree, a) > nameOf(tree, b) ? 1 : a - b));
    tree.sorted.set(key, list);
  }
  return list;
}

export function hasChildren(tree, node) {
  return tree.start[node + 1] > tree.start[node];
}

/**
 * From node 0, each time the heaviest child on `clock`, while that child holds more time
 * than its parent spends itself (past that the time is the parent's own).
 */
export function heaviestPath(tree, clock) {
  const path = [ROOT];
  for (;;) {
    const at = path[path.length - 1];
    const next = childrenOf(tree, at, clock)[0];
    if (next === undefined || timeOf(tree, next, clock) === 0) return path;
    if (at !== ROOT && timeOf(tree, next, clock) < timeOf(tree, at, clock, 'self')) return path;
    path.push(next);
  }
}

/** The nodes from node 0 to `node`, both included. */
export function ancestry(tree, node) {
  const path = [];
  for (let n = node; n !== -1; n = parentOf(tree, n)) path.push(n);
  return path.reverse();
}

/** The frame names from the root to `node`: threads and node 0 left out. */
export function framePath(tree, node) {
  return ancestry(tree, node).filter((n) => n !== ROOT && !isThread(tree, n)).map((n) => nameOf(tree, n));
}

/**
 * The rows on show: node 0's descendants in order, each under an open parent, with their
 * depth (1 for node 0's children). At most `limit` rows; `more` says how many were left out.
 */
export function visibleRows(tree, open, clock, limit = Infinity) {
  const rows = [];
  let more = 0;
  const pending = childrenOf(tree, ROOT, clock).map((n) => [n, 1]).reverse();
  while (pending.length) {
    const [node, depth] = pending.pop();
    if (rows.length < limit) rows.push({ node, depth });
    else more++;
    if (open.has(node)) {
      const kids = childrenOf(tree, node, clock);
      for (let i = kids.length - 1; i >= 0; i--) pending.push([kids[i], depth + 1]);
    }
  }
  return { rows, more };
}

/**
 * The nodes whose names contain `term` (any case), heaviest on `clock` first, at most
 * `limit`; `total` counts them all.
 */
export function findNodes(tree, term, clock, limit = Infinity) {
  const wanted = term.trim().toLowerCase();
  if (!wanted) return { nodes: [], total: 0 };
  // Each name is tested once, not once per node.
  const hit = tree.table.names.map((name) => name.toLowerCase().includes(wanted));
  const found = [];
  for (let n = 1; n < tree.size; n++) if (hit[tree.table.name[n]] && !isThread(tree, n)) found.push(n);
  const total = tree.table['total_' + clock];
  found.sort((a, b) => total[b] - total[a] || a - b);
  return { nodes: found.slice(0, limit), total: found.length };
}

/** The set of open nodes that shows every one of `nodes`: their ancestors. */
export function openTo(nodes, tree, open = new Set()) {
  for (const node of nodes) for (let n = parentOf(tree, node); n > ROOT; n = parentOf(tree, n)) open.add(n);
  return open;
}
