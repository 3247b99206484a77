import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { VIEWS, viewOf } from '../src/views/list.js';
import { tabAfter } from '../src/views/tabs.js';
import { initialState } from '../src/shared/state.js';

const html = fs.readFileSync(fileURLToPath(new URL('../index.html', import.meta.url)), 'utf8');

// An element's attributes, from its start tag's text.
function attributes(tag) {
  return Object.fromEntries(Array.from(tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)).slice(1).map((m) => [m[1], m[2] ?? '']));
}

test('each view in the list has one panel in the markup, in the list\'s order, and no other panel is there', () => {
  const panels = Array.from(html.matchAll(/<div [^>]*role="tabpanel"[^>]*>/g), (m) => attributes(m[0]));
  assert.deepEqual(panels.map((p) => [p.id, p['aria-labelledby']]), VIEWS.map((v) => ['tab-' + v.id, 'tab-button-' + v.id]));
  // The store opens on the first view; only its panel starts on show.
  assert.equal(initialState().tab, VIEWS[0].id);
  assert.deepEqual(panels.filter((p) => !('hidden' in p)).map((p) => p.id), ['tab-' + VIEWS[0].id]);
});

test('the tab buttons are made from the list: the tablist in the markup holds none', () => {
  const tablist = /<div [^>]*role="tablist"[^>]*>([\s\S]*?)<\/div>/.exec(html);
  assert.equal(attributes(tablist[0].slice(0, tablist[0].indexOf('>') + 1)).id, 'tabs');
  assert.doesNotMatch(tablist[1], /<button/);
  assert.equal(html.match(/role="tab"/g), null, 'no tab is written by hand');
});

test('the Frames tab\'s "Show it in" buttons name views of the list by their labels', () => {
  const buttons = Array.from(html.matchAll(/<button [^>]*data-frame-go="([^"]+)"[^>]*>([^<]*)<\/button>/g), (m) => [m[1], m[2]]);
  assert.deepEqual(buttons, [['flame', 'Flame graph'], ['tree', 'Call tree'], ['methods', 'Methods'], ['timeline', 'Timeline'], ['scheduling', 'Scheduling']]);
  for (const [id, label] of buttons) assert.equal(viewOf(id).label, label);
});

test('the list: ids, the module each view is made by, what follows the view\'s transforms and what starts hidden', () => {
  assert.deepEqual(VIEWS.map((v) => [v.id, v.label, v.create.name]), [
    ['flame', 'Flame graph', 'createGraph'], ['heap', 'Heap', 'createHeap'], ['tree', 'Call tree', 'createTreeView'], ['timeline', 'Timeline', 'createTimeline'],
    ['methods', 'Methods', 'createMethods'], ['frames', 'Frames', 'createFrames'], ['scheduling', 'Scheduling', 'createScheduling'],
    ['counters', 'Counters', 'createCounters'], ['trace', 'Trace', 'createFacts'], ['compare', 'Compare', 'createCompare'],
  ]);
  assert.deepEqual(VIEWS.filter((v) => v.follows).map((v) => v.id), ['flame', 'tree', 'timeline', 'methods', 'compare']);
  assert.deepEqual(VIEWS.filter((v) => v.inverts).map((v) => v.id), ['flame', 'tree', 'compare']);
  assert.ok(VIEWS.every((v) => v.follows || !v.inverts), 'a view that offers Invert follows the view');
  assert.deepEqual(VIEWS.filter((v) => v.optional).map((v) => v.id), ['heap', 'frames', 'scheduling', 'counters', 'compare']);
  assert.equal(viewOf('nothing'), undefined);
});

test('Left and Right move between the tabs on show, round at either end; Home and End to the first and last', () => {
  const shown = ['flame', 'tree', 'methods', 'trace'];
  assert.equal(tabAfter(shown, 'tree', 'ArrowRight'), 'methods');
  assert.equal(tabAfter(shown, 'tree', 'ArrowLeft'), 'flame');
  assert.equal(tabAfter(shown, 'trace', 'ArrowRight'), 'flame');
  assert.equal(tabAfter(shown, 'flame', 'ArrowLeft'), 'trace');
  assert.equal(tabAfter(shown, 'tree', 'Enter'), null);
  assert.equal(tabAfter([], 'tree', 'ArrowRight'), null);
  assert.equal(tabAfter(shown, 'tree', 'Home'), 'flame');
  assert.equal(tabAfter(shown, 'tree', 'End'), 'trace');
  assert.equal(tabAfter([], 'tree', 'End'), null);
});
