// The runs screen's call tree of one group: each stack's median over the group's runs as
// its self time, a frame's total the sum of its stacks' medians (as the group's graph
// draws it), on the runs' clock; of the thread chosen above or of every thread. The tree
// grid and search are the Call Tree tab's.

import { $ } from '../shared/dom.js';
import { callTree, findNodes, openTo } from '../tree/call-tree.js';
import { changed } from '../shared/state.js';
import { createTreeGrid } from '../tree/tree-grid.js';
import { SEARCH_LIMIT, matchedWords } from '../tree/tree-view.js';

const SEARCH_DELAY_MS = 150;

export function createRunsTree(store, engine) {
  const grid = createTreeGrid($('runs-tree'), { label: 'Call tree of a group of runs', compact: true });
  let shown = null;
  let searchTimer = 0;

  const asked = (state) => [state.runs && state.runs.facts, state.runsTreeGroup, state.runsThread];

  // `reveal`: the search was typed, so its first row comes into sight; not when the tree is
  // made again under a search that stands (another clock, thread or group).
  function search(state, reveal = true) {
    const tree = grid.tree;
    if (!tree) return;
    const found = findNodes(tree, state.runsTreeSearch, state.runs.facts.clock, SEARCH_LIMIT);
    grid.mark(found.nodes, openTo(found.nodes, tree), reveal);
    $('runs-tree-matched').textContent = state.runsTreeSearch.trim() ? matchedWords(found) : '';
  }

  async function render(state) {
    const id = asked(state);
    shown = id;
    const { clock, unit } = state.runs.facts;
    document.body.dataset.runsTree = 'loading';
    $('runs-tree-error').hidden = true;
    let table;
    try {
      table = await engine.runsTree(state.runsTreeGroup, 'median', state.runsThread);
    } catch (error) {
      if (shown !== id) return;
      grid.clear();
      $('runs-tree-error').textContent = error.message;
      $('runs-tree-error').hidden = false;
      document.body.dataset.runsTree = 'error';
      return;
    }
    if (asked(store.get()).some((v, i) => v !== id[i])) return;
    grid.show(callTree(table, !state.runsThread), clock, [clock], false, { units: { [clock]: unit } });
    $('runs-tree-unit').textContent = unit === 'us' ? 'Times in µs.' : 'Values in ' + unit + '.';
    search(store.get(), false);
    document.body.dataset.runsTree = 'ready';
  }

  // The select starts as the page wrote it (its first option): the store's group goes on it
  // now, as subscribers hear only of changes.
  $('runs-tree-group').value = store.get().runsTreeGroup;
  store.subscribe((state, previous) => {
    if (changed(state, previous, 'runsTreeGroup')) $('runs-tree-group').value = state.runsTreeGroup;
    if (changed(state, previous, 'runsTreeSearch') && $('runs-tree-search').value !== state.runsTreeSearch) {
      $('runs-tree-search').value = state.runsTreeSearch;
    }
    if (!state.runs || state.runs.phase !== 'done') {
      shown = null;
      return;
    }
    if (!shown || asked(state).some((v, i) => v !== shown[i])) {
      render(state);
    } else if (changed(state, previous, 'runsTreeSearch')) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => search(store.get()), state.runsTreeSearch ? SEARCH_DELAY_MS : 0);
    }
  });

  $('runs-tree-group').addEventListener('change', (event) => store.update({ runsTreeGroup: event.target.value }));
  $('runs-tree-search').addEventListener('input', (event) => store.update({ runsTreeSearch: event.target.value }));
  $('runs-tree-search').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') store.update({ runsTreeSearch: '' });
    else if (event.key === 'Enter') grid.focus();
  });
}
