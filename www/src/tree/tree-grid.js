// One call tree on the page, as a treegrid: a row per open node, indented by depth, with
// total and self time on each clock the trace has, calls and share. Used by the Call Tree
// tab and by both halves of its sandwich. The keyboard as a treegrid's: Up and Down move,
// Right opens a row (or goes to its first child), Left closes it (or goes to its parent),
// Home and End, Enter or Space selects; the Menu key or Shift+F10 (and a right click)
// asks for the row's menu. The open rows are this grid's own; what is selected is the
// caller's (`onSelect`). Names are trace text: only ever set as text.

import { element } from '../shared/dom.js';
import { clockHeading, count, countHeading, countNoun, countsCalls, frameNameParts, percent, unitOf, unitSymbol } from '../shared/format.js';
import { isMenuKey, nextIndex } from '../shared/list-keys.js';
import { ROOT, childrenOf, hasChildren, heaviestPath, isThread, nameOf, parentOf, timeOf, visibleRows } from './call-tree.js';

// A grid draws this many rows at first, and this many more each time more are asked for:
// a bottom-up tree of every thread opens thousands of leaves at once.
export const ROW_LIMIT = 200;

/**
 * A grid in `table` (a `<table>` element): `label` names it; `compact`: only the columns of
 * the clock it is ordered by, no calls; `onSelect(node)` when a row is chosen,
 * `onMenu(node, {left, top})` when its menu is asked for.
 */
export function createTreeGrid(table, { label, compact = false, onSelect = () => {}, onMenu = null }) {
  table.setAttribute('role', 'treegrid');
  table.setAttribute('aria-label', label);
  table.classList.add('grid', 'tree-grid');
  const head = element('thead');
  const body = element('tbody');
  table.replaceChildren(head, body);
  let tree = null;
  let clock = 'wall';
  let clocks = ['wall'];
  // The trace's summary: what each clock's values count.
  let summary = null;
  // Bottom-up: a frame's self time is its root's total, and calls are not counted (a row
  // is a path of callers): neither column is shown. Samples and allocations are: each stack
  // once.
  let inverted = false;
  let open = new Set();
  let focused = -1;
  let selected = -1;
  let marked = new Set();
  let limit = ROW_LIMIT;

  // Whether the rows' counts mean something: calls only top-down.
  function showsCounts() {
    return !inverted || !countsCalls(summary);
  }

  // The clocks with columns: in a compact grid only the one the tree is ordered by.
  function shownClocks() {
    return compact ? [clock] : clocks;
  }

  function headers() {
    const numbers = shownClocks().flatMap((c) => {
      const heading = clockHeading(summary, c);
      const of = unitSymbol(unitOf(summary, c)) + ' of the stacks ';
      const where = unitOf(summary, c) === 'us' ? ', on the ' + heading + ' clock' : '';
      return [
        { text: heading + ' total', title: of + 'through the frame' + where + (inverted ? ' (a root\'s is what it spends itself)' : ''), c, other: c !== clock },
        inverted ? null : { text: heading + ' self', title: of + 'that end at the frame' + where, c, other: c !== clock },
      ];
    }).filter(Boolean);
    if (!compact && showsCounts()) {
      numbers.push(countsCalls(summary)
        ? { text: 'Calls', title: 'Calls of the frame on its path' }
        : { text: countHeading(summary), title: 'The ' + countNoun(summary) + ' whose stack holds the path, each once' });
    }
    numbers.push({ text: 'Share', title: 'Total on the clock the tree is ordered by, as a share of the whole' });
    table.replaceChildren(
      element('colgroup', null, element('col', { class: 'tree-name-col' }),
        ...numbers.map((n) => element('col', { class: (n.text === 'Share' ? 'tree-share-col' : 'tree-number-col') + (n.other ? ' other-clock' : '') }))),
      head, body);
    head.replaceChildren(element('tr', null, element('th', { scope: 'col', class: 'tree-name', text: 'Frame' }),
      ...numbers.map((n) => element('th', {
        scope: 'col', class: 'n' + (n.c === clock && !compact ? ' on-clock' : '') + (n.other ? ' other-clock' : ''), text: n.text, title: n.title,
      }))));
  }

  // The name, its head cut first where the column is narrow.
  function label(name, found) {
    const { head, tail } = frameNameParts(name);
    return element('span', { class: found ? 'tree-label found' : 'tree-label' },
      element('span', { class: 'head', text: head }), element('span', { class: 'tail', text: tail }));
  }

  function row(node, depth) {
    const name = nameOf(tree, node);
    const parent = hasChildren(tree, node);
    const whole = timeOf(tree, ROOT, clock) || timeOf(tree, ROOT, clock, 'total');
    const share = timeOf(tree, node, clock) / (whole || 1);
    const calls = tree.table.calls[node];
    const attributes = {
      role: 'row', 'data-node': String(node), 'aria-level': String(depth), tabindex: node === focused ? '0' : '-1',
      'aria-selected': String(node === selected), class: isThread(tree, node) ? 'tree-thread' : null,
    };
    if (parent) attributes['aria-expanded'] = String(open.has(node));
    return element('tr', attributes,
      element('td', { role: 'gridcell', class: 'tree-name', title: name },
        element('div', { class: 'tree-cell', style: '--depth:' + (depth - 1) },
          element('span', { class: 'twisty', 'aria-hidden': 'true', text: parent ? (open.has(node) ? '▾' : '▸') : '' }),
          label(name, marked.has(node)))),
      ...shownClocks().flatMap((c) => [
        element('td', { role: 'gridcell', class: c === clock ? 'n' : 'n other-clock', text: count(timeOf(tree, node, c)) }),
        inverted ? null : element('td', { role: 'gridcell', class: c === clock ? 'n' : 'n other-clock', text: count(timeOf(tree, node, c, 'self')) }),
      ]),
      compact || !showsCounts() ? null : element('td', { role: 'gridcell', class: 'n', text: calls ? count(calls) : '' }),
      element('td', { role: 'gridcell', class: 'n share', style: '--share:' + Math.min(1, share).toFixed(4) },
        element('span', { text: percent(timeOf(tree, node, clock), whole) })));
  }

  function render() {
    if (!tree) return;
    const { rows, more } = visibleRows(tree, open, clock, limit);
    if (!rows.some((r) => r.node === focused)) focused = rows.length ? rows[0].node : -1;
    const children = rows.map((r) => row(r.node, r.depth));
    if (more) {
      children.push(element('tr', { class: 'tree-more' }, element('td', { colspan: String(table.querySelectorAll('col').length) },
        element('button', {
          type: 'button', class: 'link', text: 'Show ' + count(Math.min(more, ROW_LIMIT)) + ' more rows',
          onclick: () => {
            limit += ROW_LIMIT;
            render();
            focusRow(focused);
          },
        }), element('span', { class: 'muted', text: ' (' + count(more) + ' open rows not shown)' }))));
    }
    body.replaceChildren(...children);
  }

  function rowOf(node) {
    return body.querySelector('tr[data-node="' + node + '"]');
  }

  function focusRow(node, keyboard = true) {
    focused = node;
    for (const r of body.querySelectorAll('tr[tabindex="0"]')) r.tabIndex = -1;
    const r = rowOf(node);
    if (!r) return;
    r.tabIndex = 0;
    if (keyboard) r.focus();
  }

  function toggle(node, state = !open.has(node)) {
    if (!hasChildren(tree, node) || open.has(node) === state) return;
    // Drawing the rows again takes the keyboard's row away: it comes back to the same one.
    const keyboard = body.contains(document.activeElement);
    if (state) open.add(node);
    else open.delete(node);
    render();
    focusRow(node, keyboard);
  }

  function select(node) {
    selected = node;
    for (const r of body.querySelectorAll('tr[aria-selected="true"]')) r.setAttribute('aria-selected', 'false');
    const r = rowOf(node);
    if (r) r.setAttribute('aria-selected', 'true');
    onSelect(node);
  }

  function menuAt(node, point) {
    if (!onMenu) return;
    const r = rowOf(node);
    const box = r ? r.querySelector('.tree-label').getBoundingClientRect() : { left: 0, bottom: 0 };
    onMenu(node, point || { left: box.left, top: box.bottom });
  }

  body.addEventListener('keydown', (event) => {
    const r = event.target.closest('tr[data-node]');
    if (!r || !tree) return;
    const node = Number(r.dataset.node);
    const rows = Array.from(body.querySelectorAll('tr[data-node]'));
    const at = rows.indexOf(r);
    let handled = true;
    if (event.key === 'ArrowRight') {
      if (hasChildren(tree, node) && !open.has(node)) toggle(node, true);
      else if (open.has(node)) focusRow(childrenOf(tree, node, clock)[0]);
    } else if (event.key === 'ArrowLeft') {
      if (open.has(node)) toggle(node, false);
      else if (parentOf(tree, node) > ROOT) focusRow(parentOf(tree, node));
    } else if (event.key === 'Enter' || event.key === ' ') {
      select(node);
    } else if (isMenuKey(event)) {
      menuAt(node);
    } else {
      const next = nextIndex(event.key, at, rows.length, 20);
      if (next === null) handled = false;
      else focusRow(Number(rows[next].dataset.node));
    }
    if (handled) event.preventDefault();
  });
  body.addEventListener('click', (event) => {
    const r = event.target.closest('tr[data-node]');
    if (!r) return;
    const node = Number(r.dataset.node);
    focusRow(node);
    if (event.target.closest('.twisty')) toggle(node);
    else select(node);
  });
  body.addEventListener('dblclick', (event) => {
    const r = event.target.closest('tr[data-node]');
    if (r && !event.target.closest('.twisty')) toggle(Number(r.dataset.node));
  });
  body.addEventListener('contextmenu', (event) => {
    const r = event.target.closest('tr[data-node]');
    if (!r || !onMenu) return;
    event.preventDefault();
    focusRow(Number(r.dataset.node));
    menuAt(Number(r.dataset.node), { left: event.clientX, top: event.clientY });
  });

  return {
    /**
     * Shows `newTree` on `newClock` (of the trace's `traceClocks`), opened along its heaviest
     * path, the path's last node focused (not given the keyboard). `isInverted`: a bottom-up
     * tree, whose stacks run leaf first. `traceSummary` says what each clock's values count.
     */
    show(newTree, newClock, traceClocks, isInverted = false, traceSummary = null) {
      summary = traceSummary;
      tree = newTree;
      clock = newClock;
      clocks = traceClocks;
      inverted = isInverted;
      const path = heaviestPath(tree, clock);
      open = new Set(path);
      limit = ROW_LIMIT;
      focused = path.length > 1 ? path[path.length - 1] : -1;
      selected = -1;
      marked = new Set();
      headers();
      render();
    },
    /**
     * Search results: `nodes` marked and opened to; the first of them focused and, unless
     * `reveal` is false (the same search over a tree made again), scrolled into sight.
     */
    mark(nodes, openNodes, reveal = true) {
      if (!tree) return;
      marked = new Set(nodes);
      for (const n of openNodes) open.add(n);
      if (nodes.length) focused = nodes[0];
      render();
      const r = rowOf(focused);
      if (r && nodes.length && reveal) r.scrollIntoView({ block: 'nearest' });
    },
    /** Empties the grid. */
    clear() {
      tree = null;
      head.replaceChildren();
      body.replaceChildren();
    },
    /** The keyboard to the focused row. */
    focus() {
      if (focused >= 0) focusRow(focused);
    },
    /** The focused row scrolled into sight (the grid's pane may have just shrunk). */
    reveal() {
      const r = focused >= 0 && rowOf(focused);
      if (r) r.scrollIntoView({ block: 'nearest' });
    },
    get tree() {
      return tree;
    },
  };
}
