// Release builds are obfuscated: a person drops the trace with its mapping.txt (or applies
// the mapping later), and every view shows the original names; a wrong file says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, drop, pick, rowPoint, shot, shownSvg, tempFile, useBrowser, checkedPage } from './support.mjs';
import { MAPPING, OBFUSCATED } from './obfuscated.mjs';

const context = useBrowser();

const files = () => [tempFile('app-release.trace', OBFUSCATED), tempFile('mapping.txt', MAPPING)];

async function mappingSettled(page) {
  await page.waitForFunction(() => {
    const text = document.getElementById('mapping-text').textContent;
    return !document.getElementById('mapping-bar').hidden && !/^Reading/.test(text);
  }, null, { timeout: 30000 });
  return page.textContent('#mapping-text');
}

test('a trace dropped with its mapping shows the original names in every view', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1440, height: 900 } });
  assert.equal(await drop(page, files()), 'done');
  assert.match(await mappingSettled(page), /^This trace: names from mapping\.txt\./);
  assert.equal(await page.textContent('#file-name'), 'app-release.trace', 'the mapping is not taken for a trace');
  await page.waitForFunction(() => /com\.example\.Spieler\.spiele/.test(document.getElementById('flame').srcdoc));
  const svg = await shownSvg(page);
  assert.match(svg, /com\.example\.Track\.titel/);
  assert.match(svg, /android\.os\.Looper\.loop/, 'the framework as it was');
  assert.doesNotMatch(svg, /a\.b\.a/, 'no obfuscated name is left but the ambiguous one');
  // The notes say what was mapped, and what was left and why.
  const notes = await page.locator('#notes-list li').allTextContents();
  const note = notes.find((n) => n.startsWith('Names deobfuscated'));
  assert.match(note, /written by R8 8\.5\.35: 2 classes and 3 methods mapped/);
  assert.match(note, /1 method keeps its obfuscated name: .*\(com\.example\.Spieler\.b\)/);
  // The graph's search finds a method by its original name.
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  await page.fill('#graph-search', 'spiele');
  await page.waitForFunction(() => /frames? ·/.test(document.getElementById('graph-matched').textContent));
  await shot(page, 'mapping-flame');

  // The methods table: original names, both overloads of `spiele` apart.
  await page.click('#tab-button-methods');
  await page.locator('#method-rows tr').first().waitFor();
  const names = await page.locator('#method-rows td.name').evaluateAll((cells) => cells.map((c) => c.textContent));
  assert.ok(names.filter((n) => /spiele/.test(n)).length >= 1, names.join(' | '));
  assert.ok(names.some((n) => /titel/.test(n)), names.join(' | '));
  await shot(page, 'mapping-methods');

  // The timeline names calls by their original names too: main's depth 1 at a quarter of
  // the way is `spiele(Track)` (0.1 to 9 ms of 20).
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn', null, { timeout: 30000 });
  const point = await rowPoint(page, 1, 0.25);
  await page.mouse.move(point.x, point.y);
  await page.waitForSelector('#timeline-tip:not([hidden])');
  assert.match(await page.textContent('#timeline-tip'), /com\.example\.Spieler\.spiele/);
  await shot(page, 'mapping-timeline');
});

test('Apply mapping… renames an open trace; a wrong file says what is wrong', async (t) => {
  const page = await checkedPage(context, t);
  const [trace, mapping] = files();
  assert.equal(await pick(page, trace), 'done');
  await page.waitForFunction(() => /a\.b\.a/.test(document.getElementById('flame').srcdoc));
  assert.equal(await page.isVisible('#mapping-open'), true);

  // A file that is no mapping: the trace stays as it was, and the bar says why.
  await page.setInputFiles('#mapping-picker', tempFile('notes.txt', 'Release notes\n- faster start\n'));
  assert.match(await mappingSettled(page), /^Not applied, the names stay as they were: notes\.txt: not a mapping file: line 1 is no mapping line: `Release notes`/);
  assert.match(await shownSvg(page), /a\.b\.a/);
  await shot(page, 'mapping-wrong-file');

  await page.setInputFiles('#mapping-picker', mapping);
  assert.match(await mappingSettled(page), /^This trace: names from mapping\.txt\./);
  await page.waitForFunction(() => /com\.example\.Spieler\.spiele/.test(document.getElementById('flame').srcdoc));
  // The thread chosen stays chosen.
  assert.equal(await page.locator('#thread-rows tr[aria-selected=true]').count(), 1);

  // A mapping alone, with nothing open, asks for its trace.
  const fresh = await checkedPage(context, t);
  assert.equal(await drop(fresh, [mapping]), 'error');
  assert.match(await fresh.textContent('#error-text'), /This is a mapping file .* open its trace first/);
});

test('a real trace with a mapping of another app: nothing renamed, and the page says so', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 800 } });
  assert.equal(await pick(page, corpus('ffprof-art-regular.trace')), 'done');
  await page.setInputFiles('#mapping-picker', corpus('mapping/rustproguard-mapping-r8-1.3.49.txt'));
  assert.equal(await mappingSettled(page), 'This trace: No name was changed by a mapping written by R8 1.3.49.');
  assert.equal(await page.getAttribute('#mapping-bar', 'class'), 'mapping-bar error');
  const notes = await page.locator('#notes-list li').allTextContents();
  assert.ok(notes.includes('This mapping lists none of the trace\'s 1,197 classes: it belongs to another app or build.'), notes.join(' | '));
  // The graph is drawn again, as it was.
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  assert.match(await shownSvg(page), /android\.os\.Looper\.loop/);
  await page.frameLocator('#flame').locator('#frames rect').first().waitFor();
  await shot(page, 'mapping-other-app');
});
