// Transforms from the page (issue 30): a person right-clicks a frame of the flame graph (or
// presses Shift+F10 or the Menu key at the keyboard cursor) and merges, focuses on, drops
// it; the breadcrumbs say which view is on show, take steps out and undo them; Invert
// turns the graph bottom-up; a view the core refuses says why. On real traces, waiting on
// the page's state (`body[data-graph]`, `data-graph-ready-at`, `data-frame-menu`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { assertGraphDrawn, corpus, pick, shot, shownSvg, tempFile, useBrowser, checkedPage } from './support.mjs';
import { MAPPING, OBFUSCATED } from './obfuscated.mjs';

const context = useBrowser();
const TRACE = 'ffprof-art-regular.trace';

async function open(t, file, options = {}) {
  const page = await checkedPage(context, t, Object.assign({ viewport: { width: 1440, height: 900 } }, options));
  assert.equal(await pick(page, file), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  return page;
}

// Runs `action` and waits for the graph it makes to be ready in its frame.
async function redrawn(page, action) {
  const before = await page.evaluate(() => document.body.dataset.graphReadyAt || '');
  await action();
  await page.waitForFunction((b) => document.body.dataset.graph === 'ready' && document.body.dataset.graphReadyAt !== b,
    before, { timeout: 30000 });
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The graph's widest frame of this name.
async function frameNamed(page, name) {
  const graph = page.frameLocator('#flame');
  const index = await graph.locator('#frames').evaluate((frames, wanted) => {
    let best = -1;
    let widest = -1;
    Array.from(frames.children).forEach((g, i) => {
      const width = Number(g.querySelector('rect').getAttribute('fg:w'));
      if (g.querySelector('title').textContent.startsWith(wanted + ' (') && width > widest) [best, widest] = [i, width];
    });
    return best;
  }, name);
  assert.ok(index >= 0, 'the graph has a frame named ' + name);
  return graph.locator('#frames > g').nth(index);
}

// Whether the graph on show has a frame of this name.
async function drawn(page, name) {
  return new RegExp('<title>' + escape(name) + ' \\(').test(await shownSvg(page));
}

// The names of the frames in the row just above the root: the stacks' first frames.
function firstFrames(page) {
  return page.frameLocator('#flame').locator('#frames').evaluate((frames) => {
    const all = Array.from(frames.children).map((g) => ({
      name: g.querySelector('title').textContent.replace(/ \([^()]*%\)$/, ''),
      y: Number(g.querySelector('rect').getAttribute('y')),
    }));
    const rootY = Math.max(...all.map((f) => f.y));
    const row = Math.max(...all.filter((f) => f.y < rootY).map((f) => f.y));
    return all.filter((f) => f.y === row).map((f) => f.name).sort();
  });
}

// Right-clicks `frame` (at `position` in it, else its middle) and waits for its menu.
async function menuOf(page, frame, position = undefined) {
  await frame.click({ button: 'right', position });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
}

async function menuItems(page) {
  return page.locator('.frame-menu [role=menuitem]').allTextContents();
}

function crumbs(page) {
  return page.locator('#view-crumbs .crumb').evaluateAll((items) => items.map((li) => li.firstElementChild.textContent));
}

async function choose(page, label) {
  await redrawn(page, () => page.locator('.frame-menu [role=menuitem]', { hasText: label }).click());
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'closed');
}

const DISPATCH = 'android.os.Handler.dispatchMessage';
const LOOP = 'android.os.Looper.loop';
const POLL = 'android.os.MessageQueue.nativePollOnce';
const ZYGOTE = 'com.android.internal.os.ZygoteInit.main';

test('right-click a frame, Merge: the graph is drawn again without it, and Save folded too', async (t) => {
  const page = await open(t, corpus(TRACE));
  assert.equal(await drawn(page, DISPATCH), true);
  await menuOf(page, await frameNamed(page, DISPATCH));
  assert.deepEqual(await menuItems(page), [
    'Merge ' + DISPATCH, 'Focus on ' + DISPATCH, 'Focus on this subtree', 'Callers of ' + DISPATCH, 'Drop ' + DISPATCH,
    'Collapse recursion of ' + DISPATCH, 'Collapse direct recursion of ' + DISPATCH,
    'Collapse package android.*', 'Collapse package android.os.*', 'Show its callers and callees',
  ]);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('role')), 'menuitem', 'the menu has the keyboard');
  assert.equal(await page.textContent('.frame-menu-name'), DISPATCH);
  await shot(page, 'transforms-menu');
  await choose(page, 'Merge ' + DISPATCH);
  assert.equal(await drawn(page, DISPATCH), false, 'merged into its callers');
  assert.equal(await drawn(page, LOOP), true);
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + DISPATCH]);
  assert.equal(await page.isVisible('#view-note'), true, 'the page says what the transforms reach');
  assert.match(await page.textContent('#view-note'), /the timeline and the Chrome trace export \(each moment's stack as the steps make it; never bottom-up\)/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-folded')]);
  const folded = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  assert.ok(folded.includes(LOOP) && !folded.includes(DISPATCH), 'the download is in the view');
  await shot(page, 'transforms-merged');
});

test('the keyboard: cursor to a frame, Shift+F10, ArrowDown, Enter focuses on it; Escape gives the graph back', async (t) => {
  const page = await open(t, corpus(TRACE));
  await page.locator('#flame').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 12 && !(await page.textContent('#graph-cursor')).startsWith(LOOP + ' ('); i++) {
    const before = await page.textContent('#graph-cursor');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((b) => document.getElementById('graph-cursor').textContent !== b, before);
  }
  assert.ok((await page.textContent('#graph-cursor')).startsWith(LOOP + ' ('), 'the cursor reached ' + LOOP);
  await page.keyboard.press('Shift+F10');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Merge ' + LOOP);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Focus on ' + LOOP);
  await redrawn(page, () => page.keyboard.press('Enter'));
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Focus on ' + LOOP]);
  assert.deepEqual(await firstFrames(page), [LOOP], 'every stack begins at it');
  assert.equal(await drawn(page, ZYGOTE), false, 'its callers are gone');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'flame', 'the keyboard is back in the graph');

  // The Menu key opens it too; arrows wrap; Escape closes it and the graph has the keyboard.
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /^all \(/.test(document.getElementById('graph-cursor').textContent));
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction((n) => document.getElementById('graph-cursor').textContent.startsWith(n + ' ('), LOOP);
  await page.keyboard.press('ContextMenu');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Show its callers and callees');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'closed');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'flame');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((n) => document.getElementById('graph-cursor').textContent.startsWith(n + ' ('), LOOP);
  assert.equal(await page.evaluate(() => document.body.dataset.frameMenu), 'closed', 'the arrows move in the graph again');
});

test('a crumb taken out and Undo give back the graphs they were', async (t) => {
  const page = await open(t, corpus(TRACE));
  const whole = await shownSvg(page);
  await menuOf(page, await frameNamed(page, DISPATCH));
  await choose(page, 'Merge ' + DISPATCH);
  const merged = await shownSvg(page);
  await menuOf(page, await frameNamed(page, POLL));
  await choose(page, 'Drop ' + POLL);
  assert.equal(await drawn(page, POLL), false);
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + DISPATCH, 'Drop ' + POLL]);
  await shot(page, 'transforms-crumbs');

  // Merge's × (named for it): the drop stays, the merged frame is back.
  await redrawn(page, () => page.getByRole('button', { name: 'Remove Merge ' + DISPATCH }).click());
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Drop ' + POLL]);
  assert.equal(await drawn(page, DISPATCH), true);
  assert.equal(await drawn(page, POLL), false);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Remove Drop ' + POLL, 'the keyboard goes on from the next ×');

  // Undo, step by step, back to the whole profile, each graph as it was.
  await redrawn(page, () => page.click('#view-undo'));
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + DISPATCH, 'Drop ' + POLL]);
  await redrawn(page, () => page.click('#view-undo'));
  assert.equal(await shownSvg(page), merged);
  await redrawn(page, () => page.click('#view-undo'));
  assert.equal(await shownSvg(page), whole);
  assert.deepEqual(await crumbs(page), ['Whole profile']);
  assert.equal(await page.isDisabled('#view-undo'), true, 'nothing more to undo');
  assert.equal(await page.isVisible('#view-note'), false);

  // "Whole profile" takes every step out at once, and that is undone as one change.
  await menuOf(page, await frameNamed(page, DISPATCH));
  await choose(page, 'Drop ' + DISPATCH);
  await redrawn(page, () => page.getByRole('button', { name: 'Whole profile' }).click());
  assert.equal(await shownSvg(page), whole);
  await redrawn(page, () => page.click('#view-undo'));
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Drop ' + DISPATCH]);

  // A new trace opens on the whole profile, with nothing to undo.
  assert.equal(await pick(page, corpus('tracereader-test1.trace')), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  assert.deepEqual(await crumbs(page), ['Whole profile']);
  assert.equal(await page.isDisabled('#view-undo'), true);
});

test('Invert turns the graph bottom-up; Callers of shows who calls a frame', async (t) => {
  const page = await open(t, corpus(TRACE));
  assert.deepEqual(await firstFrames(page), [ZYGOTE]);
  await redrawn(page, () => page.click('#view-invert'));
  assert.equal(await page.getAttribute('#view-invert', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#graph-title'), /bottom-up$/);
  const leaves = await firstFrames(page);
  assert.ok(leaves.includes(POLL) && !leaves.includes(ZYGOTE), 'the stacks begin at their leaves: ' + leaves.join(', '));
  await shot(page, 'transforms-inverted');
  await redrawn(page, () => page.click('#view-invert'));
  assert.deepEqual(await firstFrames(page), [ZYGOTE], 'and back');

  await menuOf(page, await frameNamed(page, POLL));
  await choose(page, 'Callers of ' + POLL);
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Callers of ' + POLL]);
  assert.equal(await page.getAttribute('#view-invert', 'aria-pressed'), 'true', 'callers read bottom-up');
  assert.deepEqual(await firstFrames(page), [POLL]);
  assert.equal(await drawn(page, 'android.os.MessageQueue.next'), true, 'its caller above it');
  // A subtree's path runs from the root: a bottom-up graph's does not, so the item says so.
  await menuOf(page, await frameNamed(page, 'android.os.MessageQueue.next'));
  const subtree = page.locator('.frame-menu [role=menuitem]', { hasText: 'Focus on this subtree' });
  assert.equal(await subtree.getAttribute('aria-disabled'), 'true');
  assert.match(await subtree.getAttribute('title'), /Invert off/);
  await subtree.click({ force: true });
  assert.equal(await page.evaluate(() => document.body.dataset.frameMenu), 'open', 'a disabled item does nothing');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'closed');

  // Every stack here goes through it: dropping it leaves nothing, and the page says why.
  await menuOf(page, await frameNamed(page, POLL));
  await choose(page, 'Drop ' + POLL);
  assert.equal(await page.textContent('#graph-error'), 'This view leaves no time to draw: take a step out, or Undo.');
  assert.equal(await page.isVisible('#graph-error'), true);
});

test('a view the core refuses is not kept, and the graph says why', async (t) => {
  // The view merges an obfuscated name; the mapping applied then renames that frame.
  const page = await open(t, tempFile('app-release.trace', OBFUSCATED));
  await menuOf(page, await frameNamed(page, 'a.c.a'));
  await choose(page, 'Merge a.c.a');
  assert.equal(await drawn(page, 'a.c.a'), false);
  await page.setInputFiles('#mapping-picker', tempFile('mapping.txt', MAPPING));
  await page.waitForFunction(() => !document.getElementById('graph-error').hidden &&
    /com\.example\.Track\.titel/.test(document.getElementById('flame').srcdoc) && document.body.dataset.graph === 'ready',
  null, { timeout: 30000 });
  assert.match(await page.textContent('#graph-error'), /^This view could not be shown, so the one before it is: no frame is named "a\.c\.a"/);
  assert.deepEqual(await crumbs(page), ['Whole profile']);
  assert.equal(await page.isDisabled('#view-undo'), true, 'the refused view is not kept to undo to');
  await shot(page, 'transforms-refused');
  // The next change clears the error.
  await menuOf(page, await frameNamed(page, 'com.example.Track.titel'));
  await choose(page, 'Drop com.example.Track.titel');
  assert.equal(await page.isHidden('#graph-error'), true);
});

test('a narrow dark window: the menu stays inside it, the crumbs wrap, the all-threads graph offers its threads', async (t) => {
  const page = await open(t, corpus(TRACE), { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  await page.locator('#thread-rows tr[data-thread="-1"]').click();
  await page.waitForFunction(() => /^All threads/.test(document.getElementById('graph-title').textContent) &&
    document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  // The thread's own frame: not a frame of the trace's stacks, but a way to that thread.
  await menuOf(page, await frameNamed(page, 'main [21491]'), { x: 2, y: 4 });
  assert.deepEqual(await menuItems(page), ['Show only main [21491]']);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /^main \[21491\]/.test(document.getElementById('graph-title').textContent) &&
    document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  // A frame at the right edge: its menu opens leftwards, inside the window.
  const frame = await frameNamed(page, POLL);
  const box = await frame.boundingBox();
  await menuOf(page, frame, { x: box.width - 3, y: 4 });
  const menu = await page.locator('.frame-menu').boundingBox();
  assert.ok(menu.x >= 0 && menu.x + menu.width <= 760, JSON.stringify(menu));
  await shot(page, 'transforms-narrow-menu');
  await choose(page, 'Collapse recursion of ' + POLL);
  await menuOf(page, await frameNamed(page, LOOP));
  await choose(page, 'Focus on this subtree');
  assert.deepEqual(await firstFrames(page), [LOOP]);
  assert.match(await page.getAttribute('#view-crumbs .crumb:last-child .crumb-text', 'title'), new RegExp('path: ' + escape(ZYGOTE) + ' › '));
  const bar = await page.locator('.view-bar').evaluate((n) => ({ scroll: n.scrollWidth, client: n.clientWidth }));
  assert.ok(bar.scroll <= bar.client, 'the crumbs wrap: ' + JSON.stringify(bar));
  await shot(page, 'transforms-narrow-dark');
});

test('a frame\'s menu opens its sandwich; a native frame\'s collapses its library, the kernel\'s frames into one', async (t) => {
  const page = await open(t, corpus('simpleperf/ffprof-simpleperf-cpu-clock.trace'));
  // Callers and callees of a frame, from the flame graph: the call tree's sandwich.
  await menuOf(page, await frameNamed(page, '__libc_init'));
  const items = await menuItems(page);
  assert.ok(items.includes('Collapse library libc.so'), 'a libc frame offers its library: ' + items);
  await page.locator('.frame-menu [role=menuitem]', { hasText: 'Show its callers and callees' }).click();
  await page.waitForFunction(() => document.body.dataset.tree === 'ready' && !document.getElementById('sandwich').hidden, null, { timeout: 30000 });
  assert.equal(await page.getAttribute('#tab-button-tree', 'aria-selected'), 'true');
  assert.equal(await page.textContent('#sandwich-name'), '__libc_init');
  assert.ok(await page.locator('#sandwich-callees tbody tr[data-node]').count() > 1, 'its callees are listed');
  await shot(page, 'transforms-sandwich-from-graph');

  // Back in the graph: a kernel frame's menu folds every kernel frame into one.
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  // The graph shows a kernel function without its `_[k]`: the menu's steps name it so too.
  const kernels = (svg) => (svg.match(/<title>\[kernel\.kallsyms\]\+0x/g) || []).length;
  const svg = await shownSvg(page);
  assert.ok(kernels(svg) > 5, 'kernel functions are drawn');
  const kernel = /<title>(\[kernel\.kallsyms\]\+0x[0-9a-f]+) \(/.exec(svg)[1];
  await menuOf(page, await frameNamed(page, kernel));
  assert.ok((await menuItems(page)).includes('Collapse library [kernel.kallsyms]'));
  await choose(page, 'Collapse library [kernel.kallsyms]');
  const collapsed = await shownSvg(page);
  assert.equal(kernels(collapsed), 0, 'no kernel function is drawn on its own');
  assert.match(collapsed, /<title>\[kernel\.kallsyms\] \(/, 'the kernel is one frame');
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Collapse library [kernel.kallsyms]']);
  await shot(page, 'transforms-kernel-collapsed');
  // A kernel function merged from the graph, named as it shows it: the core finds it.
  await page.click('#view-undo');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready' && !document.getElementById('view-crumbs').textContent.includes('Collapse'));
  await menuOf(page, await frameNamed(page, kernel));
  await choose(page, 'Merge ' + kernel);
  assert.equal(await drawn(page, kernel), false, 'merged into its caller');
  assert.equal(await page.isHidden('#graph-error'), true, 'the core took the name');
});

test('exports of the view: speedscope, pprof and Chrome trace files, read back', async (t) => {
  const page = await open(t, corpus(TRACE));
  await menuOf(page, await frameNamed(page, DISPATCH));
  await choose(page, 'Merge ' + DISPATCH);
  async function exported(label) {
    await page.click('#export-menu summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export]', { hasText: label }).click()]);
    assert.equal(await page.evaluate(() => document.getElementById('export-menu').open), false, 'the menu closes');
    return { name: download.suggestedFilename(), bytes: Buffer.concat(await (await download.createReadStream()).toArray()) };
  }
  const speedscope = await exported('speedscope');
  assert.equal(speedscope.name, 'ffprof-art-regular-wall.speedscope.json');
  const file = JSON.parse(speedscope.bytes.toString('utf8'));
  assert.equal(file.$schema, 'https://www.speedscope.app/file-format-schema.json');
  const names = file.shared.frames.map((f) => f.name);
  assert.ok(names.includes(LOOP) && !names.includes(DISPATCH), 'in the view: merged away');
  const main = file.profiles.find((p) => p.name === 'main [21491]');
  // Every call is kept on the page: the wall clock's profile is the calls in time.
  assert.equal(main.type, 'evented');
  assert.match(file.name, /wall clock; calls in time/);
  assert.ok(main.events.every((e, i) => i === 0 || e.at >= main.events[i - 1].at), 'in time order');

  const pprof = await exported('pprof');
  assert.equal(pprof.name, 'ffprof-art-regular-wall.pb.gz');
  const proto = zlib.gunzipSync(pprof.bytes).toString('latin1');
  for (const text of ['wall', 'cpu', 'microseconds', LOOP, 'main [21491]']) assert.ok(proto.includes(text), text + ' in the string table');
  assert.equal(proto.includes(DISPATCH), false);

  const chrome = await exported('Chrome trace');
  const events = JSON.parse(chrome.bytes.toString('utf8'));
  const list = Array.isArray(events) ? events : events.traceEvents;
  assert.ok(list.some((e) => e.name === LOOP) && !list.some((e) => e.name === DISPATCH), 'the view\'s timeline: merged away');
  // Escape closes the menu and gives the keyboard back to its button.
  await page.click('#export-menu summary');
  await shot(page, 'export-menu');
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.getElementById('export-menu').open), false);
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
});

// The methods table's rows once loaded for the view `steps` steps long: [name, inclusive µs text].
async function methodTable(page, steps) {
  await page.waitForFunction((n) => {
    const scope = document.getElementById('method-scope').textContent;
    return document.querySelectorAll('#method-rows tr[data-method]').length > 0 &&
      (n === 0 ? !/as the view above shows it/.test(scope) : scope.includes('(' + n + (n === 1 ? ' step)' : ' steps)')));
  }, steps, { timeout: 30000 });
  return page.locator('#method-rows tr[data-method]').evaluateAll((rows) =>
    rows.map((r) => [r.querySelector('td').textContent, r.children[1].textContent]));
}

test('the methods table and Compare show the view: a method merged from its row\'s menu leaves both', async (t) => {
  const page = await open(t, corpus(TRACE), { viewport: { width: 1280, height: 900 } });
  await page.click('#tab-button-methods');
  const before = await methodTable(page, 0);
  assert.ok(before.some(([name]) => name.startsWith(DISPATCH)), 'listed before the merge');
  assert.equal(await page.isVisible('#view-bar'), true, 'the view bar shows with the methods');
  assert.equal(await page.isVisible('#view-invert'), false, 'a table of methods reads the same bottom-up: no Invert');
  // The Menu key on a focused row opens its menu; its subtree is the graphs' to focus on.
  const row = page.locator('#method-rows tr[data-method]', { hasText: DISPATCH }).first();
  await row.click();
  await row.press('ContextMenu');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  assert.equal(await page.textContent('.frame-menu-name'), DISPATCH);
  assert.equal(await page.locator('.frame-menu [role=menuitem]', { hasText: 'Focus on this subtree' }).getAttribute('aria-disabled'), 'true');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'closed');
  // A right click, then Merge.
  await row.click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.locator('.frame-menu [role=menuitem]', { hasText: 'Merge ' + DISPATCH }).click();
  const after = await methodTable(page, 1);
  assert.ok(!after.some(([name]) => name.startsWith(DISPATCH)), 'merged into its callers');
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + DISPATCH]);
  assert.match(await page.textContent('#method-scope'), /as the view above shows it \(1 step\)/);
  // Its caller's exclusive time took its own time.
  const selfOf = async (name) => {
    await page.fill('#method-filter', name);
    await page.waitForFunction((n) => {
      const rows = Array.from(document.querySelectorAll('#method-rows tr[data-method]'));
      return rows.length > 0 && rows.every((r) => r.textContent.includes(n));
    }, name);
    // Its exclusive µs (the fourth column), from the row that names it.
    return page.locator('#method-rows tr[data-method]').evaluateAll((rows, n) => {
      const row = rows.find((r) => r.children[0].textContent.startsWith(n));
      return Number(row.children[3].textContent.replace(/[^0-9]/g, ''));
    }, name);
  };
  const loopSelf = await selfOf(LOOP);
  await shot(page, 'transforms-methods-merged');
  await page.click('#view-undo');
  await methodTable(page, 0);
  assert.ok(await selfOf(LOOP) < loopSelf, 'Looper.loop has less time of its own when Handler.dispatchMessage is its callee again');
  await page.fill('#method-filter', '');

  // Compare: both traces in the view, graph and methods.
  await page.click('#compare-open');
  await page.setInputFiles('#compare-picker', corpus('ffprof-art-streaming.trace'));
  await page.waitForFunction(() => document.body.dataset.compareGraph === 'ready', null, { timeout: 30000 });
  assert.match(await page.evaluate(() => document.getElementById('compare-flame').srcdoc), new RegExp(escape(DISPATCH)));
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  // Drawn again once its tab shows (the view changed meanwhile): a frame given its
  // document before any layout once stayed blank here.
  await assertGraphDrawn(page);
  await menuOf(page, await frameNamed(page, DISPATCH));
  await choose(page, 'Merge ' + DISPATCH);
  await page.click('#tab-button-compare');
  await page.waitForFunction((name) => document.body.dataset.compareGraph === 'ready' &&
    !document.getElementById('compare-flame').srcdoc.includes(name), DISPATCH, { timeout: 30000 });
  await page.waitForFunction(() => / shown\.|^Showing|^No .* matches the filter/.test(document.getElementById('compare-method-note').textContent));
  const names = await page.locator('#compare-method-rows td.name').allTextContents();
  assert.ok(names.length > 0 && !names.some((n) => n.includes(DISPATCH)), 'the method deltas are in the view too');
  assert.equal(await page.isVisible('#view-bar'), true);
  await shot(page, 'transforms-compare-merged');
});

test('Hide kernel takes the kernel\'s frames out of the graph, as a step a link keeps', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus('simpleperf/ffprof-simpleperf-cpu-clock.trace')]), 'done');
  await page.waitForFunction(() => !document.getElementById('view-hide-kernel').hidden);
  assert.equal(await page.isVisible('#view-hide-native'), true, 'its samples run in .so libraries too');
  // Kernel frames are drawn in inferno's kernel colour: orange, rgb(2xx,1xx,…) with the
  // `_[k]` left out of their names. The graph's total stays: their time is their callers'.
  const kernelFrames = (svg) => (svg.match(/<title>[^<]*<\/title><rect[^>]*fill="rgb\(2\d\d,1\d\d,[0-9]+\)"/g) || []).length;
  const total = (svg) => svg.match(/<title>all \(([\d,]+) /)[1];
  const before = await shownSvg(page);
  await redrawn(page, () => page.click('#view-hide-kernel'));
  assert.equal(await page.getAttribute('#view-hide-kernel', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#view-crumbs'), /Hide kernel frames/);
  const after = await shownSvg(page);
  assert.equal(total(after), total(before));
  assert.ok(kernelFrames(before) > kernelFrames(after), kernelFrames(before) + ' → ' + kernelFrames(after));
  // The address follows the view (a moment after it changes).
  await page.waitForFunction(() => /view=[^&]*hide[^&]*kernel/.test(location.hash));
  await shot(page, 'transforms-hide-kernel');
  // Toggled off: the step goes, and the graph is as it was.
  await redrawn(page, () => page.click('#view-hide-kernel'));
  assert.equal(await page.getAttribute('#view-hide-kernel', 'aria-pressed'), 'false');
  assert.equal(total(await shownSvg(page)), total(before));
});
