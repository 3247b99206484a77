// Jank work as a person does it: a Pixel 7 Pro capture's app frames (the compositor's frame
// timeline) in the Frames tab and on the timeline, the worst frame chosen and its flame
// graph shown; a device capture's thread states under its slices, with their hover, in a
// call's details and among the slowest calls; and the Scheduling table following a range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkedPage, corpus, hoverAt, pick, shot, shownSvg, timelineSettled, useBrowser } from './support.mjs';

const context = useBrowser();
const PIXEL = 'perfetto/nowinandroid-fork-trace.perfetto-trace';
const DEVICE = 'perfetto/toolsbase-perflib-perfetto.trace';

const layoutOf = (page) => page.evaluate(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout));

test('the worst janky frame, chosen in the Frames tab, gives that frame\'s flame graph', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(PIXEL)]), 'done');
  await page.click('#tab-button-frames');
  await page.waitForFunction(() => document.body.dataset.frames === 'shown');
  // The main activity's layer first: 739 frames (SOURCES.md), 61 of them janky.
  const top = page.locator('#frame-layer-rows tr').first();
  assert.match(await top.textContent(), /MainActivity#50010.*739 \(1 never ended\)61 \(8\.3%\)/);
  // Janky frames first, the most late first: the first row is the one 108 ms late (the trace's
  // frame timeline begins 1.52 s before its ftrace, so it starts at 1.83 s).
  const first = page.locator('#frame-rows tr[data-frame]').first();
  assert.match(await first.textContent(), /^App Deadline Missed, Buffer StuffingMainActivity#500101\.83 s45\.3 ms16\.6 ms108 msLate Present154408141$/);
  await shot(page, 'jank-frames');
  await first.click();
  await page.waitForFunction(() => !document.getElementById('frame-chosen').hidden);
  const range = (await page.locator('#range-text').textContent()).match(/cover ([\d.]+)–([\d.]+) s of/);
  assert.ok(range, 'the range bar names the frame\'s time');
  const [from, to] = [Number(range[1]) * 1e6, Number(range[2]) * 1e6];
  assert.ok(Math.abs(to - from - 45_280) < 1500, 'the range is the frame: ' + range[0]);
  // Its flame graph: the app's main thread in that frame's time, no more than the frame.
  await page.click('[data-frame-go=flame]');
  await page.waitForFunction((text) => document.getElementById('graph-title').textContent.includes(text), range[1] + '–' + range[2] + ' s');
  await page.waitForFunction(() => /Compose:recompose/.test(document.getElementById('flame').srcdoc));
  const svg = await shownSvg(page);
  assert.match(svg, /Thread 9305 \[9305\]/);
  const total = Number(svg.match(/([\d,]+) µs in all/)[1].replace(/,/g, ''));
  assert.ok(total > 0 && total <= 45_280, 'the graph covers the frame alone: ' + total);
  await shot(page, 'jank-frame-flame');
  // The timeline opens around it, with the app's frame lanes; a frame's hover says what it was.
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  const layout = await layoutOf(page);
  assert.equal(layout.frames.layers.length, 2, 'two lanes: the app\'s own layer and the display\'s frames');
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  const view = await page.evaluate(() => [Number(document.getElementById('timeline-canvas').dataset.from), Number(document.getElementById('timeline-canvas').dataset.to)]);
  const xOf = (us) => canvas.x + ((us - view[0]) / (view[1] - view[0])) * canvas.width;
  await hoverAt(page, xOf((from + to) / 2), canvas.y + layout.frames.top + 7);
  assert.match(await page.locator('#timeline-tip').textContent(), /Frame 154408141 · 45\.3 ms.*108 ms late.*App Deadline Missed, Buffer Stuffing.*presented by display frame \d+click/);
  await shot(page, 'jank-frame-timeline');
});

test('a frame clicked on the timeline selects its time; dark and narrow', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  assert.equal(await pick(page, [corpus(PIXEL)]), 'done');
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  const layout = await layoutOf(page);
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  // Along the app's lane until a frame is under the pointer.
  let x = canvas.x + canvas.width * 0.3;
  let tip = '';
  for (; x < canvas.x + canvas.width; x += 3) {
    await hoverAt(page, x, canvas.y + layout.frames.top + 7);
    tip = await page.locator('#timeline-tip').textContent();
    if (/^Frame /.test(tip)) break;
  }
  assert.match(tip, /^Frame \d+ · /);
  await page.mouse.click(x, canvas.y + layout.frames.top + 7);
  await page.waitForFunction(() => !document.getElementById('range-bar').hidden);
  assert.match(await page.locator('#range-text').textContent(), /Graphs and tables cover/);
  await shot(page, 'jank-timeline-dark-narrow');
});

test('thread states run under a thread\'s slices, with their hover, and in a call\'s details', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(DEVICE)]), 'done');
  await page.fill('#thread-filter', 'RenderThread');
  await page.click('#thread-rows tr[data-thread]:has-text("2453")');
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  assert.match(await page.locator('#timeline-legend').textContent(), /Running.*Runnable.*Runnable \(preempted\).*Sleeping.*Uninterruptible sleep/);
  const layout = await layoutOf(page);
  assert.equal(layout.strips.length, 1);
  const strip = layout.strips[0];
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  // Along the strip: sleeping most of the time, running on a CPU now and then.
  const seen = new Set();
  let running = '';
  for (let x = canvas.x + canvas.width * 0.15; x < canvas.x + canvas.width && !(running && seen.has('Sleeping')); x += 4) {
    await hoverAt(page, x, canvas.y + strip.top + strip.height / 2);
    const text = await page.locator('#timeline-tip').textContent();
    seen.add(text.split(' for ')[0]);
    if (/^Running/.test(text) && !running) running = text;
  }
  assert.ok(seen.has('Sleeping'), [...seen].join(', '));
  assert.match(running, /^Running for .*on CPU \d/);
  await shot(page, 'jank-states-hover');
  // A DrawFrame's details: the time its thread spent in each state.
  await page.click('#tab-button-methods');
  await page.fill('#method-filter', 'DrawFrame');
  await page.click('#method-rows tr[data-method]:has-text("DrawFrame")');
  await page.waitForFunction(() => document.body.dataset.methodDetail === 'shown');
  assert.equal(await page.locator('#slowest-states-heading').isVisible(), true);
  const slowest = page.locator('#slowest tr[data-call]').first();
  assert.match(await slowest.textContent(), /Running [\d.]+ (ms|µs)/);
  await shot(page, 'jank-slowest-states');
  await slowest.click();
  await timelineSettled(page);
  await page.waitForFunction(() => !document.getElementById('timeline-call').hidden);
  assert.match(await page.locator('#timeline-call .call-states').textContent(), /^Its thread was: Running /);
  await shot(page, 'jank-call-states');
});

test('without a frame timeline, frames come from doFrame slices and say so', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(DEVICE)]), 'done');
  assert.match(await page.locator('#notes-list').textContent(), /the trace has no frame timeline: 71 app frames were derived .* measured from the compositor's VSYNC-app counter/i);
  await page.click('#tab-button-frames');
  await page.waitForFunction(() => document.body.dataset.frames === 'shown');
  assert.match(await page.locator('#frame-layer-rows').textContent(), /com\.android\.systemui \(derived from Choreographer#doFrame and RenderThread DrawFrame\)/);
  // The worst first: janky past one refresh (16.4 ms, this device's).
  assert.match(await page.locator('#frame-rows tr[data-frame]').first().textContent(), /^Deadline Missed/);
  await shot(page, 'jank-derived-frames');
});

test('all threads: a lane per CPU shows which thread ran, processes group their threads and counters', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 1000 }, colorScheme: 'dark' });
  assert.equal(await pick(page, [corpus(DEVICE)]), 'done');
  await page.click('#thread-rows tr[data-thread]:has-text("All threads")');
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  let layout = await layoutOf(page);
  assert.equal(layout.system.cpus.length, 8, 'SOURCES.md: CPUs 0-7');
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  // Along CPU 4's lane until a thread is under the pointer.
  let tip = '';
  for (let x = canvas.x + canvas.width * 0.2; x < canvas.x + canvas.width && !/ on CPU 4/.test(tip); x += 5) {
    await hoverAt(page, x, canvas.y + layout.system.cpus[4] + 5);
    tip = await page.locator('#timeline-tip').textContent();
  }
  assert.match(tip, /\[\d+\] on CPU 4for [\d.]+ (ms|µs), from /);
  // 175 threads: each process a closed group, its name and thread count on its heading.
  const groups = layout.tracks.filter((track) => track.kind === 'group');
  assert.ok(groups.length > 10, groups.length + ' groups in view');
  const systemui = groups.find((g) => g.key === 'g:2211');
  assert.ok(systemui, 'systemui (pid 2211) has a group');
  await hoverAt(page, canvas.x + 60, canvas.y + systemui.top + 8);
  assert.match(await page.locator('#timeline-tip').textContent(), /com\.android\.systemui \(pid 2211\).*click: open this group/);
  // Opened, its threads follow its heading, the RenderThread among them with its states.
  await page.mouse.click(canvas.x + 60, canvas.y + systemui.top + 8);
  await page.waitForFunction(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).tracks.some((t) => t.key === 't:2453'));
  await timelineSettled(page);
  layout = await layoutOf(page);
  const render = layout.tracks.find((track) => track.key === 't:2453');
  assert.ok(render.top > systemui.top);
  assert.ok(layout.strips.some((s) => s.tid === 2453), 'its states are drawn');
  await shot(page, 'jank-groups-dark');
  // A click on its name pins it to the top, above the CPUs (the legend above the pane has
  // grown by the states' colours: the canvas is measured again).
  const moved = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.click(moved.x + 30, moved.y + render.top + 7);
  await page.waitForFunction(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).tracks[0].key === 't:2453');
  // Counters of no process (CPU frequency) come last, scaled to their own range.
  await page.evaluate(() => { const pane = document.querySelector('.timeline-scroll'); pane.scrollTop = pane.scrollHeight; });
  await page.waitForFunction(() => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).system.counters.some((c) => c.name === 'CPU 0 frequency'));
  await timelineSettled(page);
  layout = await layoutOf(page);
  const frequency = layout.system.counters.find((c) => c.name === 'CPU 0 frequency');
  await hoverAt(page, moved.x + moved.width * 0.9, moved.y + frequency.top + 16);
  assert.match(await page.locator('#timeline-tip').textContent(), /^CPU 0 frequency: [\d,]+ kHzsince /);
  await shot(page, 'jank-cpu-counters-dark');
});

test('the Scheduling table follows the selected range', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(DEVICE)]), 'done');
  await page.click('#tab-button-scheduling');
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown');
  // By the name cell: other rows name it as their waker.
  const rowOf = () => page.locator('#sched-rows tr[data-thread]:has(td.name:text-is("RenderThread [2453]"))');
  const whole = await rowOf().textContent();
  // A range of the first half of the trace, dragged on the timeline.
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.move(canvas.x + 2, canvas.y + 60);
  await page.mouse.down();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.getElementById('range-bar').hidden);
  await page.click('#tab-button-scheduling');
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown' && / in /.test(document.getElementById('sched-scope').textContent));
  const part = await rowOf().textContent();
  assert.notEqual(part, whole);
  // Running time in the range is less than in the whole trace.
  const running = (text) => Number(text.match(/2453\]?.*?([\d.]+) ms/)[1]);
  assert.ok(running(part) < running(whole), part + ' against ' + whole);
  await shot(page, 'jank-scheduling-range');
  // Clearing the range shows the whole trace's again.
  await page.click('#range-clear');
  await page.waitForFunction(() => document.getElementById('sched-scope').textContent === '');
  assert.equal(await rowOf().textContent(), whole);
});

const ANDROID12 = 'perfetto/mstools-perfetto_android12_cpuschedstack.pftrace';

test('the longest frame opens with its app\'s main thread, RenderThreads and the CPUs, and a link reopens it', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 1000 } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  assert.equal(await pick(page, [corpus(ANDROID12)]), 'done');
  await page.click('#tab-button-frames');
  await page.waitForFunction(() => document.body.dataset.frames === 'shown');
  // The launcher's frame 12127, 365.8 ms: the capture's longest that ended.
  await page.locator('#frame-rows tr[data-frame]', { hasText: '12127' }).first().click();
  await page.waitForFunction(() => !document.getElementById('frame-chosen').hidden);
  await page.click('[data-frame-go=timeline]');
  await timelineSettled(page);
  const layout = await layoutOf(page);
  // The launcher (pid 1323): its main thread chosen, its two RenderThreads pinned (9664's
  // process is known from its samples alone), then the four CPUs, all in one screen.
  assert.deepEqual(layout.tracks.map((track) => track.key), ['t:1323', 't:2328', 't:9664', 'cpus']);
  assert.equal(layout.system.cpus.length, 4);
  const bottom = layout.tracks[3].top + layout.tracks[3].height;
  assert.ok(bottom <= (await page.locator('#timeline-canvas').boundingBox()).height, 'the CPUs show without scrolling');
  // Each thread's states run along its calls, right above them.
  for (const tid of [1323, 2328]) {
    const strip = layout.strips.find((s) => s.tid === tid);
    const lane = layout.lanes.find((l) => l.tid === tid);
    assert.ok(strip && lane && strip.top + strip.height < lane.top && lane.top - strip.top < 12, 'tid ' + tid);
  }
  // The window holds the frame, 33.93-34.30 s.
  const view = await page.evaluate(() => [Number(document.getElementById('timeline-canvas').dataset.from), Number(document.getElementById('timeline-canvas').dataset.to)]);
  assert.ok(view[0] < 33_934_000 && view[1] > 34_299_000 && view[1] - view[0] < 600_000, view.join('-'));
  await shot(page, 'jank-longest-frame');
  // A click on the chosen thread's name shows all its depths.
  const box = await page.locator('#timeline-canvas').boundingBox();
  await page.mouse.click(box.x + 30, box.y + layout.tracks[0].top + 7);
  await page.waitForFunction(() => /deep=on/.test(location.hash));
  await timelineSettled(page);
  const deep = await layoutOf(page);
  assert.ok(deep.tracks[0].height > layout.tracks[0].height, 'its track grew: ' + deep.tracks[0].height + ' px');
  // Its link, opened with the same file, shows the same tracks over the same window, the
  // deep view and the frame chosen.
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-link-status').textContent === 'Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /[#&]window=[\d.]+-[\d.]+&pins=2328\.9664&deep=on&frame=\d+/);
  const again = await checkedPage(context, t, { viewport: { width: 1280, height: 1000 } });
  await again.goto(link);
  await again.waitForFunction(() => document.body.dataset.engine === 'ready');
  assert.equal(await pick(again, [corpus(ANDROID12)]), 'done');
  await timelineSettled(again);
  const reopened = await layoutOf(again);
  const shape = (l) => l.tracks.map((track) => track.key + ' ' + track.height);
  assert.deepEqual(shape(reopened), shape(deep));
  assert.equal(await again.textContent('#timeline-span'), await page.textContent('#timeline-span'));
  await again.click('#tab-button-frames');
  await again.waitForFunction(() => /12127/.test(document.getElementById('frame-chosen-text').textContent));
});

test('CPU samples are ticks over their thread\'s states: each taken while it ran', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(ANDROID12)]), 'done');
  await page.click('#tab-button-timeline');
  await timelineSettled(page);
  // The busiest sampled thread, bluetooth@1.1-s [1451] (871 samples), zoomed around one
  // of its ticks until a pixel holds some 20 µs.
  const canvas = await page.locator('#timeline-canvas').boundingBox();
  const layout = await layoutOf(page);
  const marks = layout.marks.find((m) => m.tid === 1451);
  const strip = layout.strips.find((s) => s.tid === 1451);
  assert.ok(marks && strip && marks.top + marks.height <= strip.top, 'the ticks sit right above the states');
  // Columns with a tick, read from the canvas, and the state colours under each and the
  // column before it.
  const columns = () => page.evaluate(({ marks, strip }) => {
    const c = document.getElementById('timeline-canvas');
    const ratio = c.width / c.getBoundingClientRect().width;
    const ctx = c.getContext('2d');
    const row = (y) => ctx.getImageData(0, Math.round(y * ratio), c.width, 1).data;
    const ticks = row(marks.top + 1);
    const states = row(strip.top + strip.height / 2);
    const found = [];
    for (let x = 1; x < c.width; x++) {
      if (ticks[x * 4] < 90 && ticks[x * 4 + 1] < 90) found.push([x / ratio, [x - 1, x].map((at) => Array.from(states.slice(at * 4, at * 4 + 3)))]);
    }
    return found;
  }, { marks, strip });
  const span = () => page.evaluate(() => Number(document.getElementById('timeline-canvas').dataset.to) - Number(document.getElementById('timeline-canvas').dataset.from));
  let ticks = await columns();
  assert.ok(ticks.length > 50, ticks.length + ' ticks drawn over the whole capture');
  while (await span() / canvas.width > 20) {
    const [x] = ticks[Math.floor(ticks.length / 2)];
    await page.mouse.move(canvas.x + x, canvas.y + strip.top);
    const before = await span();
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    await page.waitForFunction((was) => Number(document.getElementById('timeline-canvas').dataset.to) - Number(document.getElementById('timeline-canvas').dataset.from) < was, before);
    await timelineSettled(page);
    ticks = await columns();
    assert.ok(ticks.length > 0, 'a tick stays in view');
  }
  // Running is #2e7d32 (light). A sample is taken as its thread leaves its CPU: the run
  // fills the tick's pixel or the one before it.
  const running = ([r, g, b]) => Math.abs(r - 0x2e) < 8 && Math.abs(g - 0x7d) < 8 && Math.abs(b - 0x32) < 8;
  for (const [x, under] of ticks) assert.ok(under.some(running), 'the tick at ' + x + ' px is over Running: ' + JSON.stringify(under));
  // A tick's tooltip counts its samples by their thread's state: Running, every one.
  const [x] = ticks[0];
  const now = await page.locator('#timeline-canvas').boundingBox();
  const band = (await layoutOf(page)).marks.find((m) => m.tid === 1451);
  await hoverAt(page, now.x + x, now.y + band.top + 2);
  const tip = await page.textContent('#timeline-tip');
  const counted = tip.match(/^(\d+) CPU samples? of bluetooth@1\.1-s \[1451\].*taken while Running (\d+)click: the nearest sample's stack$/);
  assert.ok(counted, tip);
  assert.equal(counted[2], counted[1]);
  await shot(page, 'jank-samples-over-states');
  // A click on it: the nearest sample's stack, innermost first.
  await page.mouse.click(now.x + x, now.y + band.top + 2);
  await page.waitForFunction(() => document.body.dataset.timelineSample);
  assert.match(await page.textContent('#timeline-call h3'), /^CPU sample of bluetooth@1\.1-s \[1451\] at [\d.]+ s/);
  // SOURCES.md: every sample is taken at sched_switch, in the kernel; its leaf is always
  // `__traceiter_sched_switch`.
  const stack = await page.locator('#timeline-call .sample-stack li').allTextContents();
  assert.ok(stack.length > 3, stack.join(' < '));
  assert.equal(stack[0], '__traceiter_sched_switch (kernel)');
  assert.ok(stack.includes('__schedule (kernel)'), stack.join(' < '));
});

test('a Scheduling row of a thread the stacks shown lack pins it in the timeline', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [corpus(ANDROID12)]), 'done');
  assert.equal(await page.inputValue('#source'), 'cpu-samples', 'CPU samples are shown: threads that were never sampled are not among them');
  await page.click('#tab-button-scheduling');
  await page.waitForFunction(() => document.body.dataset.scheduling === 'shown');
  const row = page.locator('#sched-rows tr[data-tid]').first();
  const tid = Number(await row.getAttribute('data-tid'));
  assert.match(await row.locator('td.name').textContent(), new RegExp('\\[' + tid + '\\]$'));
  await row.click();
  await page.waitForFunction(() => document.getElementById('tab-button-timeline').getAttribute('aria-selected') === 'true');
  await timelineSettled(page);
  await page.waitForFunction((key) => JSON.parse(document.getElementById('timeline-canvas').dataset.layout).tracks.some((track) => track.key === key), 't:' + tid);
  // The link keeps it.
  await page.waitForFunction((tid) => new URLSearchParams(location.hash.slice(1)).get('pins')?.split('.').includes(String(tid)), tid);
});
