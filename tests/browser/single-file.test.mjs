// The single-file build opened from file://: no server, no network, everything inline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, corpus, pick, drop, rowPoint, shot, shownSvg, tempFile, watchRequests, foreignRequests, useBrowser } from './support.mjs';
import { MAPPING, OBFUSCATED } from './obfuscated.mjs';
import { readPprof } from './pprof.mjs';

const context = useBrowser({ server: false });
const single = pathToFileURL(path.join(dist, 'droidflame.html')).href;

async function newPage(t) {
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const requests = watchRequests(page);
  t.after(async () => {
    assert.deepEqual(foreignRequests(requests, null), [], 'only file:, blob: and data: URLs');
    await page.close();
  });
  await page.goto(single);
  return page;
}

test('the single file is one self-contained file', () => {
  const html = fs.readFileSync(path.join(dist, 'droidflame.html'), 'utf8');
  assert.doesNotMatch(html, /<script[^>]+src=/i, 'no external script');
  assert.doesNotMatch(html, /<link[^>]+href="(?!data:)/i, 'no external stylesheet or icon');
  assert.doesNotMatch(html, /https?:\/\//i, 'no URL to anywhere');
  assert.match(html, /id="droidflame-wasm">AGFzbQ/, 'the wasm is inline');
});

test('from file:// it shows ffprof-art-regular.trace with all 40 active threads', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('ffprof-art-regular.trace')), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 41);
  assert.match(await shownSvg(page), /main \[21491\]/);
  await page.frameLocator('#flame').locator('svg').first().waitFor();
  await shot(page, 'single-file-regular');
});

test('from file:// a trace dropped with its mapping shows the original names', async (t) => {
  const page = await newPage(t);
  assert.equal(await drop(page, [tempFile('app-release.trace', OBFUSCATED), tempFile('mapping.txt', MAPPING)]), 'done');
  await page.waitForFunction(() => /com\.example\.Spieler\.spiele/.test(document.getElementById('flame').srcdoc));
  assert.match(await page.textContent('#mapping-text'), /^This trace: names from mapping\.txt\./);
  await shot(page, 'single-file-mapping');
  // The same through window.droidflame.analyze, for pages that embed droidflame.
  const answer = await page.evaluate(async ({ trace, mapping }) => {
    const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const { summary, threads } = await window.droidflame.analyze(bytes(trace), { mapping: bytes(mapping) });
    return { mapped: summary.mapping.methods.mapped, svg: threads[0].svg.includes('com.example.Spieler.spiele') };
  }, { trace: OBFUSCATED.toString('base64'), mapping: Buffer.from(MAPPING).toString('base64') });
  assert.deepEqual(answer, { mapped: 3, svg: true });
});

test('from file:// a dropped gzip streaming trace works', async (t) => {
  const page = await newPage(t);
  assert.equal(await drop(page, [corpus('ffprof-art-streaming.trace.gz')]), 'done');
  assert.equal(await page.locator('#thread-rows tr').count(), 53);
});

test('window.droidflame.analyze answers with the summary and one SVG per thread', async (t) => {
  const page = await newPage(t);
  const bytes = fs.readFileSync(corpus('perflib-exception.trace')).toString('base64');
  const result = await page.evaluate(async (base64) => {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const { summary, threads } = await window.droidflame.analyze(bytes, { clock: 'cpu' });
    let error = null;
    try {
      await window.droidflame.analyze(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    } catch (e) {
      error = e.message;
    }
    return { records: summary.records, threads: threads.map((x) => [x.tid, x.name, x.svg.slice(0, 5)]), title: /cpu clock/.test(threads[0].svg), error };
  }, bytes);
  assert.equal(result.records, 23);
  assert.deepEqual(result.threads, [[11, 'AsyncTask #1', '<?xml']]);
  assert.equal(result.title, true);
  assert.match(result.error, /^not an Android trace at byte 0/);
});

test('from file:// two traces dropped together are compared', async (t) => {
  const page = await newPage(t);
  assert.equal(await drop(page, [corpus('ffprof-art-regular.trace'), corpus('ffprof-art-streaming.trace.gz')]), 'done');
  await page.waitForFunction(() => document.body.dataset.compareGraph === 'ready', null, { timeout: 30000 });
  assert.match(await page.evaluate(() => document.getElementById('compare-flame').srcdoc), /main — wall clock, before → after/);
  assert.equal(await page.locator('#compare-facts tr').count(), 2);
  await shot(page, 'single-file-compare');
});

test('window.droidflame.compare answers with both summaries, a graph per thread name and the method deltas', async (t) => {
  const page = await newPage(t);
  const read = (name) => fs.readFileSync(corpus(name)).toString('base64');
  const result = await page.evaluate(async ([a, b]) => {
    const bytes = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const got = await window.droidflame.compare(bytes(a), bytes(b), { normalize: true });
    let error = null;
    try {
      await window.droidflame.compare(bytes(a), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    } catch (e) {
      error = e.message;
    }
    const main = got.threads.find((x) => x.name === 'main');
    return {
      records: [got.before.records, got.after.records], clock: got.clock, warnings: got.warnings,
      main: [main.before_us, main.after_us, /scaled to the same total/.test(main.svg)],
      first: got.methods[0].name, methods: got.methods.length, error,
    };
  }, [read('ffprof-art-regular.trace'), read('ffprof-art-streaming.trace')]);
  assert.deepEqual(result.records, [13295, 39377]);
  assert.equal(result.clock, 'wall');
  // The second run is twice as long: the warning says what that does to the colours.
  assert.equal(result.warnings.length, 1);
  assert.match(result.warnings[0], /^after holds 115% more than before in all \(435,520,501 against 202,892,358 µs\): .*Same total/);
  assert.deepEqual(result.main, [6224530, 9431101, true]);
  assert.equal(result.first, 'java.lang.Thread.run', 'as droidflame diff --format methods lists it');
  assert.ok(result.methods > 4000);
  assert.match(result.error, /^not an Android trace at byte 0/);
});

test('from file:// CPU samples draw, their graph\'s script allowed by the page\'s policy', async (t) => {
  const page = await newPage(t);
  const blocked = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  assert.equal(await pick(page, corpus('simpleperf/aosp-simpleperf-display_bitmaps.proto_data')), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  assert.match(await shownSvg(page), /µs in all on the cpu clock/);
  // Functions are a kind of frame of their own: the tooltip's label is part of the script.
  assert.match(await shownSvg(page), /Function:/);
  assert.deepEqual(blocked, []);
});

// What a download from the page holds.
async function downloaded(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return Buffer.concat(await (await download.createReadStream()).toArray());
}

test('from file:// the call tree, a frame\'s menu, the timeline\'s call and a link work as hosted; the pprof export reads back as the view', async (t) => {
  const page = await newPage(t);
  assert.equal(await pick(page, corpus('tracereader-test1.trace')), 'done');
  await page.waitForFunction(() => document.body.dataset.graph === 'ready');
  // A frame's menu in the graph: Merge.
  const graph = page.frameLocator('#flame');
  const dispatch = graph.locator('#frames > g', { has: page.locator('title', { hasText: /^android\.os\.Handler\.dispatchMessage \(/ }) }).first();
  await dispatch.click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.locator('.frame-menu [role=menuitem]', { hasText: 'Merge android.os.Handler.dispatchMessage' }).click();
  await page.waitForFunction(() => document.body.dataset.graph === 'ready' && document.getElementById('view-crumbs').textContent.includes('Merge'));
  assert.doesNotMatch(await shownSvg(page), /<title>android\.os\.Handler\.dispatchMessage \(/);

  // The pprof export holds the view's stacks: the same as Save folded, on each clock.
  await page.click('#export-menu summary');
  const pprof = readPprof(await downloaded(page, () => page.locator('[data-export]', { hasText: 'pprof' }).click()));
  assert.deepEqual(pprof.types, ['wall/microseconds', 'cpu/microseconds']);
  const folded = (await downloaded(page, () => page.click('#save-folded'))).toString('utf8');
  const saved = new Map(folded.trim().split('\n').map((line) => {
    const at = line.lastIndexOf(' ');
    return [line.slice(0, at), Number(line.slice(at + 1))];
  }));
  const wall = new Map([...pprof.stacks].map(([stack, values]) => [stack, values[0]]).filter(([, v]) => v > 0));
  assert.ok(saved.size > 50, saved.size + ' stacks saved');
  assert.deepEqual(wall, saved, 'each stack with its wall µs');
  assert.ok(![...pprof.stacks.keys()].some((s) => s.includes('Handler.dispatchMessage')), 'merged away');

  // The call tree, bottom-up, and the sandwich from a row's menu.
  await page.click('#tab-button-tree');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready');
  await page.check('#tree-bottom-up');
  await page.waitForFunction(() => document.body.dataset.tree === 'ready' && /bottom-up \(times in µs\)$/.test(document.getElementById('tree-title').textContent));
  const row = page.locator('#tree-grid tbody tr[data-node]').nth(1);
  const leaf = await row.locator('td').first().getAttribute('title');
  await row.click({ button: 'right' });
  await page.waitForFunction(() => document.body.dataset.frameMenu === 'open');
  await page.locator('.frame-menu [role=menuitem]', { hasText: 'Show its callers and callees' }).click();
  await page.waitForFunction((n) => !document.getElementById('sandwich').hidden && document.getElementById('sandwich-name').textContent === n, leaf);

  // The timeline: a call clicked shows in detail; the address keeps it and the view.
  await page.check('#tree-top-down');
  await page.click('#tab-button-timeline');
  await page.waitForFunction(() => document.body.dataset.timeline === 'drawn');
  const point = await rowPoint(page, 0, 0.316);
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction(() => Boolean(document.body.dataset.timelineCall));
  const call = await page.evaluate(() => document.body.dataset.timelineCall);
  await page.waitForFunction(() => /call=.*view=|view=.*call=/.test(location.hash), null, { timeout: 5000 });
  await page.setViewportSize({ width: 760, height: 720 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  assert.equal(await pick(page, corpus('tracereader-test1.trace')), 'done');
  await page.waitForFunction((c) => document.body.dataset.timeline === 'drawn' && document.body.dataset.timelineCall === c, call, { timeout: 30000 });
  assert.match(await page.textContent('#view-crumbs'), /Merge android\.os\.Handler\.dispatchMessage/);
  await shot(page, 'single-file-timeline-call-dark');
});
