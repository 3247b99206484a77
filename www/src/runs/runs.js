// The runs screen: many traces of one scenario put in two groups (proposed from their
// names, changed per run, or by a second drop), read one at a time with each file's
// progress, then the groups' graph and the methods compared with statistics
// (runs-methods.js). The worker keeps only each run's reduction.

import { $, download, element, redrawKeepingFocus } from '../shared/dom.js';
import { count, fileStem, sizeText } from '../shared/format.js';
import { createFlameView } from '../flame/flame-view.js';
import { readShare } from '../shared/progress.js';
import { changed } from '../shared/state.js';
import { mappingOf, newRuns, proposeGroups, runName, shortLabels, sideOf } from './run-groups.js';
import { addedMappings, mappedWords, renderMappings } from './runs-mappings.js';
import { createRunsMethods } from './runs-methods.js';
import { createRunsTree } from './runs-tree.js';

const GROUP_WORDS = { before: 'Before', after: 'After', '': 'Leave out' };

// In the order of their names (numbers by value): a drop's or a folder's own order is the system's.
const byName = (entries) => entries.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));

/** `body[data-state]` for the runs screen: choosing is idle, reading loading. */
export function runsDataState(runs) {
  return { choosing: 'idle', reading: 'loading', done: 'done', error: 'error' }[runs.phase] || 'idle';
}

/** `openFolder(files)`: a folder's files, opened as files dropped together are. */
export function createRuns({ store, engine, frameScript }, openFolder) {
  const graph = createFlameView(store, {
    frame: $('runs-flame'),
    script: frameScript,
    search: $('runs-search'),
    matched: $('runs-matched'),
    cursor: $('runs-cursor'),
    resetZoom: $('runs-reset-zoom'),
    error: $('runs-graph-error'),
    searchKey: 'runsSearch',
    progressKey: 'runsGraph',
    minHeight: 160,
  });
  createRunsMethods(store, engine);
  createRunsTree(store, engine);
  let svg = '';
  let shownGraph = null;
  // Bumped by each reading started or closed: an older one stops.
  let run = 0;

  const runs = () => store.get().runs;
  const setRuns = (patch) => store.update({ runs: Object.assign({}, runs(), patch) });
  const setFile = (index, patch) => {
    const files = runs().files.slice();
    files[index] = Object.assign({}, files[index], patch);
    setRuns({ files });
  };

  /**
   * Takes `files` as runs, and `mappingFiles` as the mapping files that rename them: a new
   * set, or, while groups are being chosen, runs after and more mapping files.
   */
  function add(files, mappingFiles = []) {
    const current = runs();
    const entries = byName(files.map((file) => ({ file, name: runName(file), size: file.size, group: '', status: 'waiting' })));
    if (current && current.phase === 'choosing') {
      let { why } = current;
      if (entries.length) {
        // A second drop: the runs after the change, unless their names say otherwise.
        const proposal = proposeGroups(entries.map((e) => e.name));
        entries.forEach((e, i) => { e.group = proposal.why ? proposal.groups[i] : sideOf(e.name) || 'after'; });
        if (!proposal.why) why = 'The second drop holds the runs after the change.';
      }
      const more = addedMappings(current.mappings, mappingFiles);
      setRuns({ files: current.files.concat(newRuns(current.files, entries)), why,
        mappings: more.mappings, error: more.error });
      return;
    }
    run++;
    // Files of one name from two folders whose paths were lost are named apart.
    const named = newRuns([], entries);
    entries.splice(0, entries.length, ...named);
    const proposal = proposeGroups(entries.map((e) => e.name));
    entries.forEach((e, i) => { e.group = proposal.why ? proposal.groups[i] : sideOf(e.name) || 'before'; });
    const first = addedMappings([], mappingFiles);
    store.update({
      phase: 'runs',
      runs: { phase: 'choosing', files: entries, why: proposal.why ? 'Grouped by ' + proposal.why + '.' : null, facts: null,
        mappings: first.mappings, error: first.error },
      runsMethod: -1,
      runsThread: '',
      runsClock: '',
    });
  }

  async function start() {
    const mine = ++run;
    const files = runs().files;
    setRuns({ phase: 'reading', files: files.map((f) => Object.assign({}, f, { status: f.group ? 'waiting' : 'left out', error: '' })) });
    try {
      let facts = await engine.runsOpen(store.get().runsClock);
      const mappings = runs().mappings.filter((m) => m.group);
      const renamedNothing = [];
      for (let i = 0; i < files.length; i++) {
        if (mine !== run) return;
        const f = runs().files[i];
        if (!f.group) continue;
        setFile(i, { status: 'reading', done: 0 });
        // The row's bar moves ten times a second at most: each move redraws the list of runs.
        let shown = 0;
        let shownAt = 0;
        try {
          const mapping = mappingOf(mappings, f.group);
          const answer = await engine.runsAdd(f.group, f.name, [f.file], (done, total) => {
            if (mine !== run) return;
            const share = readShare(done, total);
            document.body.dataset.runsRead = f.name + ':' + share.toFixed(2);
            const now = performance.now();
            if ((share > shown && now - shownAt >= 100) || (share === 1 && shown < 1)) {
              shown = share;
              shownAt = now;
              setFile(i, { done, total });
            }
          }, mapping && mapping.file);
          if (mine !== run) return;
          facts = answer.facts;
          const words = answer.mapped ? mappedWords(mapping, f, answer.mapped) : { status: '', warning: '' };
          if (words.warning) renamedNothing.push(words.warning);
          setFile(i, { status: 'read', mapped: words.status });
        } catch (error) {
          if (mine !== run) return;
          setFile(i, { status: 'left out', error: error.message });
        }
      }
      if (mine !== run) return;
      const read = (group) => facts.runs.filter((r) => r.group === group).length;
      if (read('before') === 0 || read('after') === 0) {
        const empty = read('before') === 0 ? 'before' : 'after';
        setRuns({ phase: 'choosing', error: 'No run of the ' + empty + ' group could be read: give each group at least one trace.' });
        return;
      }
      setRuns({ phase: 'done', facts, mappingWarnings: renamedNothing });
      // The button the keyboard was on is gone with the list: it goes to what was found.
      if (document.activeElement === document.body || document.activeElement === $('runs-start')) $('runs-facts').focus();
    } catch (error) {
      if (mine === run) setRuns({ phase: 'error', error: error.message });
    }
  }

  function close() {
    run++;
    engine.runsClose().catch(() => {});
    store.update({ phase: store.get().summary ? 'done' : 'idle', runs: null });
  }

  function renderChoose(state) {
    const r = state.runs;
    const reading = r.phase === 'reading';
    $('runs-proposal').textContent = r.why
      || 'The names do not say which runs come before the change: choose each run’s group, or drop the runs after the change.';
    // Paths from the folder every run is in: that folder says nothing.
    const labels = shortLabels(r.files.map((f) => f.name));
    redrawKeepingFocus($('runs-file-rows'), () => $('runs-file-rows').replaceChildren(...r.files.map((f, i) => {
      const select = element('select', { 'aria-label': 'Group of ' + f.name, disabled: reading ? '' : null,
        onchange: (event) => setFile(i, { group: event.target.value }) },
      ...Object.entries(GROUP_WORDS).map(([value, text]) => element('option', { value, text })));
      select.value = f.group;
      return element('tr', { 'data-status': f.status },
        element('th', { scope: 'row', class: 'name', text: labels[i], title: f.name }),
        element('td', {}, select),
        element('td', { class: 'n', text: sizeText(f.size) }),
        statusCell(f));
    })));
    const problem = renderMappings(r.mappings, reading, (i, group) => {
      const mappings = runs().mappings.slice();
      mappings[i] = Object.assign({}, mappings[i], { group });
      setRuns({ mappings, error: '' });
    });
    const counts = { before: 0, after: 0 };
    for (const f of r.files) if (f.group) counts[f.group]++;
    $('runs-start').disabled = reading || counts.before === 0 || counts.after === 0 || Boolean(problem);
    $('runs-start-note').textContent = reading ? 'Reading run ' + (r.files.findIndex((f) => f.status === 'reading') + 1) + ' of ' + r.files.length + '…'
      : problem || counts.before + ' before, ' + counts.after + ' after' + (counts.before && counts.after ? '' : ': each group needs a run');
    $('runs-error').hidden = !r.error;
    $('runs-error').textContent = r.error || '';
  }

  // What became of a run: waiting, its bar while read (then analysed), read, or left out and why.
  function statusCell(f) {
    if (f.status === 'reading') {
      const total = f.total || f.size;
      const share = readShare(f.done, total);
      return element('td', { class: 'run-reading' },
        element('progress', { max: '1', value: String(share), 'aria-label': 'Reading ' + f.name }),
        element('span', { text: share >= 1 ? ' Analysing…' : ' ' + sizeText(f.done) + ' of ' + sizeText(total) }));
    }
    const text = f.status === 'left out' ? (f.error ? 'Left out: ' + f.error : 'Left out')
      : f.status === 'read' ? 'Read' + (f.mapped ? ' · ' + f.mapped : '') : '';
    return element('td', { class: f.error ? 'error-text' : null, text });
  }

  function renderFacts(state) {
    const { facts, files } = state.runs;
    const before = facts.runs.filter((r) => r.group === 'before').length;
    const left = files.filter((f) => f.status === 'left out' && f.group).length;
    $('runs-facts').textContent = count(before) + ' runs before, ' + count(facts.runs.length - before) + ' after · '
      + facts.clock_words[facts.clock] + (left ? ' · ' + left + ' left out (see below)' : '');
    // The core's warnings, then each run left out and why.
    const notes = facts.warnings.concat(state.runs.mappingWarnings || [], files.filter((f) => f.status === 'left out' && f.group && f.error)
      .map((f) => f.name + ' was left out: ' + f.error));
    $('runs-warnings').replaceChildren(...notes.map((text) => element('li', { text })));
    $('runs-warnings').hidden = notes.length === 0;
    const select = $('runs-thread');
    select.replaceChildren(element('option', { value: '', text: 'All threads' }),
      ...facts.threads.map((name) => element('option', { value: name, text: name })));
    select.value = state.runsThread;
    // Another clock reads every run again: offered where every run has it.
    for (const clock of ['wall', 'cpu']) {
      const input = $('runs-clock-' + clock);
      const every = facts.clocks.includes(clock);
      input.disabled = !every;
      input.checked = facts.clock === clock;
      input.parentElement.title = every ? 'Compare the runs on ' + facts.clock_words[clock] + ' (each run is read again)'
        : 'Not every run has the ' + clock + ' clock';
    }
  }

  async function renderGraph(state) {
    const id = [state.runs.facts, state.runsGraph, state.runsThread, state.theme, state.runsShare];
    if (shownGraph && id.every((v, i) => v === shownGraph[i])) return;
    shownGraph = id;
    graph.loading();
    let made;
    try {
      made = state.runsGraph === 'diff'
        ? await engine.runsDiffSvg(state.runsThread, 'after', false, state.theme, 'self', { share: state.runsShare })
        : await engine.runsGroupSvg(state.runsGraph, 'median', state.runsThread, state.theme);
    } catch (error) {
      shownGraph = null;
      graph.fail(error.message);
      return;
    }
    const now = store.get();
    if (!now.runs || now.runs.facts !== state.runs.facts || now.runsGraph !== state.runsGraph
      || now.runsThread !== state.runsThread || now.theme !== state.theme || now.runsShare !== state.runsShare) return;
    await graph.show(made, state.theme, () => { svg = made; });
  }

  store.subscribe((state, previous) => {
    const r = state.runs;
    // A trace opened instead: the runs are let go.
    if (r && previous && previous.phase === 'runs' && state.phase !== 'runs') {
      run++;
      engine.runsClose().catch(() => {});
      store.update({ runs: null });
      return;
    }
    if (changed(state, previous, 'phase', 'runs')) $('runs').hidden = state.phase !== 'runs' || !r;
    if (!r) {
      shownGraph = null;
      return;
    }
    if (changed(state, previous, 'runs')) {
      $('runs-choose').hidden = r.phase === 'done';
      $('runs-body').hidden = r.phase !== 'done';
      if (r.phase !== 'done') renderChoose(state);
      else if (!previous || !previous.runs || previous.runs.facts !== r.facts) renderFacts(state);
    }
    if (r.phase === 'done') {
      if (changed(state, previous, 'runs', 'runsGraph', 'runsThread', 'theme', 'runsShare')) renderGraph(state);
      $('runs-graph').value = state.runsGraph;
      $('runs-thread').value = state.runsThread;
      $('runs-share').checked = state.runsShare;
      graph.shown();
    }
  });

  $('runs-start').addEventListener('click', () => start());
  $('runs-close').addEventListener('click', close);
  $('runs-graph').addEventListener('change', (event) => store.update({ runsGraph: event.target.value }));
  $('runs-thread').addEventListener('change', (event) => store.update({ runsThread: event.target.value }));
  $('runs-share').addEventListener('change', (event) => store.update({ runsShare: event.target.checked }));
  for (const clock of ['wall', 'cpu']) {
    $('runs-clock-' + clock).addEventListener('change', async (event) => {
      // The list of runs stands in for the results while they are read again: the switch
      // comes back where it was, with the keyboard on it.
      const input = event.target;
      const top = input.getBoundingClientRect().top;
      store.update({ runsClock: clock });
      await start();
      if ($('runs-body').hidden) return;
      input.focus({ preventScroll: true });
      // The results grow as their graph and table come: until the switch is back in its
      // place, each frame scrolls as far as they let it (two seconds at most).
      const back = (frames) => {
        const off = input.getBoundingClientRect().top - top;
        if (Math.abs(off) < 1 || frames === 0) return;
        $('runs').scrollTop += off;
        requestAnimationFrame(() => back(frames - 1));
      };
      back(120);
    });
  }
  $('runs-save-svg').addEventListener('click', () => {
    const s = store.get();
    download('runs-' + s.runsGraph + '-' + (s.runsThread ? fileStem(s.runsThread) : 'all-threads') + '.svg', svg, 'image/svg+xml');
  });
  const pickFolder = () => $('runs-folder-picker').click();
  $('runs-folder').addEventListener('click', pickFolder);
  $('welcome-folder').addEventListener('click', pickFolder);
  $('runs-folder-picker').addEventListener('change', (event) => {
    // Hidden files (`.DS_Store`) are no runs.
    const files = Array.from(event.target.files || []).filter((f) => !f.name.startsWith('.'));
    event.target.value = '';
    // Told apart as any files are: mapping files among the runs go with them.
    if (files.length) openFolder(files);
  });

  return { add };
}
