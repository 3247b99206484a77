// Every call of one thread, zoomed in, where the engine kept only the longer ones: past its
// call limit it left out calls under a threshold, and reads them again from the file for a
// window of one thread once the view is narrow enough that one could be a pixel wide. This
// module decides when, asks the worker, and says how complete the drawn boxes are.

import { $ } from '../shared/dom.js';
import { sizeText } from '../shared/format.js';
import { covers, detailWindow, timeText, wantsDetail } from '../shared/timespan.js';

/** Shows a `{text, kind}` status: the text in the toolbar, the kind on the body for tests. */
export function showDetail({ text, kind }) {
  $('timeline-detail').textContent = text;
  document.body.dataset.timelineDetail = kind;
}

/**
 * `products.detail(thread, from, to, progress)` reads a window again; `refresh()` is called
 * when one has been read (or could not be), to fetch the boxes again; `say(status)` shows
 * the reading's progress.
 */
export function createDetailReader(products, refresh, say = showDetail) {
  let held = null; // {thread, from, to}: the window the engine holds every call of
  let reading = null; // the window being read
  let failed = null; // a window that could not be read, not tried again

  function read(window, status) {
    reading = window;
    const progress = (bytes) => {
      if (reading === window) say({ text: status.text.replace(/…$/, ': ' + sizeText(bytes) + '…'), kind: 'reading' });
    };
    products.detail(window.thread, window.from, window.to, progress).then((result) => {
      if (reading !== window) return;
      reading = null;
      if (!result.cancelled) held = window;
      refresh();
    }).catch((error) => {
      if (reading !== window) return;
      reading = null;
      failed = Object.assign({ error: error.message }, window);
      refresh();
    });
  }

  return {
    /**
     * How complete the boxes of `want` (`{from, to}` µs, `pixels` wide, `thread` or -1 for
     * all) are, as `{text, kind}`; starts reading the window again when it is wanted.
     * `facts`: the timeline's (`left_out`, `shortest_us`, `reread`, `length_us`).
     */
    status(want, thread, pixels, facts) {
      const said = (text, kind) => ({ text, kind });
      if (!facts.left_out) return said('', 'all');
      const shortest = timeText(facts.shortest_us);
      if (!facts.reread) return said('Calls under ' + shortest + ' are not shown', 'left-out');
      if (thread < 0) return said('Calls under ' + shortest + ' show in one thread, zoomed in', 'left-out');
      if (!wantsDetail(want, pixels, facts.shortest_us)) return said('Calls under ' + shortest + ' show when zoomed in', 'left-out');
      const holds = (w) => w && w.thread === thread && covers(w, want);
      if (holds(held)) return said('Every call shown', 'exact');
      if (holds(failed)) return said('Calls under ' + shortest + ' could not be read again: ' + failed.error, 'failed');
      const status = said('Reading this part again for calls under ' + shortest + '…', 'reading');
      if (!holds(reading)) {
        say(status);
        read(Object.assign({ thread }, detailWindow(want, facts.length_us)), status);
      }
      return status;
    },

    /** Another trace: nothing held, nothing being read. */
    reset() {
      held = null;
      reading = null;
      failed = null;
    },
  };
}
