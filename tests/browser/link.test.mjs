// Views you can share (issue 30): the view lives in the address's hash as a person works;
// the same address opened again, then the same file, shows the same view; "Copy link"
// copies it; and a crafted hash is read as untrusted text: what it asks for that the
// trace lacks, or that is no view at all, is left out with a note, shown as text, and
// nothing it says becomes markup, a script or a request (checkedPage checks the last two).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, pick, shot, shownSvg, useBrowser, checkedPage } from './support.mjs';

const context = useBrowser();
const TRACE = 'ffprof-art-regular.trace';
const NEXT = 'android.os.MessageQueue.next';
// A capture with the compositor's frame timeline: it has a Frames tab.
const FRAMES = 'perfetto/nowinandroid-fork-trace.perfetto-trace';

async function opened(page) {
  assert.equal(await pick(page, corpus(TRACE)), 'done');
  await page.waitForFunction(() => ['ready', 'empty'].includes(document.body.dataset.graph) || document.body.dataset.tree === 'ready',
    null, { timeout: 30000 });
}

function hashOf(page) {
  return new URL(page.url()).hash;
}

function crumbs(page) {
  return page.locator('#view-crumbs .crumb').evaluateAll((items) => items.map((li) => li.firstElementChild.textContent));
}

test('the view follows into the address, and the same address and file show it again', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1440, height: 900 } });
  await opened(page);
  await page.click('#tab-button-tree');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready');
  await page.locator('#thread-rows tr[data-thread]').filter({ has: page.locator('td.name[title="pool-12-thread-1 [21594]"]') }).click();
  await page.waitForFunction(() => /^pool-12-thread-1/.test(document.getElementById('tree-title').textContent) && document.body.dataset.tree === 'ready');
  await page.check('#tree-clock-cpu');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready' && /CPU|cpu/.test(document.getElementById('tree-title').textContent));
  const row = page.locator('#tree-grid tbody tr[data-node]').nth(1);
  const name = await row.locator('td').first().getAttribute('title');
  await row.click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.body.dataset.tree === 'ready' &&
    !Array.from(document.querySelectorAll('#tree-grid td[title]')).some((td) => td.getAttribute('title') === n), name);
  await page.fill('#tree-search', 'run');
  await page.waitForFunction(() => new URL(location.href).hash.includes('tree_search=run'), null, { timeout: 5000 });
  const hash = hashOf(page);
  for (const part of ['tab=tree', 'thread=pool-12-thread-1+%5B21594%5D', 'clock=cpu', 'view=']) assert.ok(hash.includes(part), part + ' in ' + hash);
  // The link names its file (for whoever opens it without), and holds nothing of it.
  assert.ok(hash.startsWith('#file=' + encodeURIComponent(TRACE) + '&'), hash);

  // The address opened again (a reload) knows the view, not the trace: it asks for the file.
  await page.reload();
  assert.equal(await page.isVisible('#link-welcome'), true);
  assert.equal(await page.textContent('#link-welcome-file'), JSON.stringify(TRACE));
  await shot(page, 'link-welcome');
  await opened(page);
  await page.waitForFunction(() => document.body.dataset.tree === 'ready');
  assert.equal(await page.getAttribute('#tab-button-tree', 'aria-selected'), 'true');
  assert.match(await page.textContent('#tree-title'), /^pool-12-thread-1 \[21594\]/);
  assert.equal(await page.isChecked('#tree-clock-cpu'), true);
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + name]);
  assert.equal(await page.inputValue('#tree-search'), 'run');
  assert.equal(await page.isHidden('#link-note'), true, 'nothing left out');
  assert.equal(await page.isDisabled('#view-undo'), false, 'Undo goes back to the whole profile');

  // Copy link copies the address of the view on show.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link-status').textContent === 'Link copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
});

test('a link made on the Frames tab opens on the Frames tab', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, corpus(FRAMES)), 'done');
  await page.click('#tab-button-frames');
  await page.waitForFunction(() => document.body.dataset.frames === 'shown');
  await page.waitForFunction(() => /^#file=[^&]+&tab=frames&/.test(new URL(location.href).hash), null, { timeout: 5000 });
  await page.reload();
  assert.equal(await pick(page, corpus(FRAMES)), 'done');
  await page.waitForFunction(() => document.body.dataset.frames === 'shown');
  assert.equal(await page.getAttribute('#tab-button-frames', 'aria-selected'), 'true');
  assert.equal(await page.isHidden('#tab-frames'), false);
  assert.equal(await page.isHidden('#link-note'), true, 'nothing left out');
});

test('a crafted hash: what is not a view is left out with a note in plain text, and nothing runs', async (t) => {
  const hostile = '#tab=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&thread=%3Cscript%3Ewindow.pwned%3D2%3C%2Fscript%3E' +
    '&clock=sideways&range=abc&view=%7Bbad&fetch=https%3A%2F%2Fexample.com%2Fx.js&search=%3Cb%3Ebold%3C%2Fb%3E';
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark', query: hostile });
  await opened(page);
  await page.waitForFunction(() => !document.getElementById('link-note').hidden);
  const note = await page.textContent('#link-note-text');
  assert.match(note, /no thread "<script>window\.pwned=2<\/script>"/);
  for (const part of ['tab', 'clock', 'range', 'view \\(its transforms\\)']) assert.match(note, new RegExp('link\'s ' + part + ' was left out'));
  assert.match(note, /does not know, left out: "fetch"/);
  assert.equal(await page.evaluate(() => document.querySelector('#link-note script, #link-note img, #link-note b')), null, 'text, not markup');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // The search is only a search term.
  assert.equal(await page.inputValue('#graph-search'), '<b>bold</b>');
  assert.equal(await page.getAttribute('#tab-button-flame', 'aria-selected'), 'true', 'the default view otherwise');
  await shot(page, 'link-hostile-dark-narrow');
  await page.click('#link-note-close');
  assert.equal(await page.isHidden('#link-note'), true);
});

test('a link naming a frame the trace lacks shows the whole profile and says why', async (t) => {
  const view = encodeURIComponent(JSON.stringify({ transforms: [{ merge: 'no.such.Frame' }], invert: false }));
  const page = await checkedPage(context, t, { viewport: { width: 1440, height: 900 }, query: '#view=' + view });
  await opened(page);
  await page.waitForFunction(() => !document.getElementById('graph-error').hidden && document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  assert.match(await page.textContent('#graph-error'), /no frame is named "no\.such\.Frame"/);
  assert.deepEqual(await crumbs(page), ['Whole profile']);
  assert.match(await shownSvg(page), new RegExp(NEXT.replace(/\./g, '\\.')));
  // A link pasted into the open page shows its view at once.
  await page.evaluate((hash) => { window.location.hash = hash; }, 'view=' + encodeURIComponent(JSON.stringify({ transforms: [{ merge: NEXT }] })));
  await page.waitForFunction((n) => document.body.dataset.graph === 'ready' && !document.getElementById('flame').srcdoc.includes('<title>' + n + ' ('), NEXT,
    { timeout: 30000 });
  assert.deepEqual(await crumbs(page), ['Whole profile', 'Merge ' + NEXT]);
});

test('a link that opens on another tab draws the graph behind it without errors, and whole once shown', async (t) => {
  const page = await checkedPage(context, t, { query: '#tab=methods', viewport: { width: 1280, height: 800 } });
  // The graph is drawn in its hidden tab, where it has no width: nothing in its frame may
  // complain (a negative width was once set there).
  const errors = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  assert.equal(await pick(page, corpus(TRACE)), 'done');
  assert.equal(await page.getAttribute('#tab-button-methods', 'aria-selected'), 'true');
  await page.waitForFunction(() => document.querySelectorAll('#method-rows tr[data-method]').length > 5);
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready', null, { timeout: 30000 });
  const widest = await page.frameLocator('#flame').locator('#frames rect')
    .evaluateAll((rects) => Math.max(...rects.map((rect) => rect.getBoundingClientRect().width)));
  const pane = await page.evaluate(() => document.getElementById('flame').clientWidth);
  assert.ok(widest > pane * 0.9, 'the graph spans its pane once shown: ' + widest + ' of ' + pane);
  assert.deepEqual(errors, []);
});
