// Embedding: `window.droidflame.analyze(bytes, options)` for pages that load droidflame,
// and the `#embed` mode, where a host page posts a trace to this page in an iframe.

import { toBytes } from './feed.js';

/** A copy of bytes given in any of the accepted forms (the worker takes ownership). */
export function copyBytes(input) {
  return toBytes(input).slice();
}

/** `window.droidflame.analyze`: `{summary, threads: [{tid, name, svg}]}` for one trace. */
export function analyzeApi(engine) {
  let calls = 0;
  return async function analyze(bytes, options = {}) {
    const key = 'api-' + (++calls);
    const copy = copyBytes(bytes);
    try {
      const { summary } = await engine.analyze(key, [copy]);
      const threads = [];
      for (let i = 0; i < summary.threads.length; i++) {
        const t = summary.threads[i];
        threads.push({ tid: t.tid, name: t.name, svg: await engine.svg(key, i, options.clock, options.theme) });
      }
      return { summary, threads };
    } finally {
      engine.release(key).catch(() => {});
    }
  };
}

/**
 * `index.html#embed`: a host page sends `{type: 'droidflame:analyze', bytes, name}` and gets
 * `{type: 'droidflame:result', summary}` or `{type: 'droidflame:error', message}` back.
 */
export function wireEmbed(open) {
  if (location.hash !== '#embed') return;
  document.body.classList.add('embed');
  window.addEventListener('message', async (event) => {
    const message = event.data;
    if (!message || message.type !== 'droidflame:analyze' || !event.source) return;
    const answer = (data) => event.source.postMessage(data, event.origin === 'null' ? '*' : event.origin);
    try {
      const summary = await open([copyBytes(message.bytes)], String(message.name || 'trace'));
      answer({ type: 'droidflame:result', summary });
    } catch (error) {
      answer({ type: 'droidflame:error', message: error.message });
    }
  });
  if (window.parent !== window) window.parent.postMessage({ type: 'droidflame:ready' }, '*');
}
