// The tabs, made from the list of views (views/list.js): a button per view, in its order,
// that shows the view's panel; Left and Right move between the tabs on show, Home and End
// to the first and last (one Tab stop, as a tablist has); and the bar of the view, shown
// with the views its transforms reach.

import { $, element } from '../shared/dom.js';
import { changed } from '../shared/state.js';
import { VIEWS, viewOf } from './list.js';

/**
 * The tab that Left or Right (`key`) moves to from `current` among `shown` (ids in the
 * list's order, hidden tabs left out), round at either end, or Home and End to the first
 * and last; null for another key.
 */
export function tabAfter(shown, current, key) {
  if (shown.length === 0) return null;
  if (key === 'Home') return shown[0];
  if (key === 'End') return shown[shown.length - 1];
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  if (step === 0) return null;
  const at = shown.indexOf(current);
  return shown[(at + step + shown.length) % shown.length];
}

/** Makes the tab buttons in `#tabs` and keeps them, the panels and the view's bar to the store's tab. */
export function createTabs(store) {
  const buttons = VIEWS.map((view) => element('button', {
    type: 'button', role: 'tab', 'data-tab': view.id, id: 'tab-button-' + view.id, hidden: view.optional, text: view.label,
  }));
  $('tabs').replaceChildren(...buttons);
  for (const button of buttons) {
    button.addEventListener('click', () => store.update({ tab: button.dataset.tab }));
    button.addEventListener('keydown', (event) => {
      // Optional tabs are there only while their views have something to show.
      const shown = buttons.filter((b) => !b.hidden).map((b) => b.dataset.tab);
      const next = tabAfter(shown, button.dataset.tab, event.key);
      if (!next) return;
      event.preventDefault();
      $('tab-button-' + next).focus();
      store.update({ tab: next });
    });
  }

  function layout(state, previous) {
    // The bar of the view shows with the tabs the view changes.
    if (changed(state, previous, 'tab', 'view')) {
      const view = viewOf(state.tab);
      const follows = Boolean(view && view.follows);
      $('view-bar').hidden = !follows;
      $('view-invert').hidden = !(view && view.inverts);
      // The note says what the steps reach: with none (Invert alone), it has nothing to say.
      $('view-note').hidden = !follows || state.view.transforms.length === 0;
    }
    if (changed(state, previous, 'tab')) {
      for (const button of buttons) {
        const selected = button.dataset.tab === state.tab;
        button.setAttribute('aria-selected', String(selected));
        button.tabIndex = selected ? 0 : -1;
        $('tab-' + button.dataset.tab).hidden = !selected;
      }
    }
  }
  store.subscribe(layout);
  layout(store.get(), null);
}
