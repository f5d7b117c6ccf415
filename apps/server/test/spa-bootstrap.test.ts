import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { BOOTSTRAP_ELEMENT_ID, bootstrapDataSchema, type BootstrapData } from '@minside/domain';
import { createCatalogue, defaultCatalogueDocument } from '@minside/titles';
import { appUser } from '../src/db/schema.ts';
import { registerSpa } from '../src/pages/spa.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

// docs/decisions/022: index.html carries what the SPA's first calls would answer, per request.

const PORTAL = 'http://adresseavisen.localhost:3000';
/** The built index.html's shape: module script and preloads in the head, the root in the body. */
const INDEX_HTML = '<!doctype html><html lang="nb"><head><title>Min Side</title><script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>';
/** The CSP of the SPA with nothing third-party configured, as it was before the block (plugins/security-headers.ts). */
const SPA_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
const HOSTILE = '</script><script>alert(1)</script><!-- & \u2028 ÆØÅ';

const blockPattern = new RegExp(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">([^<]*)</script>`);

/** The block of a page: the escaped JSON has no `<` at all, so the first `</script>` ends it. */
function blockOf(html: string): BootstrapData {
  const json = blockPattern.exec(html)?.[1];
  if (json === undefined) throw new Error(`no bootstrap block in ${html}`);
  return bootstrapDataSchema.parse(JSON.parse(json));
}

function cookieHeader(browser: TestBrowser, host: string): string {
  return [...browser.cookies(host)].map(([name, value]) => `${name}=${value}`).join('; ');
}

describe.each(testDatabases)('index.html with the bootstrap block on $name', ({ name }) => {
  let t: TestApp;
  const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-bootstrap-'));

  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(webDist, 'assets', 'index-abc.js'), 'console.log(1)');
    t = await buildTestApp(name, { seed: true, config: { webDist } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const page = (url: string, host: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
  const api = async (method: 'GET' | 'POST', url: string, host: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { host }, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };

  it('answers a first visit with the title, maintenance and client config its endpoints give, no session, and no-store', async () => {
    const host = 'adresseavisen.localhost:3000';
    const response = await page('/kundeservice', host);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-security-policy']).toBe(SPA_CSP);
    // The template around the block is unchanged; the block sits just before </body>.
    expect(response.body.startsWith(INDEX_HTML.slice(0, INDEX_HTML.indexOf('</body>')))).toBe(true);
    expect(response.body.endsWith('</script></body></html>')).toBe(true);

    const block = blockOf(response.body);
    const minsideUrl = `http://${host}/kundeservice`;
    expect(block).toMatchObject({ version: 1, host, titleCode: 'ADR', session: null });
    expect(await api('POST', '/api/retrieveTitleCode', host, { minsideUrl })).toEqual({ status: 200, body: { titleCode: 'ADR' } });
    expect(block.title).toEqual((await api('GET', '/api/title/ADR', host)).body);
    expect(block.maintenance).toEqual((await api('POST', '/api/maintenanceTitle', host, { minsideUrl })).body);
    expect(block.clientConfig).toEqual((await api('GET', '/api/client-config?titleCode=ADR', host)).body);
  });

  it('resolves the title from the Host as retrieveTitleCode does, with POL for an unknown host and the ?title= override on a development host', async () => {
    const cases = [
      { host: 'minside.adressa.no', url: '/', titleCode: 'ADR' },
      { host: 'tronder-avisa.localhost:3000', url: '/profil', titleCode: 'TRA' },
      { host: 'localhost:3000', url: '/kundeservice?title=TRA', titleCode: 'TRA' },
      // The override is for development hosts only; a production host keeps its own title.
      { host: 'minside.adressa.no', url: '/kundeservice?title=TRA', titleCode: 'ADR' },
      // No title for this address: retrieveTitleCode answers 404 and the web uses POL (SPEC §4).
      { host: 'www.example.com', url: '/', titleCode: 'POL' },
      { host: 'localhost:3000', url: '/?title=FINNESIKKE', titleCode: 'POL' },
    ];
    for (const { host, url, titleCode } of cases) {
      const block = blockOf((await page(url, host)).body);
      expect(block.titleCode, `${host}${url}`).toBe(titleCode);
      expect(block.title.titleCode, `${host}${url}`).toBe(titleCode);
      expect(block.host).toBe(host);
      const endpoint = await api('POST', '/api/retrieveTitleCode', host, { minsideUrl: `http://${host}${url}` });
      expect(endpoint.status === 200 ? endpoint.body['titleCode'] : 'POL', `${host}${url}`).toBe(titleCode);
      expect(block.title).toEqual((await api('GET', `/api/title/${titleCode}`, host)).body);
    }
  });

  it('carries the signed-in session as GET /api/session answers it, and none once logged out', async () => {
    const browser = await signIn(t, PORTAL, 'papir@minside.test');
    const host = new URL(PORTAL).host;
    const cookie = cookieHeader(browser, host);
    const block = blockOf((await page('/', host, { cookie })).body);
    const session = await t.app.inject({ method: 'GET', url: '/api/session?titleCode=ADR', headers: { host, cookie } });
    expect(session.statusCode).toBe(200);
    const { title, ...summary } = session.json<Record<string, unknown>>();
    expect(title).toEqual(block.title);
    expect(block.session).toEqual(summary);
    expect(block.session?.user.email).toBe('papir@minside.test');
    expect(block.session?.subscription).not.toBeNull();

    // Another browser (no cookie) gets no session; neither does this one after logging out.
    expect(blockOf((await page('/', host)).body).session).toBeNull();
    const logout = await browser.request('POST', `${PORTAL}/api/logout`, { json: {} });
    expect(logout.status).toBe(200);
    expect(blockOf((await page('/', host, { cookie })).body).session).toBeNull();
  });

  it('escapes a hostile user name so it cannot close the element, and reads it back unchanged', async () => {
    await t.database.db.update(appUser).set({ givenName: HOSTILE }).where(eq(appUser.email, 'digital@minside.test'));
    const browser = await signIn(t, PORTAL, 'digital@minside.test');
    const host = new URL(PORTAL).host;
    const html = (await page('/', host, { cookie: cookieHeader(browser, host) })).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<!--');
    // The template's one module script and the block: nothing else opens or closes a script.
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(blockOf(html).session?.user.givenName).toBe(HOSTILE);
  });

  it('answers HEAD like GET without a body, and unknown paths with the page; /api, a gone asset and non-GET stay JSON 404s', async () => {
    const host = 'adresseavisen.localhost:3000';
    const head = await t.app.inject({ method: 'HEAD', url: '/', headers: { host } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(head.headers['cache-control']).toBe('private, no-store');
    expect(head.body).toBe('');

    const unknown = await page('/finnes/ikke?x=1', host);
    expect(unknown.statusCode).toBe(200);
    expect(blockOf(unknown.body).titleCode).toBe('ADR');

    // Only a browser loading a page gets the block (and pays its reads): not an image or a
    // script request that fell through to the page.
    expect(blockOf((await page('/', host, { 'sec-fetch-dest': 'document' })).body).titleCode).toBe('ADR');
    for (const destination of ['image', 'script', 'empty']) {
      const other = await page('/favicon.ico', host, { 'sec-fetch-dest': destination });
      expect(other.statusCode, destination).toBe(200);
      expect(other.body, destination).toBe(INDEX_HTML);
      expect(other.headers['cross-origin-resource-policy'], destination).toBe('same-origin');
    }

    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['GET', '/assets/index-old.js'],
      ['POST', '/kundeservice'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: { host }, ...(method === 'POST' ? { payload: {} } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json(), `${method} ${url}`).toMatchObject({ code: 'NOT_FOUND' });
    }
    // The hashed assets are still the static files, cached for a year.
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js', headers: { host } });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('compresses the page for a browser that accepts Brotli or gzip', async () => {
    const host = 'adresseavisen.localhost:3000';
    const plain = await page('/', host, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await page('/', host, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await page('/', host, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });
});

describe('a hostile title name in the catalogue', () => {
  it('is escaped in the block and read back unchanged', async () => {
    const document = structuredClone(defaultCatalogueDocument) as { titles: Record<string, unknown>[] };
    const adr = document.titles.find((entry) => entry['titleCode'] === 'ADR');
    if (!adr) throw new Error('ADR missing from the catalogue');
    adr['name'] = HOSTILE;
    const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-bootstrap-'));
    writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
    const t = await buildTestApp('pglite', { catalogue: createCatalogue(document), config: { webDist } });
    try {
      const html = (await t.app.inject({ method: 'GET', url: '/', headers: { host: 'adresseavisen.localhost:3000' } })).body;
      expect(html).not.toContain('<script>alert(1)');
      expect(html.match(/<\/script>/g)).toHaveLength(2);
      const block = blockOf(html);
      expect(block.title.name).toBe(HOSTILE);
      expect(block.maintenance.name).toBe(HOSTILE);
    } finally {
      await t.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});

describe('when the data for the block does not come', () => {
  it('sends the page without the block: at once when the database is gone, after a moment when it hangs', async () => {
    const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-bootstrap-'));
    writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
    const t = await buildTestApp('pglite', { seed: true, config: { webDist } });
    const host = 'adresseavisen.localhost:3000';
    const browser = await signIn(t, PORTAL, 'papir@minside.test');
    try {
      // The same app with its database closed under a signed-in user: the session read fails,
      // and the page must go without a block, never with `session: null` (that would send a
      // signed-in user to the login).
      const cookie = cookieHeader(browser, new URL(PORTAL).host);
      expect(cookie).toContain('=');
      await t.database.close();
      const gone = await t.app.inject({ method: 'GET', url: '/', headers: { host, cookie } });
      expect(gone.statusCode).toBe(200);
      expect(gone.body).toBe(INDEX_HTML);

      // A database that never answers (a stalled connection): the page waits at most a moment.
      const hanging = Fastify();
      await registerSpa(hanging, webDist, () => new Promise(() => {}));
      const started = performance.now();
      const stalled = await hanging.inject({ method: 'GET', url: '/', headers: { host } });
      const waitedMs = performance.now() - started;
      expect(stalled.statusCode).toBe(200);
      expect(stalled.body).toBe(INDEX_HTML);
      expect(waitedMs).toBeGreaterThanOrEqual(1_400);
      expect(waitedMs).toBeLessThan(5_000);
      await hanging.close();
    } finally {
      await t.app.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
