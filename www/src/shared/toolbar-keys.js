// Keyboard for a group of buttons (a toolbar): the group is one Tab stop, and the Left and
// Right arrows (wrapping), Home and End move between its buttons. Tab leaves the group from
// the button last used, and comes back to it.

/** Where a key moves the focus among `length` buttons from `at`; null if it does not. */
export function nextTool(key, at, length) {
  if (length === 0) return null;
  switch (key) {
    case 'ArrowRight': return (at + 1) % length;
    case 'ArrowLeft': return (at - 1 + length) % length;
    case 'Home': return 0;
    case 'End': return length - 1;
    default: return null;
  }
}

/**
 * The button that keeps the group's Tab stop: `current` while it can take focus, else the
 * first that can. `usable[i]`: button i is neither hidden nor disabled.
 */
export function stopIndex(usable, current) {
  if (current >= 0 && usable[current]) return current;
  return usable.indexOf(true);
}

// A button is in the group where it sits directly in it, not in a group of its own inside
// (an open menu's items keep their own Tab stops).
function buttonsOf(element) {
  return Array.from(element.querySelectorAll('button, summary'))
    .filter((item) => item.parentElement.closest('[role="toolbar"], [role="group"], [role="menu"]') === element);
}

/**
 * Makes the buttons of `element` one Tab stop, named `label` for screen readers. Buttons
 * shown, hidden, enabled or disabled later keep the group reachable: the stop moves to one
 * that can take focus.
 */
export function bindToolbar(element, label) {
  element.setAttribute('role', 'toolbar');
  element.setAttribute('aria-label', label);
  let current = null;

  function settle() {
    const items = buttonsOf(element);
    const usable = items.map((item) => !item.disabled && !item.hidden);
    const stop = stopIndex(usable, items.indexOf(current));
    items.forEach((item, i) => { item.tabIndex = i === stop ? 0 : -1; });
  }

  element.addEventListener('focusin', (event) => {
    const item = event.target.closest('button, summary');
    if (!item || !buttonsOf(element).includes(item)) return;
    current = item;
    settle();
  });
  element.addEventListener('keydown', (event) => {
    const items = buttonsOf(element).filter((item) => !item.disabled && !item.hidden);
    const at = items.indexOf(event.target);
    if (at < 0) return;
    const to = nextTool(event.key, at, items.length);
    if (to === null) return;
    event.preventDefault();
    items[to].focus();
  });
  new MutationObserver(settle).observe(element, { subtree: true, attributes: true, attributeFilter: ['hidden', 'disabled'] });
  settle();
}
