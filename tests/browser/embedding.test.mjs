// The embedding examples in www/examples, served like the hosted site: the ES module
// package, the iframe with postMessage, and window.droidflame.analyze from a host page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpus, shot, watchRequests, foreignRequests, useBrowser } from './support.mjs';

const context = useBrowser();

for (const example of ['module', 'iframe', 'global-api']) {
  test(`the ${example} example analyses a trace`, async (t) => {
    const page = await context.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests = watchRequests(page);
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(context.server.url + 'examples/' + example + '.html');
    await page.setInputFiles('#file', corpus('ffprof-art-regular.trace'));
    await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('out').dataset.state), null, { timeout: 60000 });
    assert.equal(await page.locator('#out').getAttribute('data-state'), 'done', await page.locator('#out').textContent());
    assert.equal(await page.locator('#out').getAttribute('data-threads'), '40');
    await shot(page, 'example-' + example);
    assert.deepEqual(foreignRequests(requests, context.server.origin), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the iframe mode reports errors back to the host', async () => {
  const page = await context.browser.newPage();
  await page.goto(context.server.url + 'examples/iframe.html');
  await page.setInputFiles('#file', corpus('SOURCES.md'));
  await page.waitForFunction(() => document.getElementById('out').dataset.state === 'error', null, { timeout: 30000 });
  assert.match(await page.locator('#out').textContent(), /not an Android trace/);
  await page.close();
});

test('the iframe mode compares two traces the host sends', async () => {
  const page = await context.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(context.server.url + 'examples/iframe.html');
  await page.setInputFiles('#file', [corpus('ffprof-art-regular.trace'), corpus('ffprof-art-streaming.trace')]);
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('out').dataset.state), null, { timeout: 60000 });
  assert.equal(await page.locator('#out').getAttribute('data-compared'), 'wall', await page.locator('#out').textContent());
  const frame = page.frameLocator('#droidflame');
  await frame.locator('#compare-flame').waitFor();
  assert.equal(await frame.locator('#tab-button-compare').getAttribute('aria-selected'), 'true');
  assert.match(await frame.locator('#compare-facts').textContent(), /ffprof-art-streaming\.trace/);
  await shot(page, 'example-iframe-compare');
  // The host owns the embedded page's address: once the page has let the pause pass after
  // which the address would follow the view, the view has not gone into it, and no link note shows.
  const embedded = await (await page.$('#droidflame')).contentFrame();
  await embedded.waitForFunction(() => document.body.dataset.address === 'kept');
  assert.equal(await frame.locator('body').evaluate(() => window.location.hash), '#embed');
  assert.equal(await frame.locator('#link-note').isHidden(), true);
  await page.close();
});
