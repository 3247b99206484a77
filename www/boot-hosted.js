// The hosted build's boot: the wasm and the worker are files beside this page, found by
// relative URLs so the site works from any sub-path.
'use strict';
window.DROIDFLAME_BOOT = {
  wasmModule() {
    return fetch(new URL('droidflame_bg.wasm', document.baseURI))
      .then((response) => {
        if (!response.ok) throw new Error('droidflame_bg.wasm could not be loaded (' + response.status + ')');
        return response.arrayBuffer();
      })
      .then((bytes) => WebAssembly.compile(bytes));
  },
  createWorker() {
    return new Worker(new URL('worker.js', document.baseURI));
  },
};
