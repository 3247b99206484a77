import { launch, serve, corpus, pick } from './support.mjs';
const [trace, name, scheme = 'light', width = '1280'] = process.argv.slice(2);
const browser = await launch();
const server = await serve();
const page = await browser.newPage({ viewport: { width: Number(width), height: 800 }, colorScheme: scheme });
page.on('console', (m) => { if (m.type() === 'error') console.log('CONSOLE', m.text()); });
await page.goto(server.url + (process.env.Q || ''));
await pick(page, [corpus(trace)]);
await page.waitForTimeout(2500);
if (process.env.TAB) { await page.click('#tab-button-' + process.env.TAB); await page.waitForTimeout(2000); }
await page.screenshot({ path: '/tmp/' + name + '.png' });
await browser.close(); await server.close();
