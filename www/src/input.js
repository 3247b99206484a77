// Files in: the picker, the "Open" buttons and drag and drop anywhere on the page.

import { $ } from './dom.js';

const CHOICES = 'Open one trace file, the .key and .data files of a split trace, two traces to compare, ' +
  'or three or more runs of one scenario, each build with its mapping.txt or not';

/** What to do with dropped or picked files: `{files}` to open, or `{error}`. */
export function chooseFiles(fileList) {
  const files = Array.from(fileList || []);
  if (files.length === 0) return { files: [] };
  return { files };
}

/**
 * Files told apart by `kinds` (`trace` or `mapping` each, as the engine tells them):
 * `{traces, mappings}`, or `{error}` for more than two mapping files (one per trace, or per
 * group of runs).
 */
export function sortFiles(files, kinds) {
  const traces = files.filter((_, i) => kinds[i] !== 'mapping');
  const mappings = files.filter((_, i) => kinds[i] === 'mapping');
  if (mappings.length > 2) {
    return { error: CHOICES + ' (got ' + traces.length + ' traces and ' + mappings.length + ' mapping files).' };
  }
  return { traces, mappings };
}

/** Calls `open(files)` for files picked or dropped, `fail(message)` for a wrong choice. */
export function wireInput(open, fail) {
  const take = (fileList) => {
    const choice = chooseFiles(fileList);
    if (choice.error) fail(choice.error);
    else if (choice.files.length) open(choice.files);
  };
  $('picker').addEventListener('change', (event) => {
    take(event.target.files);
    event.target.value = '';
  });
  for (const button of document.querySelectorAll('[data-open]')) {
    button.addEventListener('click', () => $('picker').click());
  }
  let depth = 0;
  const overlay = $('drop-overlay');
  window.addEventListener('dragenter', (event) => {
    if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes('Files')) return;
    event.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    if (event.dataTransfer) take(event.dataTransfer.files);
  });
}
