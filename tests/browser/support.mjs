// Shared helpers of the browser tests: Debian's Chromium through playwright-core, a local
// static server that serves dist/ from a sub-path and records every request, and ways to
// hand the page a trace (file picker, a synthetic drop).
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const dist = path.join(root, 'dist');
export const corpusDir = process.env.DROIDFLAME_TRACES || path.resolve(root, '../shared/traces');
export const screenshots = path.join(here, 'screenshots');

export function corpus(name) {
  return path.join(corpusDir, name);
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.ts': 'text/plain; charset=utf-8',
};

// One browser (and, unless `server` is false, one local server) for a test file: started
// before its tests, closed after them. Read `.browser` and `.server` inside tests.
export function useBrowser({ server = true } = {}) {
  const context = {};
  before(async () => {
    context.browser = await launch();
    if (server) context.server = await serve();
  });
  after(async () => {
    await context.browser.close();
    if (context.server) await context.server.close();
  });
  return context;
}

// Serves dist/ under `prefix` on 127.0.0.1, like a GitHub Pages project site.
export async function serve(prefix = '/droidflame/nested/') {
  const requests = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url);
    const url = new URL(request.url, 'http://localhost');
    if (!url.pathname.startsWith(prefix)) {
      response.writeHead(404).end('not under ' + prefix);
      return;
    }
    let file = path.join(dist, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(dist)) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (error, body) => {
      if (error) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      response.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = 'http://127.0.0.1:' + server.address().port;
  return {
    origin,
    url: origin + prefix,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// Every request a page makes, to prove none leaves the page's own origin.
export function watchRequests(page) {
  const urls = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

export function foreignRequests(urls, origin) {
  return urls.filter((url) => !(
    (origin && url.startsWith(origin + '/')) || url.startsWith('file:') || url.startsWith('blob:') ||
    url.startsWith('data:') || url.startsWith('about:')));
}

export async function waitForResult(page, timeout = 60000) {
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout });
  return page.evaluate(() => document.body.dataset.state);
}

export async function pick(page, files) {
  await page.setInputFiles('#picker', files);
  return waitForResult(page);
}

// A real drop: a `drop` event whose DataTransfer holds File objects.
export async function drop(page, files) {
  const payload = files.map((file) => ({ name: path.basename(file), base64: fs.readFileSync(file).toString('base64') }));
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const binary = atob(item.base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      transfer.items.add(new File([bytes], item.name));
    }
    document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }));
    document.body.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, payload);
  return waitForResult(page);
}

export async function shot(page, name) {
  fs.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, name + '.png') });
}

export function tempFile(name, bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'droidflame-browser-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

// Rests the pointer at (x, y) and waits for the timeline's answer there: its tooltip shown
// or hidden (the page counts answers in `body[data-timeline-hovered]`).
export async function hoverAt(page, x, y) {
  const before = await page.evaluate(() => Number(document.body.dataset.timelineHovered || 0));
  await page.mouse.move(x, y);
  await page.waitForFunction((n) => Number(document.body.dataset.timelineHovered || 0) > n, before);
}

// The page point of the timeline's row `depth` in lane `lane` (the chosen thread's is the
// first) at `share` of its width, from the canvas's layout.
export async function rowPoint(page, depth, share = 0.5, lane = 0) {
  const box = await page.locator('#timeline-canvas').boundingBox();
  const found = await page.evaluate((i) => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).lanes[i], lane);
  return { x: box.x + box.width * share, y: box.y + found.top + depth * found.row + found.row / 2 };
}

// Waits until the timeline has drawn the window on show with its own boxes and reads
// nothing again from the file.
export function timelineSettled(page, timeout = 30000) {
  return page.waitForFunction(() => document.body.dataset.timeline === 'drawn' &&
    document.body.dataset.timelineDetail !== 'reading', null, { timeout });
}

// Waits until nothing moves: the boxes of the elements `selectors` name are the same over
// two animation frames (before a screenshot).
export function layoutSettled(page, selectors, timeout = 10000) {
  return page.waitForFunction(async (list) => {
    const boxes = () => JSON.stringify(list.map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [r.x, r.y, r.width, r.height];
    }));
    const first = boxes();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return boxes() === first;
  }, selectors, { timeout });
}

// The SVG currently shown in the flame-graph iframe.
export async function shownSvg(page) {
  return page.evaluate(() => document.getElementById('flame').srcdoc);
}

// A regular, dual-clock method trace written here, byte for byte as ART writes them, with
// whatever thread and method names a test needs.
export function writeTrace({ threads, methods, records }) {
  let key = '*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=100\n' +
    'num-method-calls=' + records.length + '\nvm=art\n*threads\n';
  for (const [tid, name] of threads) key += tid + '\t' + name + '\n';
  key += '*methods\n';
  for (const [id, cls, name, sig, source] of methods) key += '0x' + id.toString(16) + '\t' + cls + '\t' + name + '\t' + sig + '\t' + source + '\n';
  key += '*end\n';
  const head = Buffer.alloc(32);
  head.write('SLOW', 0, 'latin1');
  head.writeUInt16LE(3, 4);
  head.writeUInt16LE(32, 6);
  head.writeUInt16LE(14, 16);
  const body = Buffer.alloc(records.length * 14);
  records.forEach(([tid, method, action, time], i) => {
    body.writeUInt16LE(tid, i * 14);
    body.writeUInt32LE(method | action, i * 14 + 2);
    body.writeUInt32LE(time, i * 14 + 6);
    body.writeUInt32LE(time, i * 14 + 10);
  });
  return Buffer.concat([Buffer.from(key, 'utf8'), head, body]);
}

// Starts watching a page for the benchmarks: its longest main-thread task and its peak JS
// heap, read back as `window.benchLongest` and `window.benchPeakHeap`.
// A page of the hosted build once its engine has started, as it has by the time a person
// has chosen a file (the benchmarks time from the choice).
export async function startedPage(browser, server) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.engine === 'ready', null, { timeout: 60000 });
  return page;
}

export async function watchMainThread(page) {
  await page.evaluate(() => {
    window.benchLongest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.benchLongest = Math.max(window.benchLongest, entry.duration);
    }).observe({ type: 'longtask', buffered: false });
    window.benchPeakHeap = 0;
    setInterval(() => {
      window.benchPeakHeap = Math.max(window.benchPeakHeap, performance.memory ? performance.memory.usedJSHeapSize : 0);
    }, 50);
  });
}

// A page of the hosted build for one test (`query`: added to its address). When the test
// ends it checks that no request left the page's origin and no script error happened in
// it, then closes the page.
export async function checkedPage(context, t, { query = '', ...options } = {}) {
  const page = await context.browser.newPage(Object.assign({ viewport: { width: 1280, height: 720 } }, options));
  const requests = watchRequests(page);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The browser reports what the page got wrong, such as an SVG attribute of a negative
  // width, as console errors without throwing: they count as failures too.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  t.after(async () => {
    assert.deepEqual(foreignRequests(requests, context.server.origin), [], 'no request leaves the page');
    assert.deepEqual(errors, [], 'no script error or console error in the page');
    await page.close();
  });
  await page.goto(context.server.url + query);
  return page;
}

// The graph on show is drawn where a person sees it: its widest frame has a box (a frame
// document the browser never laid out, or one inferno sized to nothing, has none).
export async function assertGraphDrawn(page, frame = '#flame') {
  const graph = page.frameLocator(frame);
  const widest = await graph.locator('#frames').evaluate((frames) => {
    let best = 0;
    let most = -1;
    Array.from(frames.children).forEach((g, i) => {
      const width = Number(g.querySelector('rect').getAttribute('fg:w'));
      if (width > most) [best, most] = [i, width];
    });
    return best;
  });
  assert.ok(Number(await graph.locator('#frames').getAttribute('width')) > 0, 'the graph has a width');
  const box = await graph.locator('#frames > g').nth(widest).boundingBox({ timeout: 5000 });
  assert.ok(box && box.width > 100 && box.height > 0, 'the widest frame is drawn: ' + JSON.stringify(box));
}
