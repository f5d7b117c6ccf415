// Screenshots of pages at 375 px and 1280 px, for looking at what we build:
//   BASE=http://adresseavisen.localhost:3000 PATHS=/kundeservice,/404 node scripts/screenshots.mjs
// LOGIN=papir@minside.test signs in as that demo user first (password DEMO_PASSWORD or demo1234).
// Writes OUT (default /tmp/shots)/<path>-<width>.png and prints console errors it sees.
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.env.BASE ?? 'http://adresseavisen.localhost:3000';
const paths = (process.env.PATHS ?? '/kundeservice,/404').split(',');
const out = process.env.OUT ?? '/tmp/shots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
for (const width of [375, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, locale: 'nb-NO' });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`[${width}] page error: ${error.message}`));
  if (process.env.LOGIN) {
    await page.goto(`${base}/`);
    await page.getByLabel('E-post').fill(process.env.LOGIN);
    await page.getByLabel('Passord').fill(process.env.DEMO_PASSWORD ?? 'demo1234');
    await page.getByRole('button', { name: 'Logg inn' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/idp'));
  }
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: 'networkidle' });
    // The consent dialog covers the page until a choice is made (once per browser context).
    const refuse = page.getByRole('button', { name: 'Avslå alle' });
    if (await refuse.isVisible().catch(() => false)) await refuse.click();
    const file = `${out}/${p.replace(/\W+/g, '_') || 'root'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file, page.url(), await page.title());
  }
  await context.close();
}
await browser.close();
