// Many runs, as a person compares them: drop twenty traces of one scenario (ten before a
// change, ten after), check the groups the page proposes, compare, read the methods table
// with its spread and verdicts, open the slowed method's runs, switch the graph, and the
// same in dark mode on a narrow window; two drops with names that say nothing; a run that
// is no trace is left out and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutSettled, root, shot, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();
const SLOWED = 'com.example.feed.Part2.step17';

// Ten runs a side of the testkit's program, after's SLOWED 1.3 times slower.
const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-runs-'));
execFileSync('cargo', ['run', '-q', '-p', 'droidflame-testkit', '--bin', 'write-runs', '--', runsDir, '10', '1.3'], { cwd: root });
const runFiles = fs.readdirSync(runsDir).sort().map((name) => path.join(runsDir, name));

async function choosing(page, files) {
  await page.setInputFiles('#picker', files);
  await page.waitForSelector('#runs-choose:not([hidden])');
}

async function compared(page) {
  await page.click('#runs-start');
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state) && document.body.dataset.runsMethods, null, { timeout: 60000 });
  await page.waitForFunction(() => document.body.dataset.runsGraph === 'ready', null, { timeout: 30000 });
}

const rowsOf = (page) => page.locator('#runs-method-rows tr').evaluateAll((rows) => rows.map((r) =>
  ({ name: r.querySelector('td.name').title.split(' ')[0], verdict: r.querySelector('td.verdict').textContent })));

test('twenty runs grouped by their names: the slowed method first, slower, with its runs', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1440, height: 900 } });
  await choosing(page, runFiles);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle', 'nothing is read before the groups are chosen');
  assert.match(await page.textContent('#runs-proposal'), /Grouped by “before” and “after” in the names/);
  assert.equal(await page.textContent('#runs-start-note'), '10 before, 10 after');
  const groups = await page.locator('#runs-file-rows select').evaluateAll((s) => s.map((e) => e.value));
  assert.deepEqual(groups.filter((g) => g === 'after').length, 10);
  await shot(page, 'runs-choose');
  await compared(page);
  assert.match(await page.textContent('#runs-facts'), /^10 runs before, 10 after · wall time/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'runs-facts', 'the keyboard goes to what was found');
  const rows = await rowsOf(page);
  assert.equal(rows[0].name, SLOWED);
  assert.equal(rows[0].verdict, 'slower (significant)');
  assert.ok(rows.slice(1).filter((r) => r.verdict !== 'unchanged').length <= 1, 'hardly a false alarm');
  assert.match(await page.textContent('#runs-method-note'), /1 of all 42 changed significantly/);
  // Each row's spread: two boxes (before, after) on one scale.
  assert.equal(await page.locator('#runs-method-rows tr').first().locator('svg.spread rect').count(), 2);
  // The differential graph of medians.
  const svg = await page.evaluate(() => document.getElementById('runs-flame').srcdoc);
  assert.match(svg, /All threads — wall clock, medians of 10 and 10 runs, before → after/);
  // Coloured where the runs show a change: the slowed method's frames, and no other's own time.
  const coloured = [...svg.matchAll(/<g><title>([^ ]+) \([^<]*<\/title><rect [^>]*fill="rgb\((\d+),(\d+),(\d+)\)"/g)]
    .filter((m) => !(m[2] === '222' && m[3] === '222' && m[4] === '222')).map((m) => m[1]);
  assert.ok(coloured.length > 0 && coloured.every((name) => name === SLOWED), 'coloured: ' + coloured.join(', '));
  // Choosing the slowed method shows its runs, one by one.
  await page.locator('#runs-method-rows tr').first().click();
  await page.waitForSelector('#runs-detail:not([hidden])');
  assert.equal(await page.locator('#runs-detail tbody tr:not(.side)').count(), 20);
  assert.match(await page.textContent('#runs-detail'), /Slower \(significant\), 1\.\d\d× · shift of own time \+[\d.]+ (µs|ms), 9\d% interval/);
  assert.match(await page.textContent('#runs-detail'), /Significant after the correction for every method tested\. p < 0\.0001, q 0\.0\d+/);
  assert.equal(await page.locator('#runs-detail svg.run-dots circle').count(), 20);
  await shot(page, 'runs-done');
  // Escape in the table closes the runs of the method; choosing its row again opens them.
  await page.keyboard.press('Escape');
  await page.waitForSelector('#runs-detail', { state: 'hidden' });
  await page.locator('#runs-method-rows tr').first().click();
  await page.waitForSelector('#runs-detail:not([hidden])');
  // One group's graph: each stack's median over its runs, for the main thread.
  await page.selectOption('#runs-graph', 'after');
  await page.selectOption('#runs-thread', 'main');
  await page.waitForFunction(() => /main — wall clock, median of the 10 runs after/.test(document.getElementById('runs-flame').srcdoc)
    && document.body.dataset.runsGraph === 'ready', null, { timeout: 30000 });
  // The after group's call tree of main: medians per stack; found by search, the slowed
  // method's row holds more than the before group's.
  const treeTotal = async (group) => {
    await page.selectOption('#runs-tree-group', group);
    await page.waitForFunction(() => document.body.dataset.runsTree === 'ready');
    await page.fill('#runs-tree-search', 'step17');
    await page.waitForFunction(() => /frames? match/.test(document.getElementById('runs-tree-matched').textContent));
    const found = page.locator('#runs-tree tr:has(.tree-label.found)').first();
    return Number((await found.locator('td').nth(1).textContent()).replace(/\D/g, ''));
  };
  await page.locator('#runs-tree').scrollIntoViewIfNeeded();
  // Before any choice, the tree shown is the group its select names (after, the default).
  assert.equal(await page.inputValue('#runs-tree-group'), 'after');
  assert.equal(await page.locator('#runs-tree thead th').allTextContents().then((h) => h.join('|')), 'Frame|Wall total|Wall self|Share');
  const after = await treeTotal('after');
  const before = await treeTotal('before');
  assert.ok(after > before * 1.15, 'the slowed method, before ' + before + ' µs, after ' + after + ' µs');
  await shot(page, 'runs-tree');
  // Keyboard: the table is one Tab stop; arrows move, Enter opens.
  await page.locator('#runs-method-rows tr').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction((name) => !document.getElementById('runs-detail').textContent.includes(name), SLOWED);
  // Shares of run time: the same method is found.
  await page.check('#runs-share');
  await page.waitForFunction(() => /tested on shares/.test(document.getElementById('runs-detail').textContent)
    || document.getElementById('runs-method-note').textContent.includes('changed'), null, { timeout: 30000 });
  assert.equal((await rowsOf(page))[0].name, SLOWED);
  // The CPU clock: every run is read again on it, and the same method is found.
  assert.equal(await page.isChecked('#runs-clock-wall'), true);
  const clickedAt = await page.evaluate(() => {
    // Where the switch was as it was pressed (the click may scroll it out from under the header).
    window.addEventListener('change', (event) => {
      if (event.target.id === 'runs-clock-cpu') window.clockTop = event.target.getBoundingClientRect().top;
    }, { capture: true });
    return performance.now();
  });
  await page.check('#runs-clock-cpu');
  await page.waitForFunction(() => /thread CPU time/.test(document.getElementById('runs-facts').textContent)
    && document.body.dataset.state === 'done', null, { timeout: 60000 });
  assert.match(await page.textContent('#runs-facts'), /^10 runs before, 10 after · thread CPU time/);
  // The switch stays in sight with the keyboard on it.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'runs-clock-cpu');
  await page.waitForFunction((at) => Math.abs(document.getElementById('runs-clock-cpu').getBoundingClientRect().top - at) < 2,
    await page.evaluate(() => window.clockTop), { timeout: 5000 });
  assert.equal(await page.isChecked('#runs-clock-cpu'), true);
  await page.waitForFunction((name) => document.querySelector('#runs-method-rows tr td.name')?.title.startsWith(name), SLOWED);
  assert.equal((await rowsOf(page))[0].verdict, 'slower (significant)');
  await page.waitForFunction((at) => Number(document.body.dataset.runsGraphReadyAt) > at
    && /main — cpu clock, median of the 10 runs after/.test(document.getElementById('runs-flame').srcdoc), clickedAt, { timeout: 30000 });
  await page.locator('#runs-facts').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.body.dataset.runsGraph === 'ready' && document.body.dataset.runsTree === 'ready');
  await layoutSettled(page, ['#runs-facts', '#runs-flame', '#runs-method-rows', '#runs-tree']);
  await shot(page, 'runs-cpu-clock');
});

test('dark mode on a narrow window keeps the runs readable', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  await choosing(page, runFiles.slice(0, 6).concat(runFiles.slice(10, 16)));
  await compared(page);
  await page.locator('#runs-method-rows tr').first().click();
  await page.waitForSelector('#runs-detail:not([hidden])');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(widths[0] <= widths[1] + 1, 'nothing wider than the window: ' + widths);
  await shot(page, 'runs-dark-narrow');
});

test('two drops whose names say nothing: the first before, the second after; a file that is no trace is left out', async (t) => {
  const page = await checkedPage(context, t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-plain-'));
  const copy = (from, name) => {
    const to = path.join(dir, name);
    fs.copyFileSync(from, to);
    return to;
  };
  const first = [0, 1, 2].map((i) => copy(runFiles[10 + i], 'r' + i + '.trace'));
  const notes = path.join(dir, 'notes.trace');
  fs.writeFileSync(notes, 'not a trace at all\n');
  await choosing(page, first.concat(notes));
  assert.match(await page.textContent('#runs-proposal'), /do not say which runs come before/);
  assert.equal(await page.textContent('#runs-start-note'), '4 before, 0 after: each group needs a run');
  assert.equal(await page.isDisabled('#runs-start'), true);
  // Groups chosen by keyboard: the select keeps the keyboard after its row is drawn again.
  const r1 = page.getByLabel('Group of r1.trace');
  await r1.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await r1.inputValue(), 'after');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Group of r1.trace');
  await page.keyboard.press('ArrowUp');
  assert.equal(await r1.inputValue(), 'before');
  assert.equal(await page.textContent('#runs-start-note'), '4 before, 0 after: each group needs a run');
  const second = [0, 1, 2].map((i) => copy(runFiles[i], 's' + i + '.trace'));
  await page.setInputFiles('#picker', second);
  await page.waitForFunction(() => document.getElementById('runs-start-note').textContent === '4 before, 3 after');
  // Each file's row shows its own bar while it is read.
  await page.evaluate(() => {
    window.barsSeen = new Set();
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('#runs-file-rows progress')) window.barsSeen.add(bar.getAttribute('aria-label'));
    }).observe(document.getElementById('runs-file-rows'), { childList: true, subtree: true });
  });
  await compared(page);
  assert.equal(await page.evaluate(() => window.barsSeen.size), 7, 'a bar for every run read');
  assert.match(await page.textContent('#runs-facts'), /3 runs before, 3 after · wall time · 1 left out/);
  assert.match(await page.textContent('#runs-warnings'), /notes\.trace was left out: .*not an Android trace/);
  // Closing the runs goes back to the start.
  await page.click('#runs-close');
  await page.waitForSelector('#welcome:not([hidden])');
});

test('files of the same names from two folders, their paths lost: the first of each name before, the second after', async (t) => {
  const page = await checkedPage(context, t);
  const dirs = ['one', 'two'].map((side) => fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-' + side + '-')));
  // Before's three runs in the first folder, after's in the second, named alike.
  const files = dirs.flatMap((dir, side) => [0, 1, 2].map((i) => {
    const to = path.join(dir, 'run' + i + '.trace');
    fs.copyFileSync(runFiles[(side === 0 ? 10 : 0) + i], to);
    return to;
  }));
  await choosing(page, files);
  assert.match(await page.textContent('#runs-proposal'), /each name twice: the first of each before, the second \(named “\(2\)”\) after/);
  assert.equal(await page.textContent('#runs-start-note'), '3 before, 3 after');
  const names = await page.locator('#runs-file-rows select').evaluateAll((s) => s.map((e) => e.getAttribute('aria-label')));
  assert.ok(names.includes('Group of run0.trace') && names.includes('Group of run0.trace (2)'), names.join(', '));
});

test('a folder of runs: the names of its subfolders propose the groups; hidden files are no runs', async (t) => {
  const page = await checkedPage(context, t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-folder-'));
  for (const [group, from] of [['base', 0], ['change', 10]]) {
    fs.mkdirSync(path.join(dir, group));
    for (let i = 0; i < 3; i++) fs.copyFileSync(runFiles[from + i], path.join(dir, group, 'run' + i + '.trace'));
  }
  fs.writeFileSync(path.join(dir, '.DS_Store'), 'x');
  // The welcome screen's link opens the folder picker.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#welcome-folder')]);
  await chooser.setFiles(dir);
  await page.waitForSelector('#runs-choose:not([hidden])');
  const names = await page.locator('#runs-file-rows th').allTextContents();
  assert.equal(names.length, 6, names.join(', '));
  // Named by their paths from the folder chosen, which all of them share.
  assert.ok(names.every((n) => /^(base|change)\/run\d\.trace$/.test(n)), names.join(', '));
  const groups = await page.locator('#runs-file-rows select').evaluateAll((s) => s.map((e) => e.value));
  assert.deepEqual(groups, ['before', 'before', 'before', 'after', 'after', 'after']);
  assert.match(await page.textContent('#runs-proposal'), /Grouped by/);
  await compared(page);
  assert.match(await page.textContent('#runs-facts'), /^3 runs before, 3 after/);
});

test('two folders dragged onto the page, before/ and after/ of the same file names: grouped by folder, each run named by it', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1440, height: 900 } });
  // The drop as Chromium gives it for folders: entries read a batch at a time, whose files
  // have no path of their own.
  const folders = [['before', 0], ['after', 10]].map(([name, from]) => ({
    name, files: [0, 1, 2].map((i) => ({ name: 'run' + i + '.trace', bytes: Array.from(fs.readFileSync(runFiles[from + i])) })),
  }));
  await page.evaluate((folders) => {
    const fileEntry = (folder, f) => ({ isFile: true, isDirectory: false, name: f.name, fullPath: '/' + folder + '/' + f.name,
      file: (ok) => setTimeout(() => ok(new File([new Uint8Array(f.bytes)], f.name)), 5) });
    const folderEntry = (folder) => ({ isFile: false, isDirectory: true, name: folder.name, fullPath: '/' + folder.name,
      createReader() {
        let at = 0;
        const entries = folder.files.map((f) => fileEntry(folder.name, f)).concat(fileEntry(folder.name, { name: '.DS_Store', bytes: [1] }));
        return { readEntries: (ok) => setTimeout(() => { ok(entries.slice(at, at + 2)); at += 2; }, 5) };
      } });
    const items = folders.map((folder) => ({ kind: 'file', webkitGetAsEntry: () => folderEntry(folder) }));
    const drop = new Event('drop', { cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], items, files: [] } });
    window.dispatchEvent(drop);
  }, folders);
  await page.waitForSelector('#runs-choose:not([hidden])');
  assert.deepEqual(await page.locator('#runs-file-rows th').allTextContents(), [
    'after/run0.trace', 'after/run1.trace', 'after/run2.trace', 'before/run0.trace', 'before/run1.trace', 'before/run2.trace']);
  const groups = await page.locator('#runs-file-rows select').evaluateAll((s) => s.map((e) => e.value));
  assert.deepEqual(groups, ['after', 'after', 'after', 'before', 'before', 'before']);
  await compared(page);
  assert.match(await page.textContent('#runs-facts'), /^3 runs before, 3 after/);
  await page.locator('#runs-method-rows tr').first().click();
  await page.waitForSelector('#runs-detail:not([hidden])');
  const labels = await page.locator('#runs-detail tbody tr:not(.side) th').allTextContents();
  assert.deepEqual(labels, ['before/run0.trace', 'before/run1.trace', 'before/run2.trace', 'after/run0.trace', 'after/run1.trace', 'after/run2.trace']);
  await shot(page, 'runs-folders-dropped');
});

test('two release builds, each group with its own mapping.txt: the original names are compared', async (t) => {
  const page = await checkedPage(context, t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-release-'));
  execFileSync('cargo', ['run', '-q', '-p', 'droidflame-testkit', '--bin', 'write-runs', '--', dir, '8', '1.5', '--obfuscated'], { cwd: root });
  const files = fs.readdirSync(dir).sort().map((name) => path.join(dir, name));
  await choosing(page, files);
  assert.deepEqual(await page.locator('#runs-mapping-rows th').allTextContents(), ['after-mapping.txt', 'before-mapping.txt']);
  assert.deepEqual(await page.locator('#runs-mapping-rows select').evaluateAll((s) => s.map((e) => e.value)), ['after', 'before']);
  assert.equal(await page.locator('#runs-file-rows tr').count(), 16, 'the mappings are no runs');
  // One mapping for every run clashes with the other's group: no comparison until it is settled.
  await page.selectOption('#runs-mapping-rows tr:nth-child(1) select', 'both');
  assert.match(await page.textContent('#runs-start-note'), /after-mapping\.txt and before-mapping\.txt would both rename the runs before the change/);
  assert.equal(await page.isDisabled('#runs-start'), true);
  await page.selectOption('#runs-mapping-rows tr:nth-child(1) select', 'after');
  await shot(page, 'runs-mappings');
  await compared(page);
  const rows = await rowsOf(page);
  assert.equal(rows[0].name, SLOWED);
  assert.equal(rows[0].verdict, 'slower (significant)');
  const statuses = await page.locator('#runs-file-rows td:last-child').allTextContents();
  assert.match(statuses[0], /^Read · names from after-mapping\.txt \(\d+ classes\)$/);
  assert.match(statuses[15], /^Read · names from before-mapping\.txt/);
});
