import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';
import type { RouteEntry } from '../src/plugins/route-table.ts';
import { anonymous, apiRoutes, call, fixtures, OPERATOR_TOKEN, PORTAL, prepareSeeded, routeKey, signIn, snapshot, urlOf, type Fixture } from './security-support.ts';

// Issue 10.2: the CSRF defence on every state-changing /api route, no state-changing GET,
// the security headers on every kind of response, and the cookie flags.

const stateChanging = (route: RouteEntry) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);

/**
 * GETs that write by design, with the reason. Everything else must leave every table as it was
 * (user_session is left out of the comparison: every signed-in request records its activity).
 */
const writingGets: Record<string, string> = {
  'GET /api/loginToken': 'starts a login: stores the state/nonce/PKCE verifier (login_attempt), like an OIDC authorization request',
  'GET /api/login/start': 'the same login as loginToken, from a link',
};

function expectCommonHeaders(response: BrowserResponse, what: string) {
  const csp = String(response.headers['content-security-policy'] ?? '');
  expect(csp, `${what}: CSP`).not.toBe('');
  const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? /(?:^|;)\s*default-src ([^;]*)/.exec(csp)?.[1] ?? '';
  expect(scriptSrc, `${what}: script-src`).not.toBe('');
  expect(scriptSrc, `${what}: script-src`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${what}: script-src`).not.toContain("'unsafe-eval'");
  expect(csp, `${what}: frame-ancestors`).toMatch(/frame-ancestors 'none'/);
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
}

describe('web security', () => {
  let test: TestApp;
  let papir: TestBrowser;
  let routes: RouteEntry[];
  let table: Record<string, Fixture>;
  const webDist = mkdtempSync(path.join(tmpdir(), 'minside-web-security-'));

  beforeAll(async () => {
    // A stand-in for the built SPA, so the HTML response kind is covered without a build.
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html lang="nb"><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
    test = await buildTestApp('pglite', { seed: true, config: { operatorToken: OPERATOR_TOKEN, webDist } });
    papir = await signIn(test, 'papir');
    table = fixtures(await prepareSeeded(test, papir));
    routes = apiRoutes(test).filter((route) => routeKey(route) in table);
  });
  afterAll(async () => {
    await test?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  describe('CSRF: same origin (Sec-Fetch-Site, else Origin) and JSON bodies only', () => {
    const attempts: { name: string; headers: Record<string, string>; status: number }[] = [
      { name: 'Origin of another site', headers: { origin: 'https://evil.example' }, status: 403 },
      { name: 'Sec-Fetch-Site: cross-site', headers: { 'sec-fetch-site': 'cross-site' }, status: 403 },
      { name: 'Sec-Fetch-Site: same-site (the newspaper’s own www)', headers: { 'sec-fetch-site': 'same-site' }, status: 403 },
      { name: 'Origin: null (sandboxed frame)', headers: { origin: 'null' }, status: 403 },
    ];

    it.each(attempts)('refuses every state-changing /api route with $name', async ({ headers, status }) => {
      const changing = routes.filter(stateChanging);
      expect(changing.length).toBeGreaterThan(50);
      const before = await snapshot(test.database, { except: ['user_session'] });
      const wrong: string[] = [];
      for (const route of changing) {
        const response = await call(papir, route, table[routeKey(route)] as Fixture, headers);
        const body = response.json<{ code?: string; message?: string }>();
        if (response.status !== status || body.code !== 'CROSS_SITE_REQUEST' || !body.message) wrong.push(`${routeKey(route)} → ${response.status} ${response.body.slice(0, 100)}`);
      }
      expect(wrong).toEqual([]);
      expect(await snapshot(test.database, { except: ['user_session'] })).toEqual(before);
    });

    it.each([
      { name: 'a form post (application/x-www-form-urlencoded)', type: 'application/x-www-form-urlencoded', body: 'ariaAccountNo=40000001' },
      { name: 'a text/plain body (what a cross-site form can send as "JSON")', type: 'text/plain', body: '{"ariaAccountNo":40000001}' },
      { name: 'multipart/form-data', type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
      { name: 'no content type', type: undefined, body: undefined },
    ])('refuses $name on every state-changing /api route with 415, even from the same origin', async ({ type, body }) => {
      const before = await snapshot(test.database, { except: ['user_session'] });
      const wrong: string[] = [];
      for (const route of routes.filter(stateChanging)) {
        const url = new URL(urlOf(route, table[routeKey(route)] as Fixture));
        const cookie = [...papir.cookies(url.host)].map(([name, value]) => `${name}=${value}`).join('; ');
        const response = await test.app.inject({
          method: route.method,
          url: url.pathname + url.search,
          headers: { host: url.host, cookie, 'sec-fetch-site': 'same-origin', ...(type ? { 'content-type': type } : {}) },
          ...(body === undefined ? {} : { payload: body }),
        });
        // The operator's bank-file upload takes text/plain by design (ADR 024): without the operator's bearer token it is a 401, which no browser can get past.
        const bearerUpload = routeKey(route) === 'POST /api/operator/bank-files';
        const refused = bearerUpload
          ? response.statusCode === 401 && response.json<{ code?: string }>().code === 'OPERATOR_AUTH_REQUIRED'
          : response.statusCode === 415 && response.json<{ code?: string }>().code === 'UNSUPPORTED_MEDIA_TYPE';
        if (!refused) wrong.push(`${routeKey(route)} → ${response.statusCode} ${response.body.slice(0, 100)}`);
      }
      expect(wrong).toEqual([]);
      expect(await snapshot(test.database, { except: ['user_session'] })).toEqual(before);
    });

    it('lets the same origin through, with and without Sec-Fetch-Site (older browsers send only Origin)', async () => {
      const route = { method: 'PUT' as const, url: '/api/profile' };
      const fixture = table[routeKey(route)] as Fixture;
      expect((await call(papir, route, fixture, { origin: PORTAL })).status).toBe(200);
      expect((await papir.request('PUT', urlOf(route, fixture), { json: fixture.body, headers: { origin: PORTAL } })).status).toBe(200);
    });
  });

  it('changes nothing in the database on any GET route, called with the owner’s session', async () => {
    const gets = routes.filter((route) => route.method === 'GET' && !(routeKey(route) in writingGets));
    expect(gets.length).toBeGreaterThan(30);
    const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    const changed: string[] = [];
    for (const route of gets) {
      const before = await snapshot(test.database, { except: ['user_session'] });
      const response = await call(papir, route, table[routeKey(route)] as Fixture, routeKey(route).includes('/operator/') ? operator : {});
      expect(response.status, `${routeKey(route)}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
      const after = await snapshot(test.database, { except: ['user_session'] });
      const tables = Object.keys(after).filter((name) => after[name] !== before[name]);
      if (tables.length > 0) changed.push(`${routeKey(route)} wrote ${tables.join(', ')}`);
    }
    expect(changed).toEqual([]);
  });

  it.each([
    { path: '/api/loginToken', status: 200 },
    { path: '/api/login/start', status: 303 },
  ])('GET $path writes only its login attempt', async ({ path: pathname, status }) => {
    const before = await snapshot(test.database, { except: ['user_session'] });
    expect((await anonymous(test).request('GET', `${PORTAL}${pathname}?titleCode=ADR`)).status).toBe(status);
    const after = await snapshot(test.database, { except: ['user_session'] });
    expect(Object.keys(after).filter((name) => after[name] !== before[name])).toEqual(['login_attempt']);
  });

  describe('security headers on every kind of response', () => {
    const kinds: { name: string; path: string; status: number; type: RegExp }[] = [
      { name: 'the SPA page', path: '/', status: 200, type: /text\/html/ },
      { name: 'an SPA client route', path: '/faktura', status: 200, type: /text\/html/ },
      { name: 'an /api JSON answer', path: '/api/title/ADR', status: 200, type: /application\/json/ },
      { name: 'an /api error', path: '/api/profile', status: 401, type: /application\/json/ },
      { name: 'an unknown /api route', path: '/api/finnes-ikke', status: 404, type: /application\/json/ },
      { name: 'an unknown file', path: '/logos/finnes-ikke.svg', status: 404, type: /application\/json/ },
      { name: 'the provider discovery document', path: '/idp/.well-known/openid-configuration', status: 200, type: /application\/json/ },
      { name: 'the dev mail page', path: '/_dev/mail', status: 200, type: /text\/html/ },
      { name: 'the health check', path: '/healthz', status: 200, type: /application\/json/ },
    ];

    it.each(kinds)('$name ($path)', async ({ path: pathname, status, type }) => {
      const response = await anonymous(test).request('GET', `${PORTAL}${pathname}`);
      expect(response.status, response.body.slice(0, 200)).toBe(status);
      expect(String(response.headers['content-type'])).toMatch(type);
      expectCommonHeaders(response, pathname);
      if (pathname.startsWith('/api/')) expect(response.headers['cache-control']).toBe('no-store');
      // Plain http: no HSTS (it would pin localhost to https).
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });

    it('the provider’s login page', async () => {
      const browser = anonymous(test);
      const { authorizationUrl } = (await browser.request('GET', `${PORTAL}/api/loginToken?titleCode=ADR`)).json<{ authorizationUrl: string }>();
      const page = await browser.follow(authorizationUrl);
      expect(page.response?.status).toBe(200);
      expect(page.response?.body).toMatch(/<form/);
      expectCommonHeaders(page.response as BrowserResponse, page.url.pathname);
    });

    it('the SPA source has no inline script (the CSP would block it)', () => {
      const html = readFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes = '', body = ''] of scripts) {
        expect(attributes).toMatch(/\bsrc=/);
        expect(body.trim()).toBe('');
      }
    });
  });

  it('sets the session and login cookies HttpOnly and SameSite=Lax, not Secure on plain http', async () => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    const token = await browser.request('GET', `${PORTAL}/api/loginToken?titleCode=ADR`);
    const binding = [token.headers['set-cookie']].flat().map(String);
    expect(binding.some((line) => line.startsWith('minside_login='))).toBe(true);
    const signedIn = await login(browser, { portal: PORTAL, email: 'digital@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' });
    const cookies = [...binding, ...[signedIn.headers['set-cookie']].flat().map(String)].filter((line) => line.includes('=') && !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line));
    const session = cookies.find((line) => line.startsWith('minside_session='));
    expect(session).toBeDefined();
    for (const line of cookies) {
      expect(line, line).toMatch(/;\s*HttpOnly/i);
      expect(line, line).toMatch(/;\s*SameSite=Lax/i);
      expect(line, line).toMatch(/;\s*Path=\//i);
      expect(line, line).not.toMatch(/;\s*Secure/i);
    }
  });
});

describe('web security behind https (PUBLIC_URL https://…)', () => {
  let test: TestApp;
  const origin = 'https://minside.adressa.no';
  beforeAll(async () => {
    // Behind a TLS-terminating proxy, as deployed: the forwarded proto says https.
    // Production never runs the test payment provider (issue 20): no provider, payments answer 503.
    test = await buildTestApp('pglite', { seed: false, config: { publicUrl: origin, trustProxy: true, paymentProvider: undefined } });
  });
  afterAll(() => test?.close());

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    test.app.inject({ method: 'GET', url: pathname, headers: { host: 'minside.adressa.no', 'x-forwarded-proto': 'https', ...headers } });

  it.each(['/api/title/ADR', '/api/finnes-ikke', '/healthz', '/idp/.well-known/openid-configuration'])('sends HSTS on %s', async (pathname) => {
    const response = await get(pathname);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('has no /_dev pages', async () => {
    expect((await get('/_dev/mail')).statusCode).toBe(404);
    expect((await get('/_dev/pay/tp_x')).statusCode).toBe(404);
  });

  it('sets cookies Secure, HttpOnly, SameSite=Lax with the __Host- prefix', async () => {
    const response = await get('/api/loginToken?titleCode=ADR');
    expect(response.statusCode, response.body).toBe(200);
    const cookies = [response.headers['set-cookie']].flat().map(String);
    expect(cookies.length).toBeGreaterThan(0);
    for (const line of cookies) {
      expect(line).toMatch(/^__Host-/);
      expect(line).toMatch(/;\s*Secure/i);
      expect(line).toMatch(/;\s*HttpOnly/i);
      expect(line).toMatch(/;\s*SameSite=Lax/i);
      expect(line).not.toMatch(/;\s*Domain=/i);
    }
  });
});
