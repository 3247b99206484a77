// The Heap view: a dump's overview (totals by heap, GC roots, leaks with their paths), its
// classes (or packages) by retained bytes, a class's instances, and one object in full:
// its path from a GC root, what it references, what references it and what it keeps alive.
// Every object named is a button that opens it here; the choices live in the store (and so
// in the page's link).

import { COMPARE_KEY } from '../compare/compare.js';
import { $, element } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { createSortTable } from '../shared/sort-table.js';
import { changed } from '../shared/state.js';
import { asRows, bytes, classColumns, objectColumns, rootsLine, totalsLine } from './heap-tables.js';
import { createHeapSeries } from './heap-series.js';

/** Instances listed at most: the largest by retained bytes. */
const INSTANCE_LIMIT = 500;
/** Classes listed at most; the filter reaches the others. */
const CLASS_LIMIT = 1000;
/** Classes compared at most: the largest changes. */
const CHANGE_LIMIT = 100;
/** Groups of copies the overview lists: those that waste the most. */
const COPY_LIMIT = 100;
/** An object's references listed at most (an array can hold millions). */
const LISTED = 200;

export function createHeap({ store, products }) {
  const button = $('tab-button-heap');
  const resetSeries = createHeapSeries({ store, products });
  let classes = [];
  let instances = [];
  // What the tables were made for: another heap, grouping or class asks again.
  let classesFor = null;
  let instancesFor = null;
  let objectFor = null;
  // What had the keyboard when the object panel opened.
  let opener = null;
  // Bumped by every summary (another dump, or this one renamed or on another source): its
  // tables are asked anew, whatever the choices.
  let dumpNumber = 0;

  const classTable = createSortTable(store, {
    head: $('heap-class-head'), subhead: $('heap-class-subhead'), body: $('heap-class-rows'),
    filter: $('heap-class-filter'), note: $('heap-class-note'), sortKey: 'heapSort', filterKey: 'heapFilter',
    fallback: 'retained', limit: CLASS_LIMIT, rowKey: 'class',
    // A class lists its instances; a package, its classes.
    activate: (i) => classes[i] && (store.get().heapByPackage
      ? store.update({ heapByPackage: false, heapFilter: classes[i].name ? classes[i].name + '.' : '', heapClass: '' })
      : store.update({ heapClass: classes[i].name })),
  });
  const instanceTable = createSortTable(store, {
    head: $('heap-instance-head'), subhead: $('heap-instance-subhead'), body: $('heap-instance-rows'),
    filter: $('heap-instance-filter'), note: $('heap-instance-note'), sortKey: 'heapInstanceSort',
    filterKey: 'heapInstanceFilter', fallback: 'retained', limit: INSTANCE_LIMIT, rowKey: 'instance',
    activate: (i) => instances[i] && store.update({ heapObject: instances[i].id }),
  });
  $('heap-heap').addEventListener('change', () => store.update({ heapHeap: $('heap-heap').value }));
  $('heap-by-package').addEventListener('change', () => store.update({ heapByPackage: $('heap-by-package').checked }));
  $('heap-object-close').addEventListener('click', () => store.update({ heapObject: '' }));
  $('heap-object').addEventListener('keydown', (event) => {
    if (event.key === 'Escape') store.update({ heapObject: '' });
  });

  /** A button that opens object `row` (`{id, class}`) here. */
  function objectButton(row) {
    return element('button', { type: 'button', class: 'link object-link', title: 'Open ' + row.class + ' ' + row.id,
      onclick: () => store.update({ heapObject: row.id }) },
    element('span', { class: 'object-class', text: row.class }), ' ', element('span', { class: 'mono', text: row.id }));
  }

  function renderOverview(state) {
    const dump = state.summary.heap_dump;
    $('heap-totals').textContent = totalsLine(dump);
    $('heap-roots').textContent = 'GC root records: ' + rootsLine(dump);
    $('heap-heaps').replaceChildren(...dump.heaps.map((h) => element('tr', {},
      element('td', { text: h.name }), element('td', { class: 'n', text: count(h.objects) }),
      element('td', { class: 'n', text: bytes(h.bytes) }))));
    const select = $('heap-heap');
    select.replaceChildren(element('option', { value: '', text: 'All heaps' }),
      ...dump.heaps.filter((h) => h.objects > 0).map((h) => element('option', { value: h.name, text: h.name + ' heap' })));
    select.value = state.heapHeap;
    $('heap-leaks-note').textContent = 'Looking for leaks…';
    $('heap-leaks').replaceChildren();
    Promise.all([products.heapLeaks(false), products.heapLeaks(true)]).then(([{ leaks, none }, { leaks: groups }]) => {
      if (store.get().summary !== state.summary) return;
      $('heap-leaks-note').textContent = leaks.length === 0
        ? none
        : count(leaks.length) + (leaks.length === 1 ? ' leak' : ' leaks') + ', held through ' + count(groups.length)
          + (groups.length === 1 ? ' path' : ' different paths') + '. Each row is an object still reachable that its app is done with.';
      $('heap-leaks').closest('.scroll').hidden = leaks.length === 0;
      $('heap-leaks').replaceChildren(...leaks.slice(0, 200).map((l) => element('tr', {},
        element('td', {}, objectButton(l)),
        element('td', { class: 'n', text: bytes(l.retained) }),
        element('td', { text: l.reason }),
        element('td', { class: 'path', text: l.path || '(a GC root itself)' }))));
    }).catch((error) => {
      $('heap-leaks-note').textContent = 'The leaks could not be found: ' + error.message;
    });
    renderCopies(state);
  }

  // Strings of equal text and arrays of equal contents: the bytes all copies but one take.
  function renderCopies(state) {
    $('heap-copies-note').textContent = 'Looking for copies…';
    $('heap-copies').replaceChildren();
    products.heapDuplicates(COPY_LIMIT).then((rows) => {
      if (store.get().summary !== state.summary) return;
      const wasted = rows.reduce((sum, r) => sum + r.wasted, 0);
      $('heap-copies-note').textContent = rows.length === 0
        ? 'No copies: no two strings of equal text, no two arrays of equal contents.'
        : (rows.length < COPY_LIMIT ? count(rows.length) + ' groups of copies' : 'The ' + count(COPY_LIMIT) + ' groups of copies that waste the most')
          + ': ' + bytes(wasted) + ' held more than once.';
      $('heap-copies').closest('.scroll').hidden = rows.length === 0;
      $('heap-copies').replaceChildren(...rows.map((r) => element('tr', {},
        element('td', { class: 'preview', title: r.preview },
          element('span', { class: 'object-class', text: r.class }), ' ', element('span', { class: 'mono', text: r.preview })),
        element('td', { class: 'n', text: count(r.count) }),
        element('td', { class: 'n', text: bytes(r.bytes) }),
        element('td', { class: 'n', text: bytes(r.wasted) }),
        element('td', {}, objectButton({ id: r.example, class: r.class })))));
    }).catch((error) => {
      $('heap-copies-note').textContent = 'The copies could not be found: ' + error.message;
    });
  }

  function renderClasses(state) {
    const key = JSON.stringify([dumpNumber, state.summary.source, state.heapHeap, state.heapByPackage, state.summary.mapping]);
    // The same rows: only the class chosen moves (the keyboard stays on its row).
    if (key === classesFor) return classTable.select(classes.findIndex((c) => c.name === state.heapClass));
    classesFor = key;
    classTable.say('Loading…');
    products.heapClasses(state.heapHeap, state.heapByPackage).then((list) => {
      if (classesFor !== key) return;
      classes = asRows(list, (r) => r.name);
      showClasses(store.get());
    }).catch((error) => classTable.say('The classes could not be listed: ' + error.message));
  }

  function showClasses(state) {
    const selected = classes.findIndex((c) => c.name === state.heapClass);
    const noun = state.heapByPackage ? 'package' : 'class';
    const dump = state.summary.heap_dump;
    const heap = dump.heaps.find((h) => h.name === state.heapHeap);
    classTable.show(state, { columns: classColumns(state.heapByPackage, heap ? heap.bytes : dump.bytes), rows: classes, selected, noun,
      about: state.heapByPackage ? '' : 'Choose a class to list its instances.' });
  }

  function renderInstances(state) {
    $('heap-instances').hidden = !state.heapClass || state.heapByPackage;
    if ($('heap-instances').hidden) return;
    $('heap-instance-title').textContent = 'Instances of ' + state.heapClass;
    const key = JSON.stringify([dumpNumber, state.summary.mapping, state.heapClass, state.heapHeap]);
    if (key === instancesFor) return instanceTable.select(instances.findIndex((o) => o.id === state.heapObject));
    instancesFor = key;
    instanceTable.say('Loading…');
    products.heapObjects(INSTANCE_LIMIT, state.heapClass, state.heapHeap).then((list) => {
      if (instancesFor !== key) return;
      instances = asRows(list, (r) => r.id + ' ' + r.class);
      showInstances(store.get());
    }).catch((error) => instanceTable.say(error.message));
  }

  function showInstances(state) {
    const selected = instances.findIndex((o) => o.id === state.heapObject);
    const link = (id) => element('button', { type: 'button', class: 'link mono', title: 'Open ' + id,
      onclick: (event) => {
        event.stopPropagation();
        store.update({ heapObject: id });
      } }, id);
    instanceTable.show(state, { columns: objectColumns(link), rows: instances, selected, noun: 'instance',
      about: instances.length >= INSTANCE_LIMIT ? 'The ' + count(INSTANCE_LIMIT) + ' that retain the most.' : 'Choose one to see it in full.' });
  }

  function list(title, items, total, render) {
    const more = total > items.length ? ' (the first ' + count(items.length) + ' of ' + count(total) + ')' : '';
    return element('section', { class: 'heap-list' },
      element('h4', { text: title + more }),
      items.length === 0 ? element('p', { class: 'muted', text: 'None.' }) : element('ul', {}, ...items.map((item) => element('li', {}, ...render(item)))));
  }

  function renderObject(state) {
    const box = $('heap-object');
    box.hidden = !state.heapObject;
    if (box.hidden) {
      // Closed (Escape, ×, Back): the keyboard goes back to what opened it.
      if (box.dataset.shown === 'yes' && (box.contains(document.activeElement) || document.activeElement === document.body)) {
        const back = opener && opener.isConnected ? opener : $('heap-instance-rows').querySelector('tr[tabindex="0"]');
        if (back) back.focus();
      }
      box.dataset.shown = 'no';
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body && !box.contains(active)) opener = active;
    const key = JSON.stringify([dumpNumber, state.summary.mapping, state.heapObject]);
    if (key === objectFor) return;
    objectFor = key;
    $('heap-object-body').replaceChildren(element('p', { class: 'muted', text: 'Loading…' }));
    const opening = box.dataset.shown !== 'yes';
    box.dataset.shown = 'yes';
    // Where the panel is below the tables (a narrow window), it comes into view.
    const below = getComputedStyle($('heap-body')).flexDirection === 'column';
    if (opening) box.scrollIntoView({ block: 'start' });
    products.heapObject(state.heapObject).then((d) => {
      if (objectFor !== key) return;
      const o = d.object;
      $('heap-object-title').replaceChildren(element('span', { text: o.class }), ' ', element('span', { class: 'mono', text: o.id }));
      const facts = element('p', { class: 'heap-facts', text: [
        o.heap + ' heap', bytes(o.shallow) + ' itself',
        d.reachability === 'strong' ? bytes(o.retained) + ' retained' : 'held ' + d.reachability + 'ly at best: retains nothing for sure',
      ].join(' · ') });
      const dominator = d.dominator ? element('p', {}, 'Kept alive by ', objectButton(d.dominator), ' (its dominator: freed with it)')
        : d.reachability === 'strong' ? element('p', { class: 'muted', text: 'No single object keeps it alive: the GC roots together do.' }) : null;
      const path = d.path.length === 0
        ? element('p', { class: 'muted', text: 'No GC root reaches it.' })
        : element('ol', { class: 'heap-path' }, ...d.path.map((s) => element('li', {},
          element('span', { class: 'via mono', text: s.via }), ' ', objectButton(s))));
      const contents = [
        d.text !== null && d.text !== undefined ? element('p', {}, 'Text: ', element('q', { class: 'mono', text: d.text })) : null,
        d.elements ? element('p', {}, 'Elements: ', element('span', { class: 'mono', text: d.elements })) : null,
      ];
      const fields = d.fields.length === 0 ? null : element('section', { class: 'heap-list' },
        element('h4', { text: 'Fields' }),
        element('table', { class: 'heap-fields' }, element('tbody', {}, ...d.fields.map((f) => element('tr', {},
          element('td', { class: 'muted', text: f.type }),
          element('td', { class: 'mono', text: f.name }),
          element('td', {}, ...(f.object
            ? [objectButton({ id: f.object, class: f.class }), ...(typeof f.text === 'string' ? [' ', element('q', { class: 'mono', text: f.text })] : [])]
            : [element('span', { class: 'mono', text: f.value })])))))));
      $('heap-object-body').replaceChildren(...[facts, ...contents, dominator, fields].filter(Boolean),
        element('h4', { text: 'Shortest path from a GC root' }), path,
        list('References', d.references.slice(0, LISTED), d.references.length, (r) => [element('span', { class: 'via mono', text: r.via }), ' ', objectButton(r.object), ' ', bytes(r.object.retained)]),
        list('Referenced by', d.referrers, d.referrer_count, (r) => [objectButton(r.object), ' ', element('span', { class: 'via mono', text: r.via })]),
        list('Keeps alive (dominates)', d.dominated, d.dominated_count, (r) => [objectButton(r), ' ', bytes(r.retained)]));
    }).catch((error) => {
      if (objectFor === key) $('heap-object-body').replaceChildren(element('p', { class: 'error-text', text: error.message }));
    });
  }

  // Two dumps open (Compare with…): what changed, class by class, the largest change first.
  let changesFor = null;
  function renderChanges(state) {
    const other = state.compare;
    const shown = Boolean(other && other.phase === 'done' && other.summary && other.summary.heap_dump);
    $('heap-changes').hidden = !shown;
    if (!shown || changesFor === other) return;
    changesFor = other;
    $('heap-changes-title').textContent = 'Against ' + other.name + ' (after): the classes whose retained bytes changed most';
    $('heap-change-rows').replaceChildren();
    products.heapDiff(COMPARE_KEY).then((changes) => {
      if (changesFor !== other) return;
      const signed = (n) => (n > 0 ? '+' : n < 0 ? '−' : '') + bytes(Math.abs(n));
      const counted = (n) => (n > 0 ? '+' : n < 0 ? '−' : '') + count(Math.abs(n));
      const moved = changes.filter((c) => c.before.count !== c.after.count || c.before.retained !== c.after.retained);
      $('heap-changes-title').textContent = 'Against ' + other.name + ' (after): ' + (moved.length === 0 ? 'no class changed'
        : count(moved.length) + (moved.length === 1 ? ' class changed' : ' classes changed') + (moved.length > CHANGE_LIMIT ? ', the ' + count(CHANGE_LIMIT) + ' whose retained bytes changed most:' : ', largest change of retained bytes first:'));
      $('heap-change-rows').replaceChildren(...moved.slice(0, CHANGE_LIMIT).map((c) => element('tr', {},
        element('td', { class: 'name', text: c.class, title: c.class }),
        element('td', { class: 'n', text: count(c.before.count) + ' → ' + count(c.after.count) }),
        element('td', { class: 'n', text: counted(c.after.count - c.before.count) }),
        element('td', { class: 'n', text: bytes(c.before.retained) + ' → ' + bytes(c.after.retained) }),
        element('td', { class: 'n ' + (c.after.retained > c.before.retained ? 'grew' : 'shrank'), text: signed(c.after.retained - c.before.retained) }))));
    }).catch((error) => {
      $('heap-changes-title').textContent = 'The dumps could not be compared: ' + error.message;
    });
  }

  store.subscribe((state, previous) => {
    if (state.phase !== 'done' || !state.summary) return;
    const dump = state.summary.heap_dump;
    if (changed(state, previous, 'summary')) {
      button.hidden = !dump;
      if (!dump && state.tab === 'heap') store.update({ tab: 'flame' });
    }
    if (!dump) return;
    if (changed(state, previous, 'summary')) {
      dumpNumber++;
      renderOverview(state);
      resetSeries();
    }
    if (changed(state, previous, 'summary', 'compare')) {
      changesFor = changed(state, previous, 'summary') ? null : changesFor;
      renderChanges(state);
    }
    if (state.tab !== 'heap') return;
    if (changed(state, previous, 'summary', 'tab', 'heapHeap', 'heapByPackage', 'heapClass')) {
      $('heap-by-package').checked = state.heapByPackage;
      $('heap-heap').value = state.heapHeap;
      renderClasses(state);
    }
    if (changed(state, previous, 'summary', 'tab', 'heapClass', 'heapHeap', 'heapByPackage', 'heapObject')) renderInstances(state);
    if (changed(state, previous, 'summary', 'tab', 'heapObject')) renderObject(state);
  });
}
