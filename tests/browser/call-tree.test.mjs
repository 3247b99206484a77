// The Call tree tab (issue 30), used as a person would on a real trace: it opens top-down
// along the heaviest path, its numbers are the flame graph's, the keyboard opens, closes
// and moves as in any tree, Enter shows the selected function's callers and callees,
// search opens the rows down to each match, Bottom up turns it over, and a row's menu
// changes the view the flame graph shows too. Waits on `body[data-tree]`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, shot, shownSvg, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();
const TRACE = 'ffprof-art-regular.trace';
const ZYGOTE = 'com.android.internal.os.ZygoteInit.main';
const NEXT = 'android.os.MessageQueue.next';
const POLL = 'android.os.MessageQueue.nativePollOnce';
const LOOP = 'android.os.Looper.loop';
const DISPATCH = 'android.os.Handler.dispatchMessage';

async function openTree(t, options = {}) {
  const page = await checkedPage(context, t, Object.assign({ viewport: { width: 1440, height: 900 } }, options));
  assert.equal(await pick(page, corpus(TRACE)), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  await treeRedrawn(page, () => page.click('#tab-button-tree'));
  return page;
}

// Runs `action` and waits for the tree it makes.
async function treeRedrawn(page, action) {
  await page.evaluate(() => { document.body.dataset.tree = 'asked'; });
  await action();
  await page.waitForFunction(() => document.body.dataset.tree === 'ready', null, { timeout: 30000 });
}

// The rows on show: [name, level, expanded] each.
function rows(page, grid = '#tree-grid') {
  return page.locator(grid + ' tbody tr[data-node]').evaluateAll((trs) => trs.map((tr) => [
    tr.querySelector('td').getAttribute('title'), Number(tr.getAttribute('aria-level')), tr.getAttribute('aria-expanded'),
  ]));
}

function focusedName(page) {
  return page.evaluate(() => document.activeElement.closest('tr') && document.activeElement.closest('tr').querySelector('td').getAttribute('title'));
}

function cells(page, name, grid = '#tree-grid') {
  return page.locator(grid + ' tbody tr[data-node]', { has: page.locator('td[title="' + name + '"]') }).first()
    .locator('td').allTextContents();
}

test('the call tree opens top-down along its heaviest path, with the flame graph\'s numbers', async (t) => {
  const page = await openTree(t);
  const svg = await shownSvg(page);
  assert.match(await page.textContent('#tree-title'), /^main \[21491\] — .*, top-down \(times in µs\)$/);
  assert.equal(await page.isChecked('#tree-top-down'), true, 'the switch says which way the tree reads');
  const shown = await rows(page);
  assert.deepEqual(shown[0], [ZYGOTE, 1, 'true']);
  // Open down to nativePollOnce, which spends its time itself: the path stops there.
  const path = shown.filter((r) => r[2] === 'true').map((r) => r[0]);
  assert.equal(path[path.length - 1], POLL);
  assert.ok(path.includes(LOOP) && path.includes(NEXT));
  assert.equal(await page.getAttribute('#tree-grid tr[tabindex="0"] td', 'title'), POLL, 'the path\'s end has the keyboard\'s place');
  // Total wall µs and share as the flame graph's tooltip says them.
  for (const name of [ZYGOTE, NEXT, DISPATCH]) {
    const [, us, share] = new RegExp('<title>' + name.replace(/[.$]/g, '\\$&') + ' \\(([\\d,]+) µs, ([\\d.]+)%\\)').exec(svg);
    const row = await cells(page, name);
    assert.equal(row[1], us, name + ' total');
    assert.equal(row[6], Number(share).toFixed(1) + '%', name + ' share');
  }
  const headers = await page.locator('#tree-grid th').allTextContents();
  assert.deepEqual(headers, ['Frame', 'Wall total', 'Wall self', 'CPU total', 'CPU self', 'Calls', 'Share']);
  await shot(page, 'tree-top-down');
});

test('the keyboard: arrows close, open and move; Enter shows the callers and callees; search opens to each match', async (t) => {
  const page = await openTree(t);
  // Tab from the search box reaches the tree, at the heaviest path's end.
  await page.focus('#tree-search');
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(page), POLL);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#tree-grid tr[tabindex="0"]', 'aria-expanded'), 'false', 'Left closes');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedName(page), NEXT, 'Left on a closed row goes to its parent');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedName(page), POLL);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tree-grid tr[tabindex="0"]', 'aria-expanded'), 'true', 'Right opens');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedName(page), 'android.view.InputEventReceiver.dispatchInputEvent', 'Right on an open row goes to its first child');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedName(page), POLL);

  // Enter: the sandwich of nativePollOnce.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('sandwich').hidden &&
    document.querySelectorAll('#sandwich-callers tbody tr[data-node]').length > 1);
  assert.equal(await page.textContent('#sandwich-name'), POLL);
  const callers = await rows(page, '#sandwich-callers');
  assert.deepEqual(callers.slice(0, 3).map((r) => r[0]), [POLL, NEXT, LOOP], 'its callers, bottom-up from it');
  const callees = await rows(page, '#sandwich-callees');
  assert.equal(callees[0][0], POLL);
  assert.ok(callees.some((r) => r[0] === 'android.view.InputEventReceiver.dispatchInputEvent'), 'its callees');
  assert.deepEqual((await cells(page, POLL, '#sandwich-callers')).slice(1), [(await cells(page, POLL))[1], '100.0%'],
    'rooted at it: all of its time');
  assert.deepEqual(await page.locator('#sandwich-callers th').allTextContents(), ['Frame', 'Wall total', 'Share'],
    'bottom-up: no self time, and only the clock the tree is ordered by');
  // Choosing a caller makes it the function the sandwich is of.
  await page.locator('#sandwich-callers tbody tr[data-node]').nth(1).click();
  await page.waitForFunction((name) => document.getElementById('sandwich-name').textContent === name, NEXT);
  await shot(page, 'tree-sandwich');

  // Search opens closed rows down to each match and marks it.
  await page.fill('#tree-search', 'dispatchVsync');
  await page.waitForFunction(() => /match/.test(document.getElementById('tree-matched').textContent));
  assert.match(await page.textContent('#tree-matched'), /^\d+ frames? match/);
  const found = page.locator('#tree-grid .tree-label.found').first();
  assert.equal(await found.isVisible(), true);
  assert.match(await found.textContent(), /dispatchVsync/);
  await page.fill('#tree-search', 'no such frame anywhere');
  await page.waitForFunction(() => document.getElementById('tree-matched').textContent === 'No frame matches');
  assert.equal(await page.locator('#tree-grid .tree-label.found').count(), 0);
});

test('Bottom up turns the tree over; a row\'s menu merges a frame out of the tree and the flame graph', async (t) => {
  const page = await openTree(t);
  await treeRedrawn(page, () => page.check('#tree-bottom-up'));
  assert.match(await page.textContent('#tree-title'), /, bottom-up \(times in µs\)$/);
  assert.equal(await page.getAttribute('#view-invert', 'aria-pressed'), 'true', 'one view: the graph\'s Invert too');
  const shown = await rows(page);
  assert.deepEqual(await page.locator('#tree-grid th').allTextContents(), ['Frame', 'Wall total', 'CPU total', 'Share']);
  assert.equal(shown[0][0], POLL, 'the frame that spends the most itself comes first');
  assert.equal(shown[1][0], NEXT, 'its caller under it');
  await treeRedrawn(page, () => page.check('#tree-top-down'));

  // Shift+F10 at a row opens its menu; Merge takes the frame out.
  await page.locator('#tree-grid tbody tr[data-node]', { has: page.locator('td[title="' + NEXT + '"]') }).click();
  await page.keyboard.press('Shift+F10');
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Merge ' + NEXT);
  await treeRedrawn(page, () => page.keyboard.press('Enter'));
  assert.deepEqual(await page.locator('#view-crumbs .crumb').evaluateAll((items) => items.map((li) => li.firstElementChild.textContent)),
    ['Whole profile', 'Merge ' + NEXT]);
  const merged = await rows(page);
  assert.equal(merged.some((r) => r[0] === NEXT), false);
  assert.equal(merged.find((r) => r[0] === POLL)[1], merged.find((r) => r[0] === LOOP)[1] + 1, 'its callee moved up to its caller');
  // A right click opens the same menu; Escape gives the keyboard back to the row.
  await page.locator('#tree-grid tbody tr[data-node]', { has: page.locator('td[title="' + LOOP + '"]') }).click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.keyboard.press('Escape');
  assert.equal(await focusedName(page), LOOP);
  // The flame graph shows the same view.
  await page.click('#tab-button-flame');
  await page.waitForFunction((name) => document.body.dataset.graph === 'ready' && !document.getElementById('flame').srcdoc.includes('<title>' + name + ' ('),
    NEXT, { timeout: 30000 });
  assert.match(await shownSvg(page), new RegExp('<title>' + POLL.replace(/[.$]/g, '\\$&') + ' \\('));
});

test('a narrow dark window: the tree keeps its names and the clock it is ordered by', async (t) => {
  const page = await openTree(t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  const box = await page.locator('.tree-scroll').evaluate((n) => ({ scroll: n.scrollWidth, client: n.clientWidth }));
  assert.ok(box.scroll <= box.client, 'no sideways scrolling: ' + JSON.stringify(box));
  const visibleHeaders = await page.locator('#tree-grid th').evaluateAll((ths) => ths.filter((th) => th.offsetWidth > 0).map((th) => th.textContent));
  assert.deepEqual(visibleHeaders, ['Frame', 'Wall total', 'Wall self', 'Calls', 'Share']);
  const name = page.locator('#tree-grid tbody tr[data-node] .tree-label').first();
  assert.ok((await name.boundingBox()).width > 120, 'the name column keeps room');
  await page.locator('#tree-grid tbody tr[tabindex="0"]').press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#sandwich-callers tbody tr[data-node]').length > 1);
  await page.locator('#sandwich').scrollIntoViewIfNeeded();
  await shot(page, 'tree-narrow-dark');
});

test('a tree with more open rows than a grid draws at once shows the rest on request, the keyboard staying on its row', async (t) => {
  const page = await openTree(t);
  await page.locator('#thread-rows tr[data-thread="-1"]').click();
  await page.waitForFunction(() => /^All threads/.test(document.getElementById('tree-title').textContent) && document.body.dataset.tree === 'ready');
  // A search opens the rows down to its 200 heaviest matches: more rows than are drawn.
  await page.fill('#tree-search', 'run');
  const more = page.locator('#tree-grid tr.tree-more button');
  await more.waitFor({ timeout: 30000 });
  const drawn = await page.locator('#tree-grid tbody tr[data-node]').count();
  assert.equal(drawn, 200, 'a grid draws 200 rows at first');
  const left = Number(/\(([\d,]+) open rows not shown\)/.exec(await page.textContent('#tree-grid tr.tree-more'))[1].replace(/,/g, ''));
  assert.ok(left > 0);
  const last = page.locator('#tree-grid tbody tr[data-node]').last();
  await last.click();
  const name = await focusedName(page);
  await more.click();
  await page.waitForFunction((n) => document.querySelectorAll('#tree-grid tbody tr[data-node]').length === n, 200 + Math.min(left, 200));
  assert.equal(await focusedName(page), name, 'the keyboard is on the row it was on');
  await page.keyboard.press('ArrowDown');
  assert.notEqual(await focusedName(page), name, 'and moves on into the rows shown now');
});
