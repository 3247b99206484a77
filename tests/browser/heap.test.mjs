// Heap dumps opened as an Android engineer would: the overview with the leak LeakCanary
// watched and its path, the classes by retained bytes (by heap, by package, filtered), a
// class's instances, an object in full with links through its path, the dominator flame
// graph, a link that opens the same choices again; light and dark, wide and 760 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { corpus, pick, shot, tempFile, useBrowser, checkedPage } from './support.mjs';
import { javaHeapGraph } from './heap-trace.mjs';

const context = useBrowser();
const DUMP = corpus('hprof/leakcanary-leak_service_binder.hprof');

test('a heap dump opens on its overview: totals by heap, roots, and the watched service with its path', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  assert.equal(await pick(page, [DUMP]), 'done');
  assert.equal(await page.locator('#tab-button-heap').getAttribute('aria-selected'), 'true');
  assert.match(await page.locator('#heap-totals').textContent(), /^44,065 reachable objects, 2\.5 MiB · zygote 2\.3 MiB \(93\.8%\), app 158 KiB \(6\.2%\) · 347 unreachable/);
  assert.match(await page.locator('#heap-roots').textContent(), /interned-string 7,388 · sticky-class 3,645/);
  await page.waitForFunction(() => /1 leak, held through 1 path/.test(document.getElementById('heap-leaks-note').textContent));
  const leak = page.locator('#heap-leaks tr').first();
  assert.match(await leak.textContent(), /com\.example\.leakcanary\.LeakyService\s*0xb0fa7cb0378 byteswatchedcom\.example\.leakcanary\.LeakyService\$MyBinder\.service/);
  // The classes, largest retained first.
  await page.waitForFunction(() => document.querySelectorAll('#heap-class-rows tr').length > 100);
  // java.lang.Class: 3,645 objects, 642 KiB, retaining 1.9 MiB (ahat's class table).
  assert.match(await page.locator('#heap-class-rows tr').first().textContent(), /^java\.lang\.Class3,645642 KiB1\.9 MiB/);
  // Copies: `droidflame heap duplicates`' first row, 50 strings "Cipher" wasting 1,752 bytes.
  await page.waitForFunction(() => /groups of copies/.test(document.getElementById('heap-copies-note').textContent));
  assert.match(await page.locator('#heap-copies tr').first().textContent(), /^java\.lang\.String\s*Cipher\s*50\s*36 bytes\s*1\.7 KiB\s*java\.lang\.String 0xb0e37890$/);
  await shot(page, 'heap-overview');
  // The leak's object in full: its path from the JNI global, what references it.
  await leak.locator('button').click();
  await page.waitForFunction(() => /Shortest path from a GC root/.test(document.getElementById('heap-object-body').textContent));
  const path = await page.locator('.heap-path li').allTextContents();
  assert.deepEqual(path, ['root:jni-global com.example.leakcanary.LeakyService$MyBinder 0xb0fa7de0', '.service com.example.leakcanary.LeakyService 0xb0fa7cb0']);
  assert.match(await page.locator('#heap-object-body').textContent(), /Referenced by \(|Referenced by/);
  // Its fields with their values: the service's own first, then its superclasses'.
  assert.match(await page.locator('.heap-fields').textContent(), /Object\s*mBase/);
  // Following the path opens the binder; the link keeps it.
  await page.locator('.heap-path li').first().locator('button').click();
  await page.waitForFunction(() => /MyBinder/.test(document.getElementById('heap-object-title').textContent));
  await page.waitForFunction(() => /object=0xb0fa7de0/.test(window.location.hash));
  await shot(page, 'heap-object');
  // Back returns to the object before, as following a link does.
  await page.goBack();
  await page.waitForFunction(() => /0xb0fa7cb0/.test(document.getElementById('heap-object-title').textContent));
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', 'the dump stays open');
});

test('classes by heap and package, a class\'s instances, the dominator graph, in dark at 760 px', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 760, height: 900 }, colorScheme: 'dark' });
  assert.equal(await pick(page, [DUMP]), 'done');
  await page.waitForFunction(() => document.querySelectorAll('#heap-class-rows tr').length > 100);
  await page.selectOption('#heap-heap', 'app');
  await page.waitForFunction(() => /com\.example/.test(document.getElementById('heap-class-rows').textContent)
    && document.querySelectorAll('#heap-class-rows tr').length < 400);
  await page.fill('#heap-class-filter', 'LeakyService');
  await page.waitForFunction(() => document.querySelectorAll('#heap-class-rows tr').length === 2);
  await page.locator('#heap-class-rows tr', { hasText: /^com\.example\.leakcanary\.LeakyService\d/ }).click();
  await page.waitForFunction(() => /Instances of com\.example\.leakcanary\.LeakyService$/.test(document.getElementById('heap-instance-title').textContent)
    && document.querySelectorAll('#heap-instance-rows tr').length === 3);
  // Three services (the CLI's class table says so), the watched one among them.
  assert.match(await page.locator('#heap-instance-rows').textContent(), /0xb0fa7cb0app/);
  const [first, second] = (await page.locator('#heap-instance-rows tr').allTextContents()).map((t) => t.slice(0, 10));
  await page.locator('#heap-instance-rows tr').first().click();
  await page.waitForFunction((id) => document.getElementById('heap-object-title').textContent.includes(id), first);
  // The keyboard moves down the list; Enter opens the next one.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => document.getElementById('heap-object-title').textContent.includes(id), second);
  await shot(page, 'heap-classes-dark-narrow');
  // By package: com.example.leakcanary among them.
  await page.fill('#heap-class-filter', '');
  await page.check('#heap-by-package');
  await page.waitForFunction(() => /^com\.example\.leakcanary/m.test(Array.from(document.querySelectorAll('#heap-class-rows td:first-child')).map((td) => td.textContent).join('\n')));
  assert.equal(await page.locator('#heap-instances').isVisible(), false);
  // The dominator tree as a flame graph, of the app's own heap (where the dump opens, though
  // the zygote's is larger): its classes under the heap's name.
  await page.click('#tab-button-flame');
  await page.waitForFunction(() => /com\.example\.leakcanary\.LeakyService/.test(document.getElementById('flame').srcdoc));
  assert.equal(await page.locator('#thread-rows tr[aria-selected="true"] td.name').textContent(), 'app');
  await shot(page, 'heap-dominators-dark-narrow');
});

test('two dumps dropped together: the Heap view lists the classes that changed most, as heap diff does', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  await pick(page, [DUMP, corpus('hprof/leakcanary-leak_service_binder_ignored.hprof')]);
  await page.waitForFunction(() => document.body.dataset.state === 'done' && !document.getElementById('tab-button-compare').hidden);
  await page.click('#tab-button-heap');
  await page.waitForFunction(() => document.querySelectorAll('#heap-change-rows tr').length > 10, null, { timeout: 30000 });
  // `droidflame heap diff`'s first row: java.lang.Object[] 215 -> 207 objects, 80,629 -> 70,867 bytes retained.
  const first = await page.locator('#heap-change-rows tr').first().locator('td').allTextContents();
  assert.deepEqual(first, ['java.lang.Object[]', '215 → 207', '−8', '79 KiB → 69 KiB', '−9.5 KiB']);
  await shot(page, 'heap-changes');
});

test('a series of Perfetto heap graphs: the class and path that grow at every step, as heap series finds them', async (t) => {
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 } });
  // Dumps after repetitions 1, 2 and 3: one more Leak each time; Other goes up and down.
  const dumps = [[1, 2], [2, 1], [3, 3]].map(([leaks, others], i) =>
    tempFile('after-' + (i + 1) + '.perfetto-trace', javaHeapGraph({ leaks, others })));
  assert.equal(await pick(page, [dumps[0]]), 'done');
  assert.match(await page.locator('#heap-totals').textContent(), /^5 reachable objects/);
  // A heap graph records no field values: the leaks note says what it cannot tell.
  await page.waitForFunction(() => /Destroyed activities cannot be told/.test(document.getElementById('heap-leaks-note').textContent));
  assert.equal(await page.locator('#thread-rows tr').first().locator('td:visible').count(), 3, 'a heap has no tid and no CPU time');
  // Chosen out of order: the series takes them by name.
  await page.setInputFiles('#heap-series-picker', [dumps[2], dumps[1]]);
  await page.waitForFunction(() => /^Dumps in order/.test(document.getElementById('heap-series-note').textContent));
  assert.equal(await page.locator('#heap-series-note').textContent(),
    'Dumps in order: after-1.perfetto-trace, after-2.perfetto-trace, after-3.perfetto-trace. 1 class grows and 1 path grows at every step.');
  const root = new URL('../..', import.meta.url).pathname;
  const cli = execFileSync('cargo', ['run', '-q', '-p', 'droidflame-cli', '--', 'heap', 'series', ...dumps], { cwd: root, encoding: 'utf8' });
  // `class count_1 count_2 count_3 bytes_1 bytes_2 bytes_3 objects_per_step bytes_per_step`
  const [name, ...values] = cli.trim().split('\n')[1].split('\t');
  assert.equal(name, 'com.example.Leak');
  const cells = await page.locator('#heap-series-classes tr').first().locator('td').allTextContents();
  assert.deepEqual(cells, [name, values.slice(0, 3).join(' → '), '+' + Math.round(Number(values[6])), '+' + values[7] + ' bytes']);
  assert.match(await page.locator('#heap-series-paths').textContent(), /^app › java\.lang\.Class<com\.example\.Holder> › java\.lang\.Object\[\] › com\.example\.Leak1 → 2 → 3\+1\+24 bytes$/);
  await shot(page, 'heap-series');
});

test('a link to a class and an object names its file, opens them again, and Back steps out; the keyboard stays where it was', async (t) => {
  const link = '#file=leakcanary-leak_service_binder.hprof&tab=heap&class=com.example.leakcanary.LeakyService&object=0xb0fa7cb0';
  const page = await checkedPage(context, t, { viewport: { width: 1280, height: 900 }, query: link });
  assert.equal(await page.locator('#link-welcome').textContent(),
    'This link shows a view of "leakcanary-leak_service_binder.hprof". Open that file to see it: the link holds the view, never the trace.');
  assert.equal(await pick(page, [DUMP]), 'done');
  await page.waitForFunction(() => /0xb0fa7cb0/.test(document.getElementById('heap-object-title').textContent)
    && document.querySelectorAll('#heap-instance-rows tr').length === 3);
  assert.equal(await page.locator('#link-note').isVisible(), false, 'the same file: nothing left out');
  // A reference field names the class it holds.
  assert.match(await page.locator('.heap-fields tr', { hasText: 'mBase' }).textContent(), /^Object\s*mBase\s*android\.app\.ContextImpl 0x[0-9a-f]+$/);
  // Sorting by a header from the keyboard: the focus stays on that header.
  await page.locator('#heap-class-head button[data-column="count"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement.dataset.column === 'count'
    && document.activeElement.closest('th').getAttribute('aria-sort') === 'descending');
  // Escape in the object's panel closes it and gives the keyboard back to what opened it.
  await page.locator('#heap-instance-rows tr[aria-selected="false"]').first().click();
  await page.waitForFunction(() => !/0xb0fa7cb0/.test(document.getElementById('heap-object-title').textContent));
  await page.locator('#heap-object-close').focus();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('heap-object').hidden);
  assert.equal(await page.evaluate(() => document.activeElement.closest('#heap-instance-rows tr') !== null), true);
  // Closing is no step: Back goes to the object the link opened.
  await page.goBack();
  await page.waitForFunction(() => /0xb0fa7cb0/.test(document.getElementById('heap-object-title').textContent));
  // Another class is a step: Back returns to the link's.
  const other = await page.locator('#heap-class-rows tr').first().locator('td').first().textContent();
  await page.locator('#heap-class-rows tr').first().click();
  await page.waitForFunction((name) => document.getElementById('heap-instance-title').textContent === 'Instances of ' + name, other);
  await page.goBack();
  await page.waitForFunction(() => document.getElementById('heap-instance-title').textContent === 'Instances of com.example.leakcanary.LeakyService');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', 'the dump stays open');
});
