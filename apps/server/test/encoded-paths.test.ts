import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, errorMessages } from '@minside/domain';
import type { RouteEntry } from '../src/plugins/route-table.ts';
import type { TestBrowser } from './browser.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { httpRequest, type HttpAnswer } from './reliability-support.ts';
import { apiRoutes, fixtures, OPERATOR_TOKEN, PORTAL, prepareSeeded, routeKey, signIn, snapshot, urlOf, type Fixture } from './security-support.ts';

// Issue 20.1: the edge rules (CSRF, input hygiene, no-store) follow the route the router
// matched, not the spelling of the URL. Every state-changing /api route of the server's own
// route table is called with every other spelling of its path a client can send; each must
// end where the plain path ends (403 CROSS_SITE_REQUEST for a foreign Origin, 400 for a lone
// surrogate) or not route at all (404), and the database must not change.
//
// The calls go over a real socket: `app.inject` (light-my-request) resolves `..` and `.`
// before the router sees them, which a client on the network does not.
//
// How Fastify 5 routes each spelling with the settings in app.ts (Fastify's defaults:
// caseSensitive true, ignoreTrailingSlash false, ignoreDuplicateSlashes false, and neither
// Node nor find-my-way resolves dot segments):
//   encoded unreserved characters (/%61pi/…, /api/%66amily/…)  routes: find-my-way decodes the path
//   double-encoded (/%2561pi/…) or an encoded slash (/api%2Ffamily/…)   404: decoded once, %2F stays data
//   doubled slashes (//api/…, /api//family/…)                            404
//   dot segments (/x/../api/…, /api/./family/…)                          404
//   another case (/API/…)                                                404
//   a trailing slash (/api/family/leave/)                                404, unless the route table has that spelling too
//                                                                        (the SPA's old clients call POST /api/verify/ and a few more)
// "404" is 405 METHOD_NOT_ALLOWED where the spelling is a route for other methods only
// (plugins/errors.ts sendNoRoute): `PUT /api/account/` is `GET /api/account/:id` with an empty id.

const FOREIGN_ORIGIN = 'https://evil.example';

/** Routes that never parse their body as JSON, with what they answer instead of the 400, and why. */
const rawBodyRoutes: Record<string, { status: number; code: string; reason: string }> = {
  'POST /api/payment/callback/vipps': { status: 401, code: 'INVALID_SIGNATURE', reason: "the provider's webhook keeps the exact bytes for its signature, and an unsigned body is refused first" },
};
const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Variant {
  name: string;
  /** The path as sent, from the plain path (always starting with `/api/`). */
  spell(path: string): string;
  /** Whether Fastify routes this spelling to the plain path's route (see the table above). */
  routes(route: RouteEntry, table: readonly RouteEntry[]): boolean;
}

const hex = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const tail = (path: string) => path.slice('/api/'.length);

const variants: Variant[] = [
  { name: 'plain', spell: (path) => path, routes: () => true },
  { name: 'encoded prefix', spell: (path) => `/%61pi/${tail(path)}`, routes: () => true },
  { name: 'every letter of the prefix encoded', spell: (path) => `/%61%70%69/${tail(path)}`, routes: () => true },
  { name: 'encoded second segment', spell: (path) => `/api/${hex(tail(path)[0] ?? 'x')}${tail(path).slice(1)}`, routes: () => true },
  { name: 'double-encoded prefix', spell: (path) => `/%2561pi/${tail(path)}`, routes: () => false },
  { name: 'encoded slash', spell: (path) => `/api%2F${tail(path)}`, routes: () => false },
  { name: 'doubled leading slash', spell: (path) => `/${path}`, routes: () => false },
  { name: 'doubled inner slash', spell: (path) => `/api//${tail(path)}`, routes: () => false },
  { name: 'dot-dot segment', spell: (path) => `/x/..${path}`, routes: () => false },
  { name: 'dot segment', spell: (path) => `/api/./${tail(path)}`, routes: () => false },
  { name: 'upper case', spell: (path) => `/API/${tail(path)}`, routes: () => false },
  { name: 'trailing slash', spell: (path) => `${path}/`, routes: (route, table) => table.some((other) => other.method === route.method && other.url === `${route.url}/`) },
];

/** What is missing of the headers every /api answer carries (CSP, nosniff, no-store). */
function missingEdgeHeaders(answer: HttpAnswer): string[] {
  return [
    ...(/frame-ancestors 'none'/.test(String(answer.headers['content-security-policy'] ?? '')) ? [] : ['CSP']),
    ...(answer.headers['x-content-type-options'] === 'nosniff' ? [] : ['nosniff']),
    ...(answer.headers['cache-control'] === 'no-store' ? [] : [`no-store (cache-control: ${answer.headers['cache-control']})`]),
  ];
}

describe.each(testDatabases)('encoded and other spellings of /api paths ($name)', ({ name }) => {
  let test: TestApp;
  let papir: TestBrowser;
  let table: Record<string, Fixture>;
  let port: number;
  const host = new URL(PORTAL).host;

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, config: { operatorToken: OPERATOR_TOKEN } });
    papir = await signIn(test, 'papir');
    table = fixtures(await prepareSeeded(test, papir));
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    port = (test.app.server.address() as AddressInfo).port;
  });
  afterAll(() => test?.close());

  const cookie = () => [...papir.cookies(host)].map(([cookieName, value]) => `${cookieName}=${value}`).join('; ');
  // Logout last: should it ever get through, the calls after it would all answer 401 and hide what they do.
  const unsafeRoutes = () =>
    apiRoutes(test)
      .filter((route) => unsafeMethods.has(route.method))
      .sort((a, b) => Number(routeKey(a) === 'POST /api/logout') - Number(routeKey(b) === 'POST /api/logout'));
  /** The plain path and query of a route, from its fixture. */
  const target = (route: RouteEntry) => {
    const url = new URL(urlOf(route, table[routeKey(route)] as Fixture));
    return { path: url.pathname, search: url.search };
  };
  const send = (method: string, path: string, headers: Record<string, string>, body: string) =>
    httpRequest(port, { method, host, path, headers: { cookie: cookie(), 'content-type': 'application/json', ...headers }, body });

  it('has a fixture for every state-changing /api route', () => {
    expect(unsafeRoutes().length).toBeGreaterThan(50);
    expect(
      unsafeRoutes()
        .map(routeKey)
        .filter((key) => !(key in table)),
    ).toEqual([]);
  });

  it('refuses a foreign Origin on every spelling of every state-changing /api route (403, or 404/405 where it does not route), and changes nothing', async () => {
    const before = await snapshot(test.database, { except: ['user_session'] });
    const wrong: string[] = [];
    const routeTable = test.app.routeTable();
    for (const route of unsafeRoutes()) {
      const fixture = table[routeKey(route)] as Fixture;
      const { path, search } = target(route);
      for (const variant of variants) {
        const sent = variant.spell(path) + search;
        const answer = await send(route.method, sent, { origin: FOREIGN_ORIGIN }, JSON.stringify(fixture.body ?? {}));
        const body = JSON.parse(answer.body || '{}') as { code?: string; message?: string };
        // Where it does not route: 404, or 405 when the spelling is a route for other methods
        // (`PUT /api/account/` is `GET /api/account/:id` with an empty id).
        const expected = variant.routes(route, routeTable)
          ? [{ status: 403, code: errorCodes.crossSiteRequest, message: errorMessages.crossSiteRequest }]
          : [
              { status: 404, code: errorCodes.notFound, message: errorMessages.notFound },
              { status: 405, code: errorCodes.methodNotAllowed, message: errorMessages.methodNotAllowed },
            ];
        const missing = missingEdgeHeaders(answer);
        if (!expected.some(({ status, code, message }) => answer.status === status && body.code === code && body.message === message) || missing.length > 0) {
          wrong.push(`${route.method} ${sent} (${variant.name}) → ${answer.status} ${answer.body.slice(0, 100)}${missing.length > 0 ? ` without ${missing.join(', ')}` : ''}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(test.database, { except: ['user_session'] })).toEqual(before);
  });

  it('refuses a lone surrogate in the JSON body on every spelling that routes (400 VALIDATION_FAILED), and changes nothing', async () => {
    // A session of its own: a regression in the test before could have signed papir out.
    papir = await signIn(test, 'papir');
    const before = await snapshot(test.database, { except: ['user_session'] });
    const wrong: string[] = [];
    const routeTable = test.app.routeTable();
    for (const route of unsafeRoutes()) {
      const fixture = table[routeKey(route)] as Fixture;
      const { path, search } = target(route);
      // The fixture's own body plus one field holding U+D800 without its pair ("\ud800" is valid JSON).
      const body = JSON.stringify({ ...(fixture.body as object), hygiene: 'x' }).replace('"hygiene":"x"', '"hygiene":"\\ud800"');
      const headers = {
        'sec-fetch-site': 'same-origin',
        ...(routeKey(route).includes('/operator/') || routeKey(route).startsWith('POST /api/segment/') ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : {}),
      };
      const expected = rawBodyRoutes[routeKey(route)] ?? { status: 400, code: errorCodes.validation };
      for (const variant of variants.filter((candidate) => candidate.routes(route, routeTable))) {
        const sent = variant.spell(path) + search;
        const answer = await send(route.method, sent, headers, body);
        const code = (JSON.parse(answer.body || '{}') as { code?: string }).code;
        const missing = missingEdgeHeaders(answer);
        if (answer.status !== expected.status || code !== expected.code || missing.length > 0) {
          wrong.push(`${route.method} ${sent} (${variant.name}) → ${answer.status} ${answer.body.slice(0, 100)}${missing.length > 0 ? ` without ${missing.join(', ')}` : ''}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(test.database, { except: ['user_session'] })).toEqual(before);
  });

  it('answers every /api GET route no-store on every spelling that routes', async () => {
    const gets = apiRoutes(test).filter((route) => route.method === 'GET');
    expect(gets.length).toBeGreaterThan(30);
    const routeTable = test.app.routeTable();
    const wrong: string[] = [];
    for (const route of gets) {
      const { path, search } = target(route);
      const operator: Record<string, string> = routeKey(route).includes('/operator/') ? { authorization: `Bearer ${OPERATOR_TOKEN}` } : {};
      for (const variant of variants.filter((candidate) => candidate.routes(route, routeTable))) {
        const sent = variant.spell(path) + search;
        const answer = await httpRequest(port, { method: 'GET', host, path: sent, headers: { cookie: cookie(), 'sec-fetch-site': 'same-origin', ...operator } });
        if (answer.status >= 500 || answer.headers['cache-control'] !== 'no-store') wrong.push(`GET ${sent} (${variant.name}) → ${answer.status} cache-control: ${answer.headers['cache-control']}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
