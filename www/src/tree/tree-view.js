// The Call Tree tab: the selected thread's (or every thread's) call tree in the store's
// view, top down or bottom up (the view's Invert), on the chosen clock, within the range;
// opened along its heaviest path; a search that opens the rows down to each match; and the
// sandwich of the selected function: its callers, bottom-up from it, and its callees,
// merged across all its calls. A row's menu adds a transform to the view, as the flame
// graph's does.

import { $ } from '../shared/dom.js';
import { countText, clockWords, threadLabel, unitOf, unitSymbol } from '../shared/format.js';
import { callTree, findNodes, framePath, isThread, nameOf, openTo, ROOT } from './call-tree.js';
import { createFrameMenu } from '../flame/frame-menu.js';
import { changed, clocksOf } from '../shared/state.js';
import { rangeText } from '../shared/timespan.js';
import { createTreeGrid } from './tree-grid.js';
import { INVERTED_PATHS, chosenPatch, pathMenuItems, refused, sandwichViews, withInvert } from '../shared/transforms.js';

// Search marks and opens at most this many matches, the heaviest first.
export const SEARCH_LIMIT = 200;
// Typing pauses this long before the tree searches.
const SEARCH_DELAY_MS = 150;

const FROM_FUNCTION = 'This tree begins at a function, not at the roots of the stacks: focus on a subtree in the call tree.';

/** What the search found, in words. */
export function matchedWords(found) {
  if (found.total === 0) return 'No frame matches';
  const text = countText(found.total, 'frame') + (found.total === 1 ? ' matches' : ' match');
  return found.total > found.nodes.length ? text + ' (the heaviest ' + found.nodes.length + ' opened)' : text;
}

export function createTreeView({ store, products }) {
  const menu = createFrameMenu();
  const main = createTreeGrid($('tree-grid'), {
    label: 'Call tree',
    onSelect: (node) => selectFunction(main, node),
    onMenu: (node, point) => openMenu(main, node, point, ''),
  });
  const callers = createTreeGrid($('sandwich-callers'), {
    label: 'Callers of the selected function, bottom-up',
    compact: true,
    onSelect: (node) => selectFunction(callers, node),
    onMenu: (node, point) => openMenu(callers, node, point, FROM_FUNCTION),
  });
  const callees = createTreeGrid($('sandwich-callees'), {
    label: 'Callees of the selected function, merged across its calls',
    compact: true,
    onSelect: (node) => selectFunction(callees, node),
    onMenu: (node, point) => openMenu(callees, node, point, FROM_FUNCTION),
  });
  let stale = true;
  let searchTimer = 0;

  function progress(name) {
    document.body.dataset.tree = name;
  }

  function selectFunction(grid, node) {
    if (node === ROOT || isThread(grid.tree, node)) return;
    store.update({ treeFunction: nameOf(grid.tree, node) });
  }

  async function openMenu(grid, node, point, noSubtree) {
    const name = nameOf(grid.tree, node);
    const thread = isThread(grid.tree, node);
    const libraries = thread ? [] : await products.libraries(name);
    const s = store.get();
    const items = thread
      ? [{ label: 'Show only ' + name, thread: name }]
      : pathMenuItems(framePath(grid.tree, node), { noSubtree: noSubtree || (s.view.invert ? INVERTED_PATHS : ''), libraries });
    menu.open(name, items, point.left, point.top, {
      choose: (item) => {
        store.update(chosenPatch(store.get(), item));
        main.focus();
      },
      back: grid.focus,
    });
  }

  // `times in µs`; `in samples`, `in bytes` for values that are no time.
  function valuesIn(unit) {
    return (unit === 'us' ? 'times in ' : 'in ') + unitSymbol(unit);
  }

  function title(state) {
    const t = state.thread < 0 ? null : state.summary.threads[state.thread];
    return threadLabel(t) + ' — ' + clockWords(state.clock, state.summary) + (state.range ? ' in ' + rangeText(state.range) : '') +
      (state.view.invert ? ', bottom-up' : ', top-down') + ' (' + valuesIn(unitOf(state.summary, state.clock)) + ')';
  }

  function clocks(state) {
    const available = clocksOf(state.summary);
    return ['wall', 'cpu'].filter((c) => available[c]);
  }

  // Whether `state` still asks for what `was` asked for.
  function same(state, was) {
    return !changed(state, was, 'summary', 'thread', 'clock', 'range', 'view');
  }

  async function render(state) {
    stale = false;
    progress('loading');
    $('tree-error').hidden = true;
    $('tree-title').textContent = title(state);
    let table;
    try {
      table = await products.tree(state.thread);
    } catch (error) {
      if (error.kind === 'view' && store.get().view === state.view) store.update(refused(store.get(), error.message));
      else if (error.kind !== 'view' && same(store.get(), state)) fail(error.message);
      return;
    }
    if (!same(store.get(), state)) return;
    main.show(callTree(table, state.thread < 0), state.clock, clocks(state), state.view.invert, state.summary);
    if (state.viewError) note(state.viewError);
    search(store.get());
    await sandwich(store.get());
    if (same(store.get(), state)) progress('ready');
  }

  function fail(text) {
    main.clear();
    note(text);
    progress('error');
  }

  function note(text) {
    $('tree-error').textContent = text;
    $('tree-error').hidden = false;
  }

  function search(state) {
    const tree = main.tree;
    if (!tree) return;
    const found = findNodes(tree, state.treeSearch, state.clock, SEARCH_LIMIT);
    main.mark(found.nodes, openTo(found.nodes, tree));
    $('tree-matched').textContent = state.treeSearch.trim() ? matchedWords(found) : '';
  }

  async function sandwich(state) {
    const name = state.treeFunction;
    $('sandwich').hidden = !name;
    if (!name) return;
    // The sandwich takes room from the tree: the row it is of stays in sight.
    main.reveal();
    $('sandwich-name').textContent = name;
    $('sandwich-error').hidden = true;
    const views = sandwichViews(state.view, name);
    let tables;
    try {
      tables = await Promise.all([products.tree(state.thread, views.callers), products.tree(state.thread, views.callees)]);
    } catch (error) {
      if (!same(store.get(), state) || store.get().treeFunction !== name) return;
      callers.clear();
      callees.clear();
      $('sandwich-error').textContent = error.kind === 'view'
        ? name + ' is not in this view: choose another function.'
        : error.message;
      $('sandwich-error').hidden = false;
      return;
    }
    if (!same(store.get(), state) || store.get().treeFunction !== name) return;
    callers.show(callTree(tables[0], state.thread < 0), state.clock, clocks(state), true, state.summary);
    callees.show(callTree(tables[1], state.thread < 0), state.clock, clocks(state), false, state.summary);
  }

  $('tree-search').addEventListener('input', () => store.update({ treeSearch: $('tree-search').value }));
  $('tree-search').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') store.update({ treeSearch: '' });
    else if (event.key === 'Enter') main.focus();
  });
  $('tree-top-down').addEventListener('change', () => store.update(withInvert(store.get(), false)));
  $('tree-bottom-up').addEventListener('change', () => store.update(withInvert(store.get(), true)));
  $('sandwich-close').addEventListener('click', () => {
    store.update({ treeFunction: '' });
    main.focus();
  });

  store.subscribe((state, previous) => {
    if (changed(state, previous, 'phase', 'summary', 'thread', 'view', 'tab')) menu.close();
    // A trace opens in the plain view, the same as the one before it: its radio is set then too.
    if (changed(state, previous, 'view', 'summary')) {
      $('tree-top-down').checked = !state.view.invert;
      $('tree-bottom-up').checked = state.view.invert;
    }
    if (changed(state, previous, 'treeSearch') && $('tree-search').value !== state.treeSearch) $('tree-search').value = state.treeSearch;
    if (state.phase !== 'done') return;
    const whole = changed(state, previous, 'summary', 'thread', 'clock', 'range', 'view');
    if (whole) stale = true;
    if (state.tab !== 'tree') return;
    if (stale) {
      render(state);
      return;
    }
    if (changed(state, previous, 'treeSearch')) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => search(store.get()), state.treeSearch ? SEARCH_DELAY_MS : 0);
    }
    if (changed(state, previous, 'treeFunction')) sandwich(state);
  });
}
