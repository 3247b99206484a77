// How far the reading of a file has got, said the same way wherever a file is read: the
// trace opened (main.js), the trace it is compared with (compare.js), mapping files
// (mapping.js).

import { sizeText } from './format.js';

/** `Reading a.trace…`, then `Reading a.trace: 3.0 MiB of 12.0 MiB`. */
export function readingText(name, done, total) {
  return done === undefined ? 'Reading ' + name + '…' : 'Reading ' + name + ': ' + sizeText(done) + ' of ' + sizeText(total);
}

/** The share of a file read, for a `<progress max="1">`. */
export function readShare(done, total) {
  return total ? done / total : 0;
}

/** A bar and a line of text over existing elements. */
export function createProgress(bar, text) {
  return {
    start(name) {
      bar.value = 0;
      text.textContent = readingText(name);
    },
    read(name, done, total) {
      bar.value = readShare(done, total);
      text.textContent = readingText(name, done, total);
    },
    say(words) {
      text.textContent = words;
    },
  };
}
