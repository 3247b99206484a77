// The page's address follows the view: its hash (link.js) changes as the view does,
// without a request, and without a history entry but where a heap dump's class or object is
// opened (so that Back returns to the one before, as following links in a browser does); a
// link opened (or pasted into an open page) shows its view in the trace opened with it,
// saying what it left out; "Copy link" copies it.
// An embedded page (`#embed`) leaves its address to its host. A pause after the view last
// changed, `body[data-address]` says `written` (or `kept`, embedded), for what waits on it.

import { $ } from '../shared/dom.js';
import { hashOf, linkFile, linkPatch, linkSource, parseHash } from './link.js';
import { PLAIN_VIEW, isPlain } from '../shared/transforms.js';

// A pause before the address changes: a search typed letter by letter is one change.
const LINK_DELAY_MS = 300;

export function createAddress(store, showSource) {
  // Embedded (`#embed`), the host page owns the address: it is neither read nor changed.
  if (window.location.hash === '#embed') {
    keepAddress(store);
    return { applyLink: () => {} };
  }
  // The view a link asks for, until a trace is open to show it in.
  let pendingLink = parseHash(window.location.hash);
  welcome();
  let linkTimer = 0;
  // The heap dump's class and object the address last showed.
  let shown = { heapClass: '', heapObject: '' };

  // The welcome says a link waits for its file, naming it where the link does.
  function welcome() {
    $('link-welcome').hidden = !pendingLink.params;
    const file = linkFile(pendingLink.params);
    $('link-welcome-file').textContent = file ? JSON.stringify(file) : 'a trace';
  }

  /**
   * The link's view shown in the trace just opened, with a note for each part left out;
   * its source first (`showSource(name, dump)`), as the rest is of that source.
   */
  async function applyLink() {
    const { params, notes: unread } = pendingLink;
    pendingLink = { params: null, notes: [] };
    $('link-welcome').hidden = true;
    const { wanted, notes: sourceNotes } = linkSource(params, store.get().summary);
    if (wanted) await showSource(wanted.name, wanted.dump);
    const { patch, notes: viewNotes } = linkPatch(params, store.get());
    const notes = sourceNotes.concat(viewNotes);
    // Undo goes from a linked view to the whole profile.
    if (patch.view && !isPlain(patch.view)) Object.assign(patch, { viewHistory: [PLAIN_VIEW], viewError: '' });
    // The link's class and object are where the address is already: no step.
    const now = store.get();
    shown = { heapClass: patch.heapClass ?? now.heapClass, heapObject: patch.heapObject ?? now.heapObject };
    store.update(patch);
    const said = unread.concat(notes);
    $('link-note-text').textContent = said.join(' ');
    $('link-note').hidden = said.length === 0;
  }

  $('link-note-close').addEventListener('click', () => { $('link-note').hidden = true; });
  function writeAddress() {
    const state = store.get();
    const hash = hashOf(state);
    if (hash && window.location.hash.slice(1) !== hash) {
      if (steps(state)) window.history.pushState(window.history.state, '', '#' + hash);
      else window.history.replaceState(window.history.state, '', '#' + hash);
      lastRead = window.location.hash;
    }
    shown = { heapClass: state.heapClass, heapObject: state.heapObject };
    document.body.dataset.address = 'written';
  }
  // A class or an object opened is a step Back returns from; closing one is not.
  const steps = (state) => ['heapClass', 'heapObject'].some((key) => state[key] && state[key] !== shown[key]);
  store.subscribe((state) => {
    $('copy-link').hidden = state.phase !== 'done';
    clearTimeout(linkTimer);
    if (state.phase !== 'done') return;
    document.body.dataset.address = 'waiting';
    // A step is written at once, so that quick steps are each one.
    if (steps(state)) writeAddress();
    else linkTimer = setTimeout(writeAddress, LINK_DELAY_MS);
  });
  // A link pasted into the open page, or Back to an object opened before (which browsers
  // tell as `popstate`; entries the page pushed make no `hashchange`).
  let lastRead = window.location.hash;
  const followAddress = () => {
    if (window.location.hash === lastRead) return;
    lastRead = window.location.hash;
    pendingLink = parseHash(window.location.hash);
    if (store.get().phase === 'done') applyLink();
    else welcome();
  };
  window.addEventListener('hashchange', followAddress);
  window.addEventListener('popstate', followAddress);
  $('copy-link').addEventListener('click', async () => {
    clearTimeout(linkTimer);
    window.history.replaceState(window.history.state, '', '#' + hashOf(store.get()));
    const status = $('copy-link-status');
    try {
      await navigator.clipboard.writeText(window.location.href);
      status.textContent = 'Link copied';
    } catch {
      status.textContent = 'The browser refused the clipboard: copy the address bar instead';
    }
    setTimeout(() => { status.textContent = ''; }, 4000);
  });

  return { applyLink };
}

// Embedded: the view changes as it would elsewhere and the address stays the host's; the
// same pause says so, where the address would have followed.
function keepAddress(store) {
  let timer = 0;
  store.subscribe((state) => {
    clearTimeout(timer);
    if (state.phase !== 'done') return;
    document.body.dataset.address = 'waiting';
    timer = setTimeout(() => { document.body.dataset.address = 'kept'; }, LINK_DELAY_MS);
  });
}
