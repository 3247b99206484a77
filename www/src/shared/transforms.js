// The view the main flame graph and the folded download show: the core's transforms in
// order, then optionally inverted (bottom-up). Pure logic over the store's state (no DOM,
// unit-tested): the patches that change the view, each keeping the view before it for
// Undo; the words of the breadcrumbs; the items of a frame's menu. Frame names are the
// graph's display names: untrusted trace text, only ever shown as text.

import { frameNameParts, threadLabel } from './format.js';

/** The whole profile, as recorded. */
export const PLAIN_VIEW = Object.freeze({ transforms: Object.freeze([]), invert: false });

// Undo goes back this many changes at most.
const HISTORY_LIMIT = 100;

export function isPlain(view) {
  return view.transforms.length === 0 && !view.invert;
}

/** The text the core's `Session.setView` takes: '' for the plain view. */
export function viewJson(view) {
  return isPlain(view) ? '' : JSON.stringify({ transforms: view.transforms, invert: view.invert });
}

/**
 * The text for a view's tables of functions (methods, callers and callees): its transforms
 * alone, since such a table reads the same top down or bottom up.
 */
export function tableViewJson(view) {
  return viewJson({ transforms: view.transforms, invert: false });
}

/** The store's fields of a view nobody has changed (a newly opened trace's). */
export function plainViewState() {
  return { view: PLAIN_VIEW, viewHistory: [], viewError: '' };
}

// A patch that shows `view`, keeping the one on show for Undo.
function changeTo(state, view) {
  return { view, viewHistory: state.viewHistory.concat([state.view]).slice(-HISTORY_LIMIT), viewError: '' };
}

/** `transform` added after the others; `invert` as given (Callers of turns it on). */
export function withTransform(state, transform, invert = state.view.invert) {
  return changeTo(state, { transforms: state.view.transforms.concat([transform]), invert });
}

/** Whether the view hides `code` (`kernel`, `native`). */
export function hides(view, code) {
  return view.transforms.some((t) => t.hide === code);
}

/** `code`'s frames hidden (added after the other steps) or shown again. */
export function withHidden(state, code, hidden) {
  if (hidden === hides(state.view, code)) return {};
  if (hidden) return withTransform(state, { hide: code });
  return changeTo(state, { transforms: state.view.transforms.filter((t) => t.hide !== code), invert: state.view.invert });
}

/** The step at `index` taken out; the later ones stay, in order. */
export function withoutStep(state, index) {
  const transforms = state.view.transforms.filter((_, i) => i !== index);
  return changeTo(state, { transforms, invert: state.view.invert });
}

/**
 * The whole profile: every step taken out, top-down (Callers of turned Invert on; the
 * whole profile as recorded is neither).
 */
export function withoutSteps(state) {
  return changeTo(state, PLAIN_VIEW);
}

export function withInvert(state, invert) {
  return changeTo(state, { transforms: state.view.transforms, invert });
}

/** The view before the last change; nothing where there was none. */
export function undone(state) {
  const history = state.viewHistory;
  if (history.length === 0) return {};
  return { view: history[history.length - 1], viewHistory: history.slice(0, -1), viewError: '' };
}

/**
 * The core refused the view on show (`message` says why): it is not kept. The view before
 * it is shown instead (the plain view where there was none: the one refused may have been
 * kept across a mapping that renamed its frames), and the error says why.
 */
export function refused(state, message) {
  const back = state.viewHistory.length ? undone(state) : plainViewState();
  back.viewError = 'This view could not be shown, so the one before it is: ' + message;
  return back;
}

/** The kind of a transform (`merge`, `focus`, …) and what it names (a name or a path). */
export function partsOf(transform) {
  const kind = Object.keys(transform)[0];
  return { kind, subject: transform[kind] };
}

// Every transform the core takes, in words.
const WORDS = {
  merge: 'Merge',
  focus: 'Focus on',
  focus_subtree: 'Focus on the subtree of',
  callers_of: 'Callers of',
  drop: 'Drop',
  collapse_recursion: 'Collapse recursion of',
  collapse_direct_recursion: 'Collapse direct recursion of',
  collapse_package: 'Collapse package',
  collapse_library: 'Collapse library',
  hide: 'Hide',
};

/** The kinds of transform the core takes (`merge`, `focus`, …). */
export const TRANSFORM_KINDS = Object.freeze(Object.keys(WORDS));

/** A step in words: `Merge a.B.c`; a subtree by its last frame. */
export function stepText(transform) {
  const { kind, subject } = partsOf(transform);
  const name = Array.isArray(subject) ? subject[subject.length - 1] : subject;
  // A package collapses into the frame the core names `prefix*`; code is hidden by its kind.
  return (WORDS[kind] || kind) + ' ' + name + (kind === 'collapse_package' ? '*' : kind === 'hide' ? ' frames' : '');
}

/**
 * A step in words as a crumb shows it: `{verb, head, tail}`, where a cramped crumb cuts
 * the head and keeps the tail (`Merge ` `android.os.` `Looper.loop`).
 */
export function stepParts(transform) {
  const text = stepText(transform);
  const verb = WORDS[partsOf(transform).kind] ? WORDS[partsOf(transform).kind] + ' ' : '';
  return Object.assign({ verb }, frameNameParts(text.slice(verb.length)));
}

/** The whole of a step, for its tooltip: a subtree's path from the root. */
export function stepTitle(transform) {
  const { subject } = partsOf(transform);
  return Array.isArray(subject) ? stepText(transform) + ' (path: ' + subject.join(' › ') + ')' : stepText(transform);
}

/** A frame's name from its tooltip in the graph: `name (1,234 µs, 5.00%)`. */
export function nameOfTitle(title) {
  const found = /^([\s\S]*) \([^()]*%\)$/.exec(String(title));
  return found ? found[1] : String(title);
}

/** A thread's frame in the all-threads graph, as the core names it (folded text's rules). */
export function threadFrameName(thread) {
  return threadLabel(thread).replace(/;/g, ':').replace(/[\r\n]/g, ' ');
}

/**
 * The menu of a frame whose tooltips from the root (inferno's `all`) to it are `titles`:
 * `[{label, transform, invert?, disabled?, why?}]`, or `[{label, thread}]` for a thread's
 * own frame in the all-threads graph (its threads are frames there, not in the trace's
 * stacks); a disabled one for the root. `allThreads`: the graph has a frame per thread under its
 * root; `inverted`: its stacks run leaf first.
 */
export function menuItems(titles, { allThreads = false, inverted = false, libraries = [] } = {}) {
  let frames = titles.slice(1).map(nameOfTitle);
  if (allThreads) {
    if (frames.length === 1) return [{ label: 'Show only ' + frames[0], thread: frames[0] }];
    frames = frames.slice(1);
  }
  return pathMenuItems(frames, { noSubtree: inverted ? INVERTED_PATHS : '', libraries });
}

/** Why a bottom-up graph or tree has no subtree to focus on. */
export const INVERTED_PATHS = 'A bottom-up graph\'s paths start at the leaves: turn Invert off to focus on a subtree.';

/**
 * The menu of the last of `frames` (names from a root of the view's stacks to it), as
 * `menuItems` gives it. `noSubtree`: why the path is not one from a root of the stacks (a
 * bottom-up tree, a tree that begins at a function), so its subtree cannot be focused on.
 * `libraries`: the libraries frames of its name come from (the engine's `libraries`), each
 * one a collapse offers. Besides the transforms, its sandwich in the call tree.
 */
export function pathMenuItems(frames, { noSubtree = '', libraries = [] } = {}) {
  if (frames.length === 0) {
    return [{ label: 'Nothing to change here', disabled: true, why: 'This is the whole profile: choose a frame above it.' }];
  }
  const name = frames[frames.length - 1];
  const item = (kind, subject, extra) => Object.assign({ label: stepText({ [kind]: subject }), transform: { [kind]: subject } }, extra);
  return [
    item('merge', name),
    item('focus', name),
    Object.assign(item('focus_subtree', frames, { label: 'Focus on this subtree' }), noSubtree ? { disabled: true, why: noSubtree } : {}),
    item('callers_of', name, { invert: true }),
    item('drop', name),
    item('collapse_recursion', name),
    item('collapse_direct_recursion', name),
    ...packagesOf(name).map((prefix) => item('collapse_package', prefix)),
    ...libraries.map((library) => item('collapse_library', library)),
    { label: 'Show its callers and callees', sandwich: name },
  ];
}

// A dotted name's package: lower-case words before a class (`android.os.Handler.post`).
const PACKAGED = /^([a-z_][a-z0-9_]*\.)+(?=[A-Za-z_$][\w$]*\.[^.\s]+$)/;

/**
 * The packages a frame named `name` is in, outermost first, as prefixes a collapse takes:
 * `android.os.Handler.post` is in `android.` and `android.os.`; a name that is no
 * `package.Class.method` is in none.
 */
export function packagesOf(name) {
  const found = PACKAGED.exec(String(name));
  if (!found) return [];
  const words = found[0].split('.').slice(0, -1);
  const top = words[0] + '.';
  return words.length > 1 ? [top, found[0]] : [top];
}

/**
 * The two halves of the sandwich of the function `name` in `view`, as the core's JSON: its
 * callers (bottom-up, rooted at it) and its callees (merged across all its calls).
 */
export function sandwichViews(view, name) {
  return {
    callers: JSON.stringify({ transforms: view.transforms.concat([{ callers_of: name }]), invert: true }),
    callees: JSON.stringify({ transforms: view.transforms.concat([{ focus: name }]), invert: false }),
  };
}

/**
 * The patch a chosen menu item makes: its transform added to the view (bottom-up as it
 * says); for a thread's own frame, that thread shown (nothing where no thread has its
 * name); for a sandwich, the call tree with that function's callers and callees.
 */
export function chosenPatch(state, item) {
  if (item.sandwich !== undefined) return { tab: 'tree', treeFunction: item.sandwich };
  if (item.thread === undefined) return withTransform(state, item.transform, item.invert || state.view.invert);
  const index = state.summary.threads.findIndex((t) => threadFrameName(t) === item.thread);
  return index >= 0 ? { thread: index } : {};
}
