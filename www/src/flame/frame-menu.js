// The menu a flame-graph frame opens on the page (right-click, the Menu key, Shift+F10):
// one at a time, at a point of the window, its items from transforms.js' `menuItems`.
// The keyboard as in any menu: arrows and Home/End move, Enter or Space chooses, Escape
// or Tab closes and gives the keyboard back to the graph. Frame names are trace text:
// they are set only as text.

import { element } from '../shared/dom.js';

// For this long after it opens, focus moving into a graph's frame is the right click's
// own, arriving late: the menu takes it back instead of closing.
const FOCUS_GRACE_MS = 1000;
// Kept this far inside the window's edges.
const MARGIN = 4;
// A request names at most this many frames (a graph's depth is capped far below it).
const MAX_PATH = 4096;

/**
 * What a graph frame's `menu` message asks for, checked (the frame's text is the trace's):
 * the frames' tooltips from the root, and where in the page's window (`frameBox`: the
 * frame's place in it); null where it is malformed.
 */
export function menuRequest(message, frameBox) {
  const titles = message.titles;
  if (!Array.isArray(titles) || titles.length === 0 || titles.length > MAX_PATH || !titles.every((t) => typeof t === 'string')) return null;
  const x = Number(message.x);
  const y = Number(message.y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { titles, left: frameBox.left + x, top: frameBox.top + y };
}

/** Where a box of `size` opening at `point` fits in `view` (all {width,height} or {x,y}). */
export function placeMenu(point, size, view) {
  const left = Math.max(MARGIN, Math.min(point.x, view.width - size.width - MARGIN));
  // Below the point where it fits, else above it, else as low as the window allows.
  const below = point.y + size.height + MARGIN <= view.height;
  const top = below ? point.y : Math.max(MARGIN, Math.min(point.y - size.height, view.height - size.height - MARGIN));
  return { left, top };
}

/**
 * A menu for frames: `open(name, items, left, top, {choose, back})` shows `items`
 * (`{label, disabled?, why?}`) under the frame's `name`; `choose(item)` runs for the one
 * chosen (then the menu closes), `back()` where Escape or Tab gives the keyboard back.
 */
export function createFrameMenu() {
  let box = null;
  let handlers = null;

  function close() {
    if (!box) return;
    const closing = box;
    box = null;
    closing.remove();
    document.body.dataset.frameMenu = 'closed';
  }

  function items() {
    return box ? Array.from(box.querySelectorAll('[role=menuitem]')) : [];
  }

  function move(from, step) {
    const all = items();
    const at = all.indexOf(from);
    const next = step === 'first' ? 0 : step === 'last' ? all.length - 1 : (at + step + all.length) % all.length;
    all[next].focus();
  }

  function choose(item) {
    if (item.disabled) return;
    const { choose: chosen } = handlers;
    close();
    chosen(item);
  }

  function keydown(event, node, item) {
    const moves = { ArrowDown: 1, ArrowUp: -1, Home: 'first', End: 'last' };
    if (event.key in moves) move(node, moves[event.key]);
    else if (event.key === 'Enter' || event.key === ' ') choose(item);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      const { back } = handlers;
      close();
      back();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  }

  function itemNode(item) {
    const node = element('button', {
      type: 'button', role: 'menuitem', tabindex: '-1', class: 'frame-menu-item', text: item.label,
      'aria-disabled': item.disabled ? 'true' : null, title: item.why || null,
    });
    node.addEventListener('click', () => choose(item));
    node.addEventListener('keydown', (event) => keydown(event, node, item));
    node.addEventListener('pointermove', () => { if (document.activeElement !== node) node.focus(); });
    return node;
  }

  // The menu goes when focus leaves it (a click into the graph, another window) and when
  // the window's size changes. Not on a scroll: the graph's pane may still be scrolling
  // the frame into sight as the menu opens.
  document.addEventListener('pointerdown', (event) => { if (box && !box.contains(event.target)) close(); });
  window.addEventListener('resize', close);

  return {
    open(name, list, left, top, on) {
      close();
      handlers = on;
      const menu = element('div', { role: 'menu', 'aria-label': name }, ...list.map(itemNode));
      box = element('div', { class: 'frame-menu' }, element('p', { class: 'frame-menu-name', text: name, title: name }), menu);
      const opened = performance.now();
      box.addEventListener('focusout', (event) => {
        if (!box || box.contains(event.relatedTarget)) return;
        // The right click that asked for the menu also gives the graph's frame the focus,
        // and a frame of its own process may say so only after the menu opened: the menu
        // takes the keyboard back then. Later, focus leaving for a graph closes it.
        const mine = box;
        setTimeout(() => {
          if (box !== mine || box.contains(document.activeElement)) return;
          if (document.activeElement && document.activeElement.tagName === 'IFRAME' && performance.now() - opened < FOCUS_GRACE_MS) {
            items()[0].focus();
          } else close();
        }, 0);
      });
      box.addEventListener('contextmenu', (event) => event.preventDefault());
      document.body.append(box);
      const place = placeMenu({ x: left, y: top }, { width: box.offsetWidth, height: box.offsetHeight },
        { width: document.documentElement.clientWidth, height: window.innerHeight });
      box.style.left = place.left + 'px';
      box.style.top = place.top + 'px';
      document.body.dataset.frameMenu = 'open';
      items()[0].focus();
    },
    close,
    isOpen: () => Boolean(box),
  };
}
