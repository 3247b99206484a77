// The single-file build's boot: from file:// nothing can be fetched, so the wasm is read
// from a base64 block in this page and the worker runs from a Blob URL of its inline source.
'use strict';
window.DROIDFLAME_BOOT = {
  wasmModule() {
    const text = document.getElementById('droidflame-wasm').textContent.trim();
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return WebAssembly.compile(bytes);
  },
  createWorker() {
    const source = document.getElementById('droidflame-worker').textContent;
    return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  },
};
