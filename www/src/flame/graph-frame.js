// Runs inside each flame graph's sandboxed frame, after inferno's own script (whose
// functions and variables are globals there). The sandbox blocks inferno's search prompt,
// so the page's search box drives the graph by messages instead, and Ctrl+F in the graph
// goes to that box. It also gives the graph a keyboard: the arrow keys move a cursor from
// frame to frame, Enter or + zooms to it, - zooms out a level, Escape or 0 all the way;
// Ctrl+wheel (a trackpad's pinch) zooms in to the frame under the pointer and out a level
// at a time; a right-click on a frame, or the
// Menu key or Shift+F10 at the cursor, asks the page for its menu of transforms (the
// page draws it: a frame this small cannot hold it). The page's Content-Security-Policy
// allows this script by its hash: it must not depend on the graph.
/* global search, reset_search, unzoom, zoom, g_to_text, details, searchbtn, matchedtxt, nametype, searchcolor, orig_load */
/* eslint-disable no-var */
(function () {
  'use strict';
  var page = window.parent;
  var cursor = null;

  // inferno keeps its zoom and search in the URL; a sandboxed srcdoc frame may not change
  // its URL (it throws, and the search would stop half-way), and nothing reads it here.
  window.history.replaceState = function () {};

  // inferno unzooms once at load, which resets every frame of a graph nobody zoomed and
  // fits every label, just before it fits them all again for the frame's width: unzoom
  // does its work only when the graph is zoomed (before inferno's init has run, it is not).
  var unzoomZoomed = window.unzoom;
  window.unzoom = function () {
    var button = document.getElementById('unzoom');
    if ((button && !button.classList.contains('hide')) || document.querySelector('#frames > g.hide, #frames > g.parent')) {
      unzoomZoomed();
    }
  };

  // The frame zoomed to, where one is: zooming out goes to its caller.
  var zoomed = null;
  var zoomInto = window.zoom;
  window.zoom = function (node) {
    zoomed = node;
    zoomInto(node);
  };
  var unzoomAll = window.unzoom;
  window.unzoom = function () {
    zoomed = null;
    unzoomAll();
  };

  function tell(message) {
    message.droidflame = 'graph';
    page.postMessage(message, '*');
  }

  function frames() {
    var box = document.getElementById('frames');
    return box ? Array.prototype.slice.call(box.children) : [];
  }

  function geometry(g) {
    var r = g.querySelector('rect');
    return { x: Number(r.getAttribute('fg:x')), w: Number(r.getAttribute('fg:w')), y: Number(r.getAttribute('y')) };
  }

  function visible(g) {
    return !g.classList.contains('hide');
  }

  // Case-insensitive plain text, as inferno's search takes a regular expression.
  function pattern(text) {
    return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/\p{L}/gu, function (c) {
      var lower = c.toLowerCase();
      var upper = c.toUpperCase();
      return lower === upper ? c : '[' + lower + upper + ']';
    });
  }

  // A differential graph's colours are what it says: its search outlines the matches
  // instead of painting them over.
  var graph = document.querySelector('body>svg');
  var differential = Boolean(graph && graph.hasAttribute('data-differential'));

  function clearSearch() {
    if (differential) {
      graph.classList.remove('df-searching');
      frames().forEach(function (g) { g.classList.remove('df-match'); });
    }
    reset_search();
    window.searching = 0;
    searchbtn.classList.remove('show');
    searchbtn.firstChild.nodeValue = 'Search';
    matchedtxt.classList.add('hide');
    matchedtxt.firstChild.nodeValue = '';
  }

  function runSearch(term) {
    clearSearch();
    if (term) search(pattern(term));
    var matches = frames().filter(function (g) {
      var r = g.querySelector('rect');
      return r && r.getAttribute('fill') === searchcolor;
    });
    if (differential && matches.length) {
      matches.forEach(function (g) {
        orig_load(g.querySelector('rect'), 'fill');
        g.classList.add('df-match');
      });
      graph.classList.add('df-searching');
    }
    var hits = matches.length;
    tell({ type: 'matched', term: term, frames: hits, text: term && hits ? matchedtxt.firstChild.nodeValue : '' });
  }

  // Ctrl+F and F3 in the graph go to the page's search box, before inferno's own handler
  // (which would open its blocked prompt).
  window.addEventListener('keydown', function (event) {
    if (event.key === 'F3' || ((event.ctrlKey || event.metaKey) && (event.key === 'f' || event.key === 'F'))) {
      event.preventDefault();
      event.stopImmediatePropagation();
      tell({ type: 'find' });
    }
  }, true);

  // The graph's Search button: asks the page for its search box, or clears a search.
  window.search_prompt = function () {
    if (window.searching) {
      clearSearch();
      tell({ type: 'cleared' });
    } else {
      tell({ type: 'find' });
    }
  };

  // `keep`: the page leaves its scroll as it is (the frame is where the pointer is).
  function show(g, keep) {
    if (cursor) cursor.classList.remove('df-cursor');
    cursor = g;
    if (!g) return;
    g.classList.add('df-cursor');
    details.nodeValue = nametype + ' ' + g_to_text(g);
    var box = g.querySelector('rect').getBoundingClientRect();
    tell({ type: 'cursor', top: box.top, bottom: box.bottom, text: g_to_text(g), keep: Boolean(keep) });
  }

  // The tooltips of the frames from the root (inferno's `all`) to `g`. inferno draws every
  // frame as a sibling, each caller in the row below its callee and spanning it; `fg:x`
  // and `fg:w` keep the unzoomed µs whatever the zoom shows.
  function pathTo(g) {
    var at = geometry(g);
    var callers = frames().filter(function (o) {
      var c = geometry(o);
      return c.y > at.y && c.x <= at.x && c.x + c.w >= at.x + at.w;
    });
    callers.sort(function (a, b) { return geometry(b).y - geometry(a).y; });
    return callers.concat([g]).map(g_to_text);
  }

  // Asks the page for the menu of `g` at (x, y) in this frame's window.
  function askMenu(g, x, y) {
    tell({ type: 'menu', titles: pathTo(g), x: x, y: y });
  }

  // A right-click on a frame; elsewhere in the graph no menu (the browser's would offer
  // nothing for it either).
  window.addEventListener('contextmenu', function (event) {
    event.preventDefault();
    var g = event.target && event.target.closest ? event.target.closest('#frames > g') : null;
    if (!g) return;
    show(g, true);
    askMenu(g, event.clientX, event.clientY);
  });

  // The frame the cursor moves to from `from` for a key; null where there is none.
  function step(from, key) {
    var all = frames().filter(visible);
    var at = geometry(from);
    var rows = all.map(function (g) { return geometry(g).y; });
    var above = Math.max.apply(null, rows.filter(function (y) { return y < at.y; }).concat([-Infinity]));
    var below = Math.min.apply(null, rows.filter(function (y) { return y > at.y; }).concat([Infinity]));
    var best = null;
    all.forEach(function (g) {
      var o = geometry(g);
      var take = false;
      if (key === 'ArrowUp') take = o.y === above && o.x >= at.x && o.x < at.x + at.w && (!best || o.w > geometry(best).w);
      else if (key === 'ArrowDown') take = o.y === below && o.x <= at.x && at.x < o.x + o.w;
      else if (key === 'ArrowLeft') take = o.y === at.y && o.x < at.x && (!best || o.x > geometry(best).x);
      else if (key === 'ArrowRight') take = o.y === at.y && o.x > at.x && (!best || o.x < geometry(best).x);
      if (take) best = g;
    });
    return best;
  }

  // The widest frame of the lowest row: where a person starts reading a flame graph.
  function root() {
    var best = null;
    frames().filter(visible).forEach(function (g) {
      var o = geometry(g);
      if (!best || o.y > geometry(best).y || (o.y === geometry(best).y && o.w > geometry(best).w)) best = g;
    });
    return best;
  }

  // A frame's name: its tooltip without the time (`name (1,234 µs, 5.00%)`).
  function nameOf(g) {
    var title = g_to_text(g);
    var found = /^([\s\S]*) \([^()]*%\)$/.exec(title);
    return found ? found[1] : title;
  }

  // A name as inferno shows it: without the `_[k]` (kernel), `_[w]`, `_[i]` or `_[j]` it
  // colours by.
  function shownName(name) {
    return /_\[[kwij]\]$/.test(name) ? name.slice(0, -4) : name;
  }

  // The frame at the end of `names` (from the frame above the root), or the last one the
  // graph has of them; null where it has not the first.
  function frameAtPath(names) {
    var at = root();
    var reached = null;
    var all = frames();
    for (var i = 0; at && i < names.length; i++) {
      var box = geometry(at);
      var inside = all.filter(function (o) {
        var c = geometry(o);
        return c.y < box.y && c.x >= box.x && c.x + c.w <= box.x + box.w;
      });
      var row = Math.max.apply(null, inside.map(function (o) { return geometry(o).y; }).concat([-Infinity]));
      var name = shownName(names[i]);
      at = null;
      inside.forEach(function (o) {
        if (!at && geometry(o).y === row && nameOf(o) === name) at = o;
      });
      if (at) reached = at;
    }
    return reached;
  }

  // Zooms to `g` (from a zoom elsewhere, the whole graph first: inferno zooms from it).
  function zoomTo(g) {
    if (!g) return;
    if (zoomed) unzoom();
    zoom(g);
    show(g, true);
  }

  // Zooms out a level: to the caller of the frame zoomed to (its `parent` frame in the
  // row below), or all the way from a root.
  function zoomOut() {
    if (!zoomed) return;
    var at = geometry(zoomed);
    var caller = null;
    frames().forEach(function (g) {
      var o = geometry(g);
      if (g.classList.contains('parent') && o.y > at.y && (!caller || o.y < geometry(caller).y)) caller = g;
    });
    if (caller && geometry(caller).w < geometry(root()).w) {
      zoomTo(caller);
    } else {
      unzoom();
      tell({ type: 'unzoomed' });
      if (cursor && !visible(cursor)) show(root());
    }
  }

  window.addEventListener('wheel', function (event) {
    if (!(event.ctrlKey || event.metaKey) || !document.getElementById('frames')) return;
    event.preventDefault();
    if (event.deltaY > 0) {
      zoomOut();
      return;
    }
    var g = event.target && event.target.closest ? event.target.closest('#frames > g') : null;
    if (g && visible(g) && g !== zoomed) zoomTo(g);
  }, { passive: false });

  window.addEventListener('keydown', function (event) {
    if (!document.getElementById('frames')) return;
    var key = event.key;
    if (key === '-') {
      zoomOut();
      event.preventDefault();
      return;
    }
    if (key === 'ContextMenu' || (key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      if (!cursor || !visible(cursor)) show(root());
      if (!cursor) return;
      var box = cursor.querySelector('rect').getBoundingClientRect();
      askMenu(cursor, box.left, box.bottom);
      return;
    }
    if (key === 'Escape' || key === '0') {
      unzoom();
      tell({ type: 'unzoomed' });
      if (cursor && !visible(cursor)) show(root());
      event.preventDefault();
      return;
    }
    if (key === 'Enter' || key === ' ' || key === '+' || key === '=') {
      if (!cursor) return;
      if (cursor.classList.contains('parent')) unzoom();
      zoom(cursor);
      show(cursor);
      event.preventDefault();
      return;
    }
    if (key === '/') {
      tell({ type: 'find' });
      event.preventDefault();
      return;
    }
    if (['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home'].indexOf(key) < 0) return;
    event.preventDefault();
    if (!cursor || !visible(cursor) || key === 'Home') {
      show(root());
      return;
    }
    var next = step(cursor, key);
    if (next) show(next);
  });

  window.addEventListener('focus', function () {
    if (!cursor) show(root());
  });

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (event.source !== page || !message || typeof message.type !== 'string') return;
    // Before inferno's init has run there is nothing to search or zoom yet; the page sends
    // its search again when this document says it is ready.
    if (!document.getElementById('frames') || !window.searchbtn) return;
    if (message.type === 'search') runSearch(String(message.term || ''));
    else if (message.type === 'reset-zoom') {
      unzoom();
      show(null);
    } else if (message.type === 'zoom-path' && Array.isArray(message.names)) {
      unzoom();
      var g = frameAtPath(message.names.map(String));
      if (g) {
        zoom(g);
        show(g);
      }
      tell({ type: 'zoomed', found: Boolean(g) });
    }
  });

  // inferno sizes the graph from the SVG's own width, in its init (the SVG's onload), a zero
  // timeout after it and on each resize. A frame the browser has not laid out yet (just
  // loaded, not drawn: a busy machine, a hidden tab) reads 0 there, and inferno then draws
  // every frame in a box 20 px narrower than nothing: invisible, with a console error, until
  // the next resize. The SVG fills the frame's width (no margins), which the frame knows
  // before any layout: inferno reads that instead. When layout comes, the labels are cut
  // again to the measured text.
  var graphSvg = document.querySelector('svg');
  // A frame with nothing focusable in it is passed over by Tab: the graph itself is a Tab
  // stop, so the keyboard reaches it from the page's controls.
  if (graphSvg) graphSvg.setAttribute('tabindex', '0');
  // A right click does not take the keyboard into the graph: the page opens the frame's
  // menu and gives it the keyboard, and focus arriving here afterwards would close it.
  window.addEventListener('mousedown', function (event) {
    if (event.button === 2) event.preventDefault();
  });
  var laidOutWidth = 0;
  var HIDDEN_WIDTH = 1200;
  if (graphSvg) {
    Object.defineProperty(graphSvg, 'width', {
      configurable: true,
      get: function () {
        // A graph drawn in a hidden tab has no width yet: it is laid out at a stand-in
        // width (inferno's margins would go negative at 0) and again once it shows.
        var width = document.documentElement.clientWidth || graphSvg.getBoundingClientRect().width;
        return { baseVal: { value: width || HIDDEN_WIDTH } };
      },
    });
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(function () {
        var width = graphSvg.getBoundingClientRect().width;
        if (width <= 0 || width === laidOutWidth || !window.searchbtn) return;
        laidOutWidth = width;
        window.dispatchEvent(new Event('resize'));
      }).observe(graphSvg);
    }
  }

  // The page takes `ready` from a document once its frame's load event has come: after
  // this window's load, then, and after inferno's first drawing.
  // With it, where its rows are: the page counts the levels scrolled out of sight above.
  window.addEventListener('load', function () {
    setTimeout(function () {
      tell({ type: 'ready', frames: frames().length, rows: rowsOf() });
    }, 0);
  });

  // The top of the deepest row, the rows' pitch and their number (inferno draws every row
  // the same height, roots lowest).
  function rowsOf() {
    var tops = frames().map(function (g) { return geometry(g).y; }).sort(function (a, b) { return a - b; });
    var pitch = 0;
    for (var i = 1; i < tops.length && !pitch; i++) pitch = tops[i] - tops[0];
    if (!pitch) return { top: tops.length ? tops[0] : 0, pitch: 0, count: tops.length ? 1 : 0 };
    return { top: tops[0], pitch: pitch, count: Math.round((tops[tops.length - 1] - tops[0]) / pitch) + 1 };
  }
})();
