// Small DOM helpers. Trace text only ever becomes text nodes or attribute values here,
// never markup.

export const $ = (id) => document.getElementById(id);

/**
 * `element('td', {class: 'n', text: '12'}, child…)`: attributes by name, `on…` for event
 * listeners, `text` for the text content; false, null and undefined values are left out.
 */
export function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Offers `text` (a string or bytes) as a file download named `name`. */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = element('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Runs `draw()`, which replaces `container`'s rows; the keyboard stays on the control it was on (the same one by place). */
export function redrawKeepingFocus(container, draw) {
  const controls = () => Array.from(container.querySelectorAll('select, input, button'));
  const at = controls().indexOf(document.activeElement);
  draw();
  const again = at >= 0 ? controls()[at] : null;
  if (again) again.focus();
}
