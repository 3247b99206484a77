// The bar above the flame graph and the call tree that says which view they show: "Whole profile ›
// Merge X › Focus on Y", each step with a × that takes it out, Undo, and the Invert toggle
// (bottom-up). It renders from the store's view and changes it only through the patches
// of transforms.js, so every change can be undone. Steps name trace frames: text only.

import { $, element } from '../shared/dom.js';
import { changed } from '../shared/state.js';
import { isPlain, stepParts, stepText, stepTitle, undone, withInvert, withoutStep, withoutSteps } from '../shared/transforms.js';

export function createViewCrumbs(store) {
  const list = $('view-crumbs');
  const undo = $('view-undo');
  const invert = $('view-invert');

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
    $('view-hint').hidden = transforms.length > 0;
  }

  undo.addEventListener('click', () => {
    store.update(undone(store.get()));
    // Nothing left to undo: the button is disabled, and the keyboard goes on from Invert.
    if (undo.disabled) invert.focus();
  });
  invert.addEventListener('click', () => store.update(withInvert(store.get(), !store.get().view.invert)));

  store.subscribe((state, previous) => {
    if (changed(state, previous, 'view', 'viewHistory')) render(state);
  });
  render(store.get());
}
