import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ELEMENT_ID, bootstrapDataSchema, type BootstrapData } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn } from './support.ts';
import { MAX_PAGE_LOAD_RENDERS } from '../src/pages/spa-render.ts';
import type { TestBrowser } from './browser.ts';

// docs/decisions/032, "Signed-in pages": a signed-in visitor's page comes rendered from the server,
// per page load, with that visitor's session and their own calls' answers; never kept, never given
// to anyone else, and two visitors' renders at the same moment never mix. Measured on the real
// build (`npm run build`), as the browser gets it.

const webDist = path.resolve(import.meta.dirname, '../../web/dist');
const PORTAL = 'http://adresseavisen.localhost:3000';
const HOST = 'adresseavisen.localhost:3000';

/** Two subscribers of the seed (apps/server/src/db/seed.ts): what of each may show on a page. */
const kari = { email: 'papir@minside.test', marks: ['Kari', 'Nordmann', 'papir@minside.test', '40000001', '91234567', '912 34 567'] };
const ola = { email: 'digital@minside.test', marks: ['Ola', 'Hansen', 'digital@minside.test', '40000002', '92345678', '923 45 678'] };

function rootOf(html: string): string {
  const start = /<div id="root"( data-server-rendered)?>/.exec(html);
  const end = html.indexOf('<noscript>');
  if (!start || end === -1) throw new Error(`no #root in ${html.slice(0, 2000)}`);
  const inner = html.slice(start.index + start[0].length, end).trimEnd();
  return inner.slice(0, -'</div>'.length);
}

function blockOf(html: string): BootstrapData {
  const json = new RegExp(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">([^<]*)</script>`).exec(html)?.[1];
  if (json === undefined) throw new Error('no bootstrap block');
  return bootstrapDataSchema.parse(JSON.parse(json));
}

function renderDataOf(html: string): string | undefined {
  return /<script type="application\/json" id="minside-server-render">([^<]*)<\/script>/.exec(html)?.[1];
}

const cookieHeader = (browser: TestBrowser) => [...browser.cookies(HOST)].map(([name, value]) => `${name}=${value}`).join('; ');

describe.each(testDatabases)('server-rendered signed-in pages ($name)', ({ name }) => {
  let t: TestApp;
  let kariCookie: string;
  let olaCookie: string;

  beforeAll(async () => {
    expect(existsSync(path.join(webDist, 'ssr', 'entry-server.mjs')), `${webDist}/ssr is missing: run \`npm run build\` first (npm test does)`).toBe(true);
    t = await buildTestApp(name, { seed: true, config: { webDist } });
    kariCookie = cookieHeader(await signIn(t, PORTAL, kari.email));
    olaCookie = cookieHeader(await signIn(t, PORTAL, ola.email));
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });

  /** A page load that comes with markup: the first renders after start may take longer than a page load waits, on a loaded machine. */
  async function rendered(url: string, cookie?: string) {
    for (let attempt = 1; ; attempt += 1) {
      const response = await page(url, cookie);
      if (rootOf(response.body) !== '' || attempt === 10) return response;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }

  it('GET / for a signed-in subscriber has their own home page in #root, with the answers it was rendered with, never stored', async () => {
    const response = await rendered('/', kariCookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const root = rootOf(response.body);
    expect(root).toMatch(/<h1[^>]*>Min Side<\/h1>/);
    expect(root).toContain('Hei, Kari! Her er abonnementet ditt på Adresseavisen.');
    // The header is the signed-in one.
    expect(root).toContain('Logg ut');
    expect(root).not.toContain('>Logg inn<');
    // The overview (GET /api/overview, which needs the session) was asked for with the visitor's cookie and rendered.
    expect(root).not.toContain('Henter oversikten');
    expect(root).toContain('Trenger du hjelp?');
    const data = renderDataOf(response.body);
    expect(data).toBeDefined();
    expect(data).toContain('"overview"');
    expect(blockOf(response.body).session?.user.email).toBe(kari.email);
  });

  it('renders two subscribers’ pages at the same moment, each with only their own name and account; a signed-out page after them has neither', async () => {
    // Warm: the first renders after start may go over the time a page load waits.
    await rendered('/', kariCookie);
    await rendered('/', olaCookie);
    for (let round = 0; round < 4; round += 1) {
      const responses = await Promise.all([page('/', kariCookie), page('/', olaCookie), page('/kontakt', olaCookie), page('/kontakt', kariCookie)]);
      const [kariHome, olaHome, olaContact, kariContact] = responses.map((response) => response.body);
      for (const [html, own, other] of [
        [kariHome!, kari, ola],
        [olaHome!, ola, kari],
        [olaContact!, ola, kari],
        [kariContact!, kari, ola],
      ] as const) {
        const root = rootOf(html);
        const data = renderDataOf(html) ?? '';
        // A render over the time a page load waits sends no markup: nothing to compare then.
        if (root === '') continue;
        expect(root).toContain(own.marks[0]);
        for (const mark of other.marks) {
          expect(root, `${own.email}'s page`).not.toContain(mark);
          expect(data, `${own.email}'s page data`).not.toContain(mark);
        }
      }
      expect(rootOf(kariHome!)).toContain('Hei, Kari!');
      expect(rootOf(olaHome!)).toContain('Hei, Ola!');
    }

    // Signed out after them: a public page with the login in its header and nobody's data; a signed-in page not rendered.
    const after = await rendered('/kundeservice');
    expect(rootOf(after.body)).toContain('>Logg inn</a>');
    const signedOutHome = await page('/');
    for (const html of [after.body, signedOutHome.body]) {
      for (const mark of [...kari.marks, ...ola.marks]) expect(html).not.toContain(mark);
      expect(blockOf(html).session).toBeNull();
    }
    expect(rootOf(signedOutHome.body)).toBe('');
  });

  it(`renders at most ${MAX_PAGE_LOAD_RENDERS} signed-in pages at once: the page loads beyond them get the page without markup, which works as before`, async () => {
    await rendered('/', kariCookie);
    const loads = MAX_PAGE_LOAD_RENDERS * 3;
    const responses = await Promise.all(Array.from({ length: loads }, () => page('/', kariCookie)));
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      // Without markup the browser still starts signed in: the session is in the bootstrap block.
      expect(blockOf(response.body).session?.user.email).toBe(kari.email);
    }
    expect(responses.filter((response) => rootOf(response.body) !== '').length).toBeLessThanOrEqual(MAX_PAGE_LOAD_RENDERS);
    for (const response of responses.filter((each) => rootOf(each.body) === '')) expect(renderDataOf(response.body)).toBeUndefined();
    // Every place is given back: as many page loads at once as the limit all come with markup (a
    // place lost would leave one without, every time). Over a page load's wait on a loaded machine
    // a render also goes without, so a few tries.
    let allRendered = false;
    for (let attempt = 0; attempt < 10 && !allRendered; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
      const again = await Promise.all(Array.from({ length: MAX_PAGE_LOAD_RENDERS }, () => page('/', kariCookie)));
      allRendered = again.every((response) => rootOf(response.body).includes('Hei, Kari!'));
    }
    expect(allRendered).toBe(true);
  });

  it(`limits the renders of public pages at spellings that are not kept, as the signed-in ones`, async () => {
    // `/KundeService/` is rendered on every page load (never kept: nobody may fill the store with spellings).
    await rendered('/KundeService/');
    const responses = await Promise.all(Array.from({ length: MAX_PAGE_LOAD_RENDERS * 3 }, (_, index) => page(`/KundeService/?n=${index}`)));
    for (const response of responses) expect(response.statusCode).toBe(200);
    expect(responses.filter((response) => rootOf(response.body) !== '').length).toBeLessThanOrEqual(MAX_PAGE_LOAD_RENDERS);
  });

  it('renders a public page for a signed-in visitor with their header, per page load, and never gives it to a signed-out one', async () => {
    const theirs = rootOf((await rendered('/kundeservice', kariCookie)).body);
    expect(theirs).toContain('Kundeservice</h1>');
    expect(theirs).toContain('Logg ut');
    const signedOut = rootOf((await rendered('/kundeservice')).body);
    expect(signedOut).toContain('>Logg inn</a>');
    expect(signedOut).not.toContain('Logg ut');
  });

  it('a session that has ended gets no markup and no data: the browser sends it to the login as before', async () => {
    const browser = await signIn(t, PORTAL, 'ung@minside.test');
    const cookie = cookieHeader(browser);
    expect(rootOf((await rendered('/', cookie)).body)).toContain('Hei, Emma!');
    const logout = await browser.request('POST', `${PORTAL}/api/logout`, { json: {}, headers: { 'sec-fetch-site': 'same-origin', origin: PORTAL } });
    expect(logout.status).toBe(200);
    const html = (await page('/', cookie)).body;
    expect(rootOf(html)).toBe('');
    expect(renderDataOf(html)).toBeUndefined();
    expect(html).not.toContain('Emma');
    expect(blockOf(html).session).toBeNull();
  });
});
