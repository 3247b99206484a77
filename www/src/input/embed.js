// Embedding: `window.droidflame.analyze(bytes, options)` and `compare(before, after,
// options)` for pages that load droidflame, and the `#embed` mode, where a host page posts
// a trace (or two, to compare) to this page in an iframe.

import { toBytes } from '../engine/feed.js';

/** A copy of bytes given in any of the accepted forms (the worker takes ownership). */
export function copyBytes(input) {
  return toBytes(input).slice();
}

/**
 * `window.droidflame.analyze`: `{summary, threads: [{tid, name, svg}]}` for one trace;
 * `options.mapping` (the bytes of a mapping.txt) gives an obfuscated build its original names.
 */
export function analyzeApi(engine) {
  let calls = 0;
  return async function analyze(bytes, options = {}) {
    const key = 'api-' + (++calls);
    const copy = copyBytes(bytes);
    try {
      let { summary } = await engine.analyze(key, [copy]);
      if (options.mapping) {
        await engine.mappings([key], [copyBytes(options.mapping)]);
        summary = await engine.summary(key);
      }
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
 * `window.droidflame.compare`: two traces compared, `{before, after}` their summaries,
 * `clock`, `warnings`, `threads: [{name, before_us, after_us, svg}]` (by name, each its
 * differential flame graph), `methods` (per method `{name, class, method, signature, before,
 * after}` with `{calls, incl_us, excl_us}` on each side, largest inclusive change first) and
 * `default_thread` (the thread name to look at first, or null).
 * `options`: `clock` (`wall` or `cpu`), `widths` (`after` or `before`), `normalize`, `theme`.
 */
export function compareApi(engine) {
  let calls = 0;
  return async function compare(before, after, options = {}) {
    const id = 'api-compare-' + (++calls);
    const keys = [id + '-before', id + '-after'];
    try {
      const summaries = [];
      for (const [i, bytes] of [before, after].entries()) {
        summaries.push((await engine.analyze(keys[i], [copyBytes(bytes)])).summary);
      }
      const facts = await engine.compare(id, keys[0], keys[1], options.clock);
      const threads = [];
      for (const t of facts.threads) {
        const svg = await engine.diffSvg(id, t.name, options.widths, Boolean(options.normalize), options.theme);
        threads.push({ name: t.name, before_us: t.before_us, after_us: t.after_us, svg });
      }
      const methods = await engine.methodDeltas(id, facts.clock, '');
      return {
        before: summaries[0], after: summaries[1], clock: facts.clock, warnings: facts.warnings, threads, methods,
        default_thread: facts.default_thread,
      };
    } finally {
      for (const key of keys) engine.release(key).catch(() => {});
    }
  };
}

/**
 * `index.html#embed`: a host page sends `{type: 'droidflame:analyze', bytes, name}` and gets
 * `{type: 'droidflame:result', summary}` or `{type: 'droidflame:error', message}` back. It
 * may send `{type: 'droidflame:compare', before, after, beforeName, afterName}` instead:
 * the page opens before and shows its comparison with after; the result then carries
 * `comparison` (`{clock, warnings, threads}`) as well.
 */
export function wireEmbed(open, compareWith) {
  if (location.hash !== '#embed') return;
  document.body.classList.add('embed');
  window.addEventListener('message', async (event) => {
    const message = event.data;
    if (!message || !['droidflame:analyze', 'droidflame:compare'].includes(message.type) || !event.source) return;
    const answer = (data) => event.source.postMessage(data, event.origin === 'null' ? '*' : event.origin);
    try {
      if (message.type === 'droidflame:compare') {
        const summary = await open([copyBytes(message.before)], String(message.beforeName || 'before'));
        const comparison = await compareWith(copyBytes(message.after), String(message.afterName || 'after'));
        answer({ type: 'droidflame:result', summary, comparison });
        return;
      }
      const summary = await open([copyBytes(message.bytes)], String(message.name || 'trace'));
      answer({ type: 'droidflame:result', summary });
    } catch (error) {
      answer({ type: 'droidflame:error', message: error.message });
    }
  });
  if (window.parent !== window) window.parent.postMessage({ type: 'droidflame:ready' }, '*');
}
