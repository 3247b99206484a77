// The page's views, in the order of their tabs: the one list that the tab buttons and their
// keys (views/tabs.js), the link's `tab=` (link/link.js) and the wiring (main.js) read. A
// view's panel is its markup in index.html (`#tab-<id>`), which a unit test holds to this
// list.

import { createCompare } from '../compare/compare.js';
import { createFrames } from '../frames/frames.js';
import { createGraph } from '../flame/graph.js';
import { createHeap } from '../heap/heap.js';
import { createMethods } from '../methods/methods.js';
import { createCounters } from '../system/counters.js';
import { createScheduling } from '../system/scheduling.js';
import { createTimeline } from '../timeline/timeline.js';
import { createFacts } from '../trace/facts.js';
import { createTreeView } from '../tree/tree-view.js';

/**
 * What every view is made with.
 * @typedef {object} Page
 * @property {ReturnType<import('../shared/state.js').createStore>} store
 * @property {import('../engine/engine.js').AskingEngine} engine
 * @property {import('../engine/products.js').Products} products  the trace on show's products
 * @property {string} frameScript  the script of every flame graph's frame (graph-frame.js' text)
 */

/**
 * @typedef {object} View
 * @property {string} id  its `tab=` in a link, the store's `tab`, and its tab's and panel's
 *   ids (`tab-button-<id>`, `tab-<id>`)
 * @property {string} label  its tab's words
 * @property {(page: Page) => any} create  the module that renders it: makes it follow the store
 * @property {boolean} follows  whether the view's transforms reach what it shows (the bar of
 *   the view shows with it)
 * @property {boolean} inverts  whether it offers Invert: a table of methods reads the same
 *   bottom-up and a timeline runs in time
 * @property {boolean} optional  its tab starts hidden: its module shows it where the trace (or
 *   a comparison) has something for it
 */

/** @type {readonly View[]} */
export const VIEWS = Object.freeze([
  { id: 'flame', label: 'Flame graph', create: createGraph, follows: true, inverts: true, optional: false },
  { id: 'heap', label: 'Heap', create: createHeap, follows: false, inverts: false, optional: true },
  { id: 'tree', label: 'Call tree', create: createTreeView, follows: true, inverts: true, optional: false },
  { id: 'timeline', label: 'Timeline', create: createTimeline, follows: true, inverts: false, optional: false },
  { id: 'methods', label: 'Methods', create: createMethods, follows: true, inverts: false, optional: false },
  { id: 'frames', label: 'Frames', create: createFrames, follows: false, inverts: false, optional: true },
  { id: 'scheduling', label: 'Scheduling', create: createScheduling, follows: false, inverts: false, optional: true },
  { id: 'counters', label: 'Counters', create: createCounters, follows: false, inverts: false, optional: true },
  { id: 'trace', label: 'Trace', create: createFacts, follows: false, inverts: false, optional: false },
  { id: 'compare', label: 'Compare', create: createCompare, follows: true, inverts: true, optional: true },
].map((view) => Object.freeze(view)));

/** The view with this id, or undefined. */
export function viewOf(id) {
  return VIEWS.find((view) => view.id === id);
}
