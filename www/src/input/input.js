// Files in: the picker, the "Open" buttons and drag and drop (of files or folders) anywhere
// on the page.

import { $ } from '../shared/dom.js';

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

/**
 * The files in dropped `entries` (the drop's `webkitGetAsEntry()`s, taken while the drop
 * lasts): a file as it is, a folder as every file in it and its subfolders, each with its
 * path from the dropped folder as `webkitRelativePath` (as the folder picker gives it: a
 * folder of `before/` and `after/` runs is grouped by them). Hidden files and folders
 * (`.DS_Store`, `.git`) are no runs.
 */
export async function filesOfEntries(entries) {
  const files = [];
  const pathOf = (entry) => entry.fullPath.replace(/^\//, '');
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  async function walk(entry, inFolder) {
    if (inFolder && entry.name.startsWith('.')) return;
    if (entry.isFile) {
      const file = await fileOf(entry);
      if (inFolder) Object.defineProperty(file, 'webkitRelativePath', { value: pathOf(entry) });
      files.push(file);
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      // A reader gives a folder's entries a batch at a time (100 in Chromium) until an empty one.
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const child of batch) await walk(child, true);
      }
    }
  }
  for (const entry of entries) {
    try {
      await walk(entry, false);
    } catch (error) {
      throw new Error('Could not read ' + pathOf(entry) + ' from the drop: '
        + ((error && error.message) || error) + '. Drop its files instead, or choose the folder.');
    }
  }
  return files;
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
    if (!event.dataTransfer) return;
    // Entries are only to be had during the drop; their files may be read after it.
    const entries = Array.from(event.dataTransfer.items || [])
      .map((item) => (item.kind === 'file' && item.webkitGetAsEntry ? item.webkitGetAsEntry() : null));
    if (entries.some((entry) => entry && entry.isDirectory)) {
      filesOfEntries(entries.filter(Boolean)).then(take, (error) => fail(error.message));
    } else {
      take(event.dataTransfer.files);
    }
  });
}
