// The bar above the flame graph and the call tree that says which view they show: "Whole profile ›
// Merge X › Focus on Y", each step with a × that takes it out, Undo, the toggles that hide
// the kernel's or native libraries' frames (where the source has any), and the Invert
// toggle (bottom-up). It renders from the store's view and changes it only through the patches
// of transforms.js, so every change can be undone. Steps name trace frames: text only.

import { $, element } from '../shared/dom.js';
import { changed } from '../shared/state.js';
import {
  hides, isPlain, stepParts, stepText, stepTitle, undone, withHidden, withInvert, withoutStep, withoutSteps,
} from '../shared/transforms.js';

const CODES = ['kernel', 'native'];

export function createViewCrumbs(store, products) {
  const list = $('view-crumbs');
  const undo = $('view-undo');
  const invert = $('view-invert');
  const hide = Object.fromEntries(CODES.map((code) => [code, $('view-hide-' + code)]));

  function crumb(transform, index) {
    const text = stepText(transform);
    const { verb, head, tail } = stepParts(transform);
    return element('li', { class: 'crumb' },
      element('span', { class: 'crumb-text', title: stepTitle(transform) },
        element('span', { class: 'crumb-verb', text: verb }), element('span', { class: 'crumb-head', text: head }),
        element('span', { class: 'crumb-tail', text: tail })),
      element('button', {
        type: 'button', class: 'crumb-remove', text: '×', 'aria-label': 'Remove ' + text, title: 'Remove this step',
        onclick: () => remove(index),
      }));
  }

  // The removed step's × is gone: the keyboard goes on from the step now in its place (or
  // the last one), else Undo.
  function remove(index) {
    store.update(withoutStep(store.get(), index));
    const left = list.querySelectorAll('.crumb-remove');
    (left[Math.min(index, left.length - 1)] || undo).focus();
  }

  function render(state) {
    const { transforms } = state.view;
    const whole = !isPlain(state.view)
      ? element('button', {
        type: 'button', class: 'link', text: 'Whole profile', title: 'Take every step out and show the stacks top-down',
        onclick: () => {
          store.update(withoutSteps(store.get()));
          undo.focus();
        },
      })
      : element('span', { text: 'Whole profile' });
    list.replaceChildren(element('li', { class: 'crumb crumb-whole' }, whole), ...transforms.map(crumb));
    undo.disabled = state.viewHistory.length === 0;
    invert.setAttribute('aria-pressed', String(state.view.invert));
    for (const code of CODES) hide[code].setAttribute('aria-pressed', String(hides(state.view, code)));
    $('view-hint').hidden = transforms.length > 0;
  }

  undo.addEventListener('click', () => {
    store.update(undone(store.get()));
    // Nothing left to undo: the button is disabled, and the keyboard goes on from Invert.
    if (undo.disabled) invert.focus();
  });
  invert.addEventListener('click', () => store.update(withInvert(store.get(), !store.get().view.invert)));
  for (const code of CODES) {
    hide[code].addEventListener('click', () => store.update(withHidden(store.get(), code, !hides(store.get().view, code))));
  }

  // The toggles show where the source shown has such frames.
  let asked = 0;
  async function offer() {
    const mine = ++asked;
    const codes = await products.hideable();
    if (mine !== asked) return;
    for (const code of CODES) hide[code].hidden = !codes.includes(code) && !hides(store.get().view, code);
  }

  store.subscribe((state, previous) => {
    if (changed(state, previous, 'view', 'viewHistory')) render(state);
    if (state.phase === 'done' && changed(state, previous, 'summary')) offer();
  });
  render(store.get());
}
