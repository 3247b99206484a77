// Keyboard for row lists (threads, methods, callers, callees): the whole list is one Tab
// stop, and the arrow keys, Home, End and Page Up/Down move inside it (a roving tabindex).
// Enter or Space activates the focused row.

/** Where a key moves the focus in a list of `length` rows from `at`; null if it does not. */
export function nextIndex(key, at, length, page = 10) {
  if (length === 0) return null;
  const last = length - 1;
  switch (key) {
    case 'ArrowDown': return Math.min(last, at + 1);
    case 'ArrowUp': return Math.max(0, at - 1);
    case 'Home': return 0;
    case 'End': return last;
    case 'PageDown': return Math.min(last, at + page);
    case 'PageUp': return Math.max(0, at - page);
    default: return null;
  }
}

/**
 * Makes the rows of `container` matching `selector` one Tab stop. `activate(row)` runs on
 * Enter, Space and click. Call `settle(container, selector)` after re-rendering rows.
 */
export function bindList(container, selector, activate) {
  container.addEventListener('keydown', (event) => {
    const row = event.target.closest(selector);
    if (!row || !container.contains(row)) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(row);
      return;
    }
    const rows = Array.from(container.querySelectorAll(selector));
    const to = nextIndex(event.key, rows.indexOf(row), rows.length);
    if (to === null) return;
    event.preventDefault();
    focusRow(container, selector, rows[to]);
  });
  container.addEventListener('click', (event) => {
    const row = event.target.closest(selector);
    if (row && container.contains(row)) {
      focusRow(container, selector, row, false);
      activate(row);
    }
  });
}

/** The Menu key or Shift+F10: what asks for the focused thing's menu. */
export function isMenuKey(event) {
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/**
 * A row's menu: `open(row, {left, top})` runs on a right click at the pointer, and on the
 * Menu key or Shift+F10 below the focused row's name.
 */
export function bindRowMenu(container, selector, open) {
  container.addEventListener('contextmenu', (event) => {
    const row = event.target.closest(selector);
    if (!row || !container.contains(row)) return;
    event.preventDefault();
    focusRow(container, selector, row);
    open(row, { left: event.clientX, top: event.clientY });
  });
  container.addEventListener('keydown', (event) => {
    const row = event.target.closest(selector);
    if (!row || !container.contains(row) || !isMenuKey(event)) return;
    event.preventDefault();
    const box = row.getBoundingClientRect();
    open(row, { left: box.left + 16, top: box.bottom });
  });
}

function focusRow(container, selector, row, focus = true) {
  for (const other of container.querySelectorAll(selector + '[tabindex="0"]')) other.tabIndex = -1;
  row.tabIndex = 0;
  if (focus) row.focus();
}

/** After rows are rebuilt: exactly one row (the selected one, else the first) is tabbable. */
export function settle(container, selector) {
  const rows = container.querySelectorAll(selector);
  let stop = container.querySelector(selector + '[aria-selected="true"]') || rows[0];
  for (const row of rows) row.tabIndex = row === stop ? 0 : -1;
}
