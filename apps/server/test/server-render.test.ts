import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ELEMENT_ID, bootstrapDataSchema, type BootstrapData } from '@minside/domain';
import { createCatalogue, defaultCatalogueDocument } from '@minside/titles';
import { buildTestApp, type TestApp } from './helper.ts';
import { signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

// docs/decisions/032: the public pages come rendered from the server, from the web build's server
// bundle. Measured on the real build (`npm run build`; `npm test` builds before it tests), as the
// browser gets it: the page reads without JavaScript, and a signed-in visitor's page is never
// kept or given to anyone else (their pages: server-render-signed-in.test.ts).

const webDist = path.resolve(import.meta.dirname, '../../web/dist');
const PORTAL = 'http://adresseavisen.localhost:3000';
const HOST = 'adresseavisen.localhost:3000';

/** What is inside #root: the server's markup, or nothing. */
function rootOf(html: string): string {
  const start = /<div id="root"( data-server-rendered)?>/.exec(html);
  const end = html.indexOf('<noscript>');
  if (!start || end === -1) throw new Error(`no #root in ${html.slice(0, 2000)}`);
  const inner = html.slice(start.index + start[0].length, end).trimEnd();
  if (!inner.endsWith('</div>')) throw new Error(`#root does not end before <noscript>: …${inner.slice(-200)}`);
  return inner.slice(0, -'</div>'.length);
}

function blockOf(html: string): BootstrapData {
  const json = new RegExp(`<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">([^<]*)</script>`).exec(html)?.[1];
  if (json === undefined) throw new Error('no bootstrap block');
  return bootstrapDataSchema.parse(JSON.parse(json));
}

function renderDataOf(html: string): { path: string; queries: { key: unknown[] }[] } | undefined {
  const json = /<script type="application\/json" id="minside-server-render">([^<]*)<\/script>/.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as { path: string; queries: { key: unknown[] }[] });
}

/**
 * A page load that comes with markup. A render that takes longer than a page load waits for (on a
 * loaded test machine) still finishes, for the next page load: then that one is taken.
 */
async function renderedPage(t: TestApp, url: string, headers: Record<string, string>) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await t.app.inject({ method: 'GET', url, headers });
    if (rootOf(response.body) !== '' || attempt === 10) return response;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const cookieHeader = (browser: TestBrowser) => [...browser.cookies(HOST)].map(([name, value]) => `${name}=${value}`).join('; ');

describe('server-rendered public pages (docs/decisions/032)', () => {
  let t: TestApp;

  beforeAll(async () => {
    expect(existsSync(path.join(webDist, 'ssr', 'entry-server.mjs')), `${webDist}/ssr is missing: run \`npm run build\` first (npm test does)`).toBe(true);
    t = await buildTestApp('pglite', { seed: true, config: { webDist } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = (url: string, headers: Record<string, string> = {}, host = HOST) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
  const rendered = (url: string, headers: Record<string, string> = {}, host = HOST) => renderedPage(t, url, { host, ...headers });

  it('GET /kundeservice has the page in #root, readable without JavaScript: heading, text, contact links, questions, footer links', async () => {
    const response = await rendered('/kundeservice');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const html = response.body;
    const root = rootOf(html);
    expect(root).toMatch(/<h1[^>]*>Kundeservice<\/h1>/);
    expect(root).toContain('Her finner du svar på det de fleste lurer på om abonnementet på Adresseavisen.');
    expect(root).toContain('href="tel:+4772500000"');
    expect(root).toContain('href="mailto:kundesenter@adressa.no"');
    // The questions and answers (the FAQ text the page asks /api/content for) are in it, as disclosures.
    expect(root).toMatch(/<summary[^>]*>Hvordan stopper jeg avisen mens jeg er på ferie\?<\/summary>/);
    for (const href of ['/vilkaar', '/vilkaar/bedrift', '/personvern', '/kundeservice', '/']) expect(root).toContain(`href="${href}"`);
    // The title's wordmark, inlined as the browser would.
    expect(root).toMatch(/<svg [^>]*aria-hidden="true"[^>]*><title>Adresseavisen<\/title>/);
    // Nobody signed in: the header offers the login, a link that works before the scripts (back to this path).
    expect(root).toMatch(/<a [^>]*href="\/api\/login\/start\?returnTo=%2Fkundeservice&amp;titleCode=ADR"[^>]*>Logg inn<\/a>/);

    // The document around it is still the per-request page of docs/decisions/022.
    expect(blockOf(html)).toMatchObject({ host: HOST, titleCode: 'ADR', session: null });
    const data = renderDataOf(html);
    expect(data?.path).toBe('/kundeservice');
    expect(data?.queries.map((query) => query.key)).toContainEqual(['privacy', 'content', 'support', 'faq', 'ADR']);
    expect(html).toContain('<html lang="nb" class="title-adressa-no">');
    expect(html).toContain('<title>Min Side - Adresseavisen</title>');
  });

  it('inlines the page’s styles, which its CSP allows by hash, and links no stylesheet that would hold the first paint', async () => {
    const response = await rendered('/kundeservice');
    const html = response.body;
    const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((match) => match[1]!);
    expect(styles).toHaveLength(1);
    // The title's brand is the last word on it: the stylesheets' own neutral default comes before.
    const brands = [...styles[0]!.matchAll(/--brand:\s*([^;}]+)/g)].map((match) => match[1]);
    expect(brands.length).toBeGreaterThan(1);
    expect(brands.at(-1)).toBe('#00539f');
    const hash = `'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`;
    expect(response.headers['content-security-policy']).toContain(`style-src 'self' ${hash};`);
    // The one inline script, the loader that starts the scripts after the first paint, by its hash; no module script or preload the parser would fetch first.
    const scripts = [...html.matchAll(/<script( [^>]*)?>([\s\S]*?)<\/script>/g)].filter((match) => !match[1]?.includes('type="application/json"'));
    expect(scripts).toHaveLength(1);
    const loaderHash = `'sha256-${createHash('sha256').update(scripts[0]![2]!).digest('base64')}'`;
    expect(response.headers['content-security-policy']).toContain(`script-src 'self' ${loaderHash};`);
    expect(scripts[0]![1]).toMatch(/^ data-modules="\/assets\/index-[\w-]+\.js( \/assets\/[\w.-]+\.js)+"$/);
    expect(scripts[0]![1]).toContain('/assets/area-support-');
    expect(html).not.toContain('rel="modulepreload"');
    // Every stylesheet link left is disabled (the area's, so that its chunk's loader does not fetch it again).
    const stylesheetLinks = [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((match) => match[0]);
    expect(stylesheetLinks.length).toBeGreaterThan(0);
    for (const link of stylesheetLinks) expect(link).toContain(' disabled');
  });

  it('keeps the markup per title and path: the same on the next load, another title’s its own; the consent cookies pick the bar', async () => {
    const first = rootOf((await rendered('/kundeservice')).body);
    expect(rootOf((await page('/kundeservice?utm_source=nyhetsbrev')).body)).toBe(first);
    const varden = rootOf((await rendered('/kundeservice', {}, 'varden.localhost:3000')).body);
    expect(varden).toContain('Varden');
    expect(varden).not.toBe(first);

    // A first visitor is asked (the prompt is on by default); one who has chosen (the cookies say so) is not.
    expect(first).toContain('Vi bruker informasjonskapsler');
    const chosen = rootOf((await rendered('/kundeservice', { cookie: '_cmp_analytics=0; _cmp_marketing=0; _cmp_personalisation=0' })).body);
    expect(chosen).not.toContain('Vi bruker informasjonskapsler');
    expect(chosen).toContain('Kundeservice</h1>');
  });

  it('renders a page only for a Host that is a name and a port, and keeps it only under the path it is for', async () => {
    // The address is built from the Host: `…/vilkaar#` would make it /vilkaar while the path asks for
    // /kundeservice, and the terms would be kept as /kundeservice for every visitor of the title.
    const spoofed = await page('/kundeservice', {}, `${HOST}/vilkaar#`);
    expect(rootOf(spoofed.body)).toBe('');
    const kundeservice = rootOf((await rendered('/kundeservice')).body);
    expect(kundeservice).toContain('Kundeservice</h1>');
    expect(kundeservice).not.toMatch(/Angrerett/);
    // Another spelling of the page is rendered (the router takes it) and never answers for the page's own path.
    expect(rootOf((await rendered('/KundeService/')).body)).toContain('Kundeservice</h1>');
    expect(rootOf((await page('/kundeservice')).body)).toBe(kundeservice);
  });

  it('renders the other public pages with their text: terms, privacy, student, new prices, 404, maintenance', async () => {
    const cases: [string, RegExp][] = [
      ['/vilkaar', /Angrerett/],
      ['/personvern', /<h1[^>]*>Personvern/],
      ['/cookie-policy', /<h1[^>]*>Informasjonskapsler<\/h1>/],
      ['/student', /@stud\.ntnu\.no/],
      ['/nye-priser', /Varslede prisendringer/],
      ['/404', /<h1[^>]*>Fant ikke siden<\/h1>/],
      ['/maintenance', /<h1[^>]*>Min Side er oppe<\/h1>/],
    ];
    for (const [url, content] of cases) expect(rootOf((await rendered(url)).body), url).toMatch(content);
  });

  it('redirects an address no page has to /404, as the browser’s router would, keeping nothing of it', async () => {
    const response = await page('/finnes-ikke/i-det-hele-tatt?x=1');
    expect(response.statusCode).toBe(302);
    expect(response.headers['location']).toBe('/404');
    expect(response.headers['cache-control']).toBe('private, no-store');
    // An old address keeps its query string, as its route does.
    expect((await page('/order-timeout?ordre=1')).headers['location']).toBe('/bestilling-feilet?ordre=1');
  });

  it('renders a signed-in visitor’s pages for them alone (docs/decisions/032, "Signed-in pages"): a signed-out page load of the same path never carries them', async () => {
    const browser = await signIn(t, PORTAL, 'papir@minside.test');
    const cookie = cookieHeader(browser);
    // Their own pages and a public page, with their header; a page not on the list (the invoice list's layout follows the viewport) goes without.
    for (const [url, content] of [
      ['/kundeservice', 'Kundeservice</h1>'],
      ['/', 'Hei, Kari!'],
      ['/endre-profil', 'papir@minside.test'],
    ] as const) {
      const html = (await rendered(url, { cookie })).body;
      expect(rootOf(html), url).toContain(content);
      expect(rootOf(html), url).toContain('Logg ut');
      expect(blockOf(html).session?.user.email, url).toBe('papir@minside.test');
    }
    const invoices = (await page('/fakturaoversikt', { cookie })).body;
    expect(rootOf(invoices)).toBe('');
    expect(renderDataOf(invoices)).toBeUndefined();
    // Nothing of theirs is kept: the same paths without a session carry none of it, and a signed-in-only path is not rendered (its guard sends them to the login).
    for (const url of ['/kundeservice', '/', '/endre-profil', '/fakturaoversikt']) {
      const html = (await page(url)).body;
      expect(html, url).not.toContain('papir@minside.test');
      expect(html, url).not.toContain('Kari');
      expect(blockOf(html).session, url).toBeNull();
      if (url !== '/kundeservice') expect(rootOf(html), url).toBe('');
    }
  });
});

describe('a hostile title name in the catalogue, server-rendered', () => {
  it('is escaped in the markup, the page title and the data blocks', async () => {
    const HOSTILE = '</title></script><script>alert(1)</script><!-- & ÆØÅ';
    const document = structuredClone(defaultCatalogueDocument) as { titles: Record<string, unknown>[] };
    const adr = document.titles.find((entry) => entry['titleCode'] === 'ADR');
    if (!adr) throw new Error('ADR missing from the catalogue');
    adr['name'] = HOSTILE;
    const t = await buildTestApp('pglite', { catalogue: createCatalogue(document), config: { webDist } });
    try {
      const html = (await renderedPage(t, '/kundeservice', { host: HOST })).body;
      expect(rootOf(html)).toContain('Kundeservice</h1>');
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<!--');
      expect(html).toContain('<title>Min Side - &#60;/title&#62;&#60;/script&#62;');
      expect(blockOf(html).title.name).toBe(HOSTILE);
    } finally {
      await t.close();
    }
  });
});
