// One sortable, filterable table of frames, used by the methods table (methods.js) and
// Compare's before/after table (compare-methods.js): headers that sort (under column
// groups where the columns have them), name cells whose class and method stay readable,
// "Showing N of M", and, where rows do something, one Tab stop with arrow keys inside.
// Its sort and filter live in the store, under the table's own keys.

import { element } from './dom.js';
import { count, countText, methodNameParts, methodTitle } from './format.js';
import { bindList, settle } from './list-keys.js';
import { changed } from './state.js';

/**
 * A column: `{id, label, value(row)}` to sort by; the name column has `text: true` (a
 * text column with `cell` is plain text, sorted as text), the others `cell(row)` (the text
 * shown), and may have `title(row)`, `className` (its header
 * and cells), `tone(row)` (a class more for one cell), `group` (a heading over the
 * columns next to it that have the same; `groupClass`: the heading's class) and `hint`
 * (its sort button's title); a column with `render(row)` shows the element it makes. A
 * number column sorts largest first, unless it has `ascending` (p-values: smallest first).
 */

/**
 * Indices of `rows` matching `filter` (name, signature, or the name the trace gave a
 * renamed method), in the order of `sort` (`{column, descending}`; an unknown column sorts
 * by `fallback`). Missing values sort as 0; equal ones keep the core's order.
 */
export function tableOrder(rows, filter, sort, columns, fallback) {
  const text = filter.trim().toLowerCase();
  const column = columns.find((c) => c.id === sort.column) || columns.find((c) => c.id === fallback);
  const sign = sort.descending ? -1 : 1;
  const number = (v) => (v === null || v === undefined || Number.isNaN(v) ? 0 : v);
  return rows.map((_, i) => i)
    .filter((i) => !text || [rows[i].name, rows[i].signature, rows[i].obfuscated || '']
      .some((field) => field.toLowerCase().includes(text)))
    .sort((a, b) => {
      const x = column.value(rows[a]);
      const y = column.value(rows[b]);
      if (column.text) return sign * String(x).localeCompare(String(y)) || a - b;
      const [p, q] = [number(x), number(y)];
      return p === q ? a - b : sign * (p < q ? -1 : 1);
    });
}

/** The column groups in order: `[{group, span, first}]`, `first` the index of its first column. */
export function columnGroups(columns) {
  const groups = [];
  columns.forEach((c, i) => {
    if (!c.group) return;
    const last = groups[groups.length - 1];
    if (last && last.group === c.group && last.first + last.span === i) last.span++;
    else groups.push({ group: c.group, span: 1, first: i, className: c.groupClass });
  });
  return groups;
}

/**
 * How many rows are shown: `Showing 500 of 1,234; filter to see others. `, `12 methods
 * shown. `, or, of `total` rows a filter left `matching`, `3 of 42 methods shown. ` and
 * `No method matches the filter. `.
 */
export function shownText(matching, limit, noun, total = matching) {
  if (matching > limit) return 'Showing ' + count(limit) + ' of ' + count(matching) + '; filter to see others. ';
  if (matching === total) return countText(matching, noun) + ' shown. ';
  if (matching === 0) return 'No ' + noun + ' matches the filter. ';
  return count(matching) + ' of ' + countText(total, noun) + ' shown. ';
}

/** A frame's name cell: overloads share a name, so the signature follows it. */
export function nameCell(row) {
  // The package gives way first; the class and method stay readable.
  const [head, tail] = methodNameParts(row);
  return element('td', { class: 'name', title: methodTitle(row) },
    element('span', { class: 'label' },
      element('span', { class: 'head', text: head }),
      tail ? element('span', { class: 'tail', text: tail }) : null,
      element('span', { class: 'sig', text: row.signature })));
}

/**
 * A table over existing elements: `head` and `subhead` (its two header rows; the second
 * holds grouped columns, and is empty without), `body`, `filter` (its input), `note` (the line that says what is
 * shown). `sortKey` and `filterKey`: its keys in the store; `fallback`: the column to sort
 * by when the sorted one is gone; `limit`: rows shown at most. With `activate(index)`,
 * rows are a list (`data-<rowKey>` their index) that Enter, Space or a click activates.
 */
export function createSortTable(store, parts) {
  const { head, subhead, body, filter, note, sortKey, filterKey, fallback, limit, rowKey = 'row', activate } = parts;
  const rowSelector = 'tr[data-' + rowKey + ']';
  // What is on show: `{columns, rows, selected, noun, about}` (see `show`).
  let content = null;
  let order = [];

  if (activate) bindList(body, rowSelector, (tr) => activate(Number(tr.dataset[rowKey])));
  filter.addEventListener('input', () => store.update({ [filterKey]: filter.value }));
  store.subscribe((state, previous) => {
    if (!changed(state, previous, sortKey, filterKey)) return;
    if (filter.value !== state[filterKey]) filter.value = state[filterKey];
    if (content) render(state);
  });

  function sortButton(state, column, label) {
    const sort = state[sortKey];
    const sorted = sort.column === column.id;
    return element('button', {
      type: 'button',
      title: column.hint || null,
      'data-column': column.id,
      onclick: () => {
        const s = store.get()[sortKey];
        const same = s.column === column.id;
        store.update({ [sortKey]: { column: column.id, descending: same ? !s.descending : !(column.text || column.ascending) } });
      },
    }, label, sorted ? (sort.descending ? ' ▾' : ' ▴') : '');
  }

  // In the columns' order: an ungrouped column two rows high where others are grouped, a
  // group's heading over its columns, which are in the second row.
  function renderHead(state, columns) {
    // The headers are made anew: the keyboard stays on the one it sorted by.
    const focused = [head, subhead].some((row) => row.contains(document.activeElement)) ? document.activeElement.dataset.column : null;
    const sort = state[sortKey];
    const ariaSort = (column) => (sort.column === column.id ? (sort.descending ? 'descending' : 'ascending') : 'none');
    const groups = columnGroups(columns);
    const th = (column, attributes) => element('th', Object.assign({ class: column.className || null, scope: 'col', 'aria-sort': ariaSort(column) }, attributes),
      sortButton(state, column, column.label));
    const top = [];
    columns.forEach((column, i) => {
      const group = groups.find((g) => g.first === i);
      if (group) top.push(element('th', { scope: 'colgroup', colspan: String(group.span), class: ['group', group.className].filter(Boolean).join(' ') }, group.group));
      else if (!column.group) top.push(th(column, { rowspan: groups.length ? '2' : null }));
    });
    head.replaceChildren(...top);
    subhead.replaceChildren(...columns.filter((c) => c.group).map((column) => th(column, { 'aria-label': column.group + ' ' + column.label })));
    const again = focused && [...head.querySelectorAll('button'), ...subhead.querySelectorAll('button')].find((b) => b.dataset.column === focused);
    if (again) again.focus();
  }

  function render(state) {
    const { columns, rows, selected, noun, about } = content;
    renderHead(state, columns);
    order = tableOrder(rows, state[filterKey], state[sortKey], columns, fallback);
    body.replaceChildren();
    for (const index of order.slice(0, limit)) {
      const row = rows[index];
      const tr = element('tr', activate ? { ['data-' + rowKey]: String(index), 'aria-selected': String(index === selected) } : {});
      for (const c of columns) {
        if (c.text && !c.cell) {
          tr.append(nameCell(row));
          continue;
        }
        if (c.render) {
          tr.append(element('td', { class: c.className || null, title: c.title ? c.title(row) : null }, c.render(row)));
          continue;
        }
        const tone = c.tone ? c.tone(row) : '';
        tr.append(element('td', { class: [c.className, tone].filter(Boolean).join(' ') || null, title: c.title ? c.title(row) : null, text: c.cell(row) }));
      }
      body.append(tr);
    }
    if (activate) settle(body, rowSelector);
    note.textContent = shownText(order.length, limit, noun, rows.length) + about;
  }

  return {
    /**
     * Shows `rows` under `columns`: `selected` (an index into rows, or -1), `noun` (what
     * one row is) and `about` (the note's words after how many are shown).
     */
    show(state, shown) {
      content = Object.assign({ selected: -1 }, shown);
      render(state);
    },
    /** `text` (Loading…, an error) in the note, the rows as they were. */
    say(text) {
      note.textContent = text;
    },
    /** Marks row `index` (into the rows shown) selected, or none for -1. */
    select(index) {
      if (content) content.selected = index;
      for (const tr of body.querySelectorAll(rowSelector)) {
        tr.setAttribute('aria-selected', String(Number(tr.dataset[rowKey]) === index));
      }
    },
  };
}
