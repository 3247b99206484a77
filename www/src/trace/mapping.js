// Deobfuscation: R8/ProGuard mapping files applied to the open traces. The worker reads
// them (they never leave the page, and only what the traces use is kept); this module
// picks the files, shows progress and the outcome, and hands the renamed traces to the
// views, which re-render with the original names.

import { $ } from '../shared/dom.js';
import { readingText, readShare } from '../shared/progress.js';

/**
 * The line shown once mappings are applied: which file named each open trace, and the
 * core's account of what it did where the notes do not show it (the compared trace).
 * `applied`: the engine's answer by key; `sides`: `[{key, label}]`, the trace on show first.
 */
export function outcomeText(applied, fileNames, sides) {
  return sides.filter((side) => applied[side.key]).map((side, i) => {
    const found = applied[side.key];
    // A mapping that renamed nothing is told as such, never as a source of names.
    if (!renamedAny(applied, side)) return side.label + ': ' + found.text;
    const from = side.label + ': names from ' + fileNames[found.file] + '.';
    return i === 0 ? from + ' See the notes for what was mapped.' : from + ' ' + found.text;
  }).join(' ');
}

function renamedAny(applied, side) {
  return applied[side.key].report.classes.mapped > 0;
}

/**
 * `sides()`: `[{key, label}]` of the open traces; `renamed(applied)` re-renders them.
 * Returns `{apply(files)}`.
 */
export function createMapping(store, engine, sides, renamed) {
  let run = 0;
  const bar = $('mapping-bar');

  function show(text, progress, error) {
    bar.hidden = false;
    bar.classList.toggle('error', Boolean(error));
    $('mapping-text').textContent = text;
    $('mapping-progress').hidden = progress === null;
    if (progress !== null) $('mapping-progress').value = progress;
  }

  async function apply(files) {
    const mine = ++run;
    const started = performance.now();
    const names = files.map((f) => f.name);
    const label = names.join(' + ');
    show(readingText(label), 0);
    try {
      const open = sides();
      const applied = await engine.mappings(open.map((s) => s.key), files, (done, total) => {
        if (mine === run) show(readingText(label, done, total), readShare(done, total));
      });
      if (mine !== run) return;
      await renamed(applied);
      // Shown as a warning where some open trace took no name from any file.
      show(outcomeText(applied, names, open), null, open.some((side) => applied[side.key] && !renamedAny(applied, side)));
      document.body.dataset.mappingMs = String(Math.round(performance.now() - started));
    } catch (error) {
      if (mine === run) show('Not applied, the names stay as they were: ' + error.message, null, true);
      throw error;
    }
  }

  store.subscribe((state, previous) => {
    if (!previous || state.phase === previous.phase) return;
    $('mapping-open').hidden = state.phase !== 'done';
    // Another trace: the old one's mapping line goes.
    if (state.phase !== 'done') {
      run++;
      bar.hidden = true;
    }
  });
  $('mapping-open').addEventListener('click', () => $('mapping-picker').click());
  $('mapping-picker').addEventListener('change', (event) => {
    const files = Array.from(event.target.files || []).slice(0, 2);
    event.target.value = '';
    if (files.length) apply(files).catch(() => {});
  });

  return { apply };
}
