import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import type { TestBrowser } from './browser.ts';
import type { RouteEntry } from '../src/plugins/route-table.ts';
import { anonymous, apiRoutes, call, fixtures, OPERATOR_TOKEN, operatorRoutes, personas, prepareSeeded, publicRoutes, routeKey, signIn, type Fixture, type Persona } from './security-support.ts';

// Issue 10.1: every /api route, read from the server's own route table, called without a
// session, with its owner's session and with another subscriber's session.

/** Whose session plays "another subscriber" for an owner. */
const otherOf: Record<Persona, Persona> = { papir: 'digital', digital: 'papir', familie: 'papir', admin: 'papir' };

describe.each(testDatabases)('authorization matrix on $name', ({ name }) => {
  let test: TestApp;
  let routes: RouteEntry[];
  let table: Record<string, Fixture>;
  const sessions = new Map<Persona, TestBrowser>();

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, config: { operatorToken: OPERATOR_TOKEN } });
    for (const persona of Object.keys(personas) as Persona[]) sessions.set(persona, await signIn(test, persona));
    table = fixtures(await prepareSeeded(test, sessions.get('papir') as TestBrowser));
    routes = apiRoutes(test);
  });
  afterAll(() => test?.close());

  const session = (persona: Persona) => sessions.get(persona) as TestBrowser;
  const fixtureOf = (route: RouteEntry) => table[routeKey(route)] as Fixture;
  // Routes without a fixture fail the first test; the others check what they can.
  const covered = () => routes.filter((route) => routeKey(route) in table);
  const sessionRoutes = () => covered().filter((route) => !(routeKey(route) in publicRoutes) && !operatorRoutes.has(routeKey(route)));

  it('reads a route table that holds every module, and every route has a fixture', () => {
    expect(routes.length).toBeGreaterThan(80);
    const missing = routes.map(routeKey).filter((key) => !(key in table));
    expect(missing, 'routes without a fixture in security-support.ts: decide their access and add one').toEqual([]);
    const stale = [...Object.keys(table), ...Object.keys(publicRoutes), ...operatorRoutes].filter((key) => !routes.some((route) => routeKey(route) === key));
    expect(stale, 'fixtures or table rows for routes that no longer exist').toEqual([]);
  });

  it('answers 401 without a session on every route that is neither public nor operator', async () => {
    const wrong: string[] = [];
    for (const route of sessionRoutes()) {
      const response = await call(anonymous(test), route, fixtureOf(route));
      if (response.status !== 401) wrong.push(`${routeKey(route)} → ${response.status} ${response.body.slice(0, 120)}`);
      else expect(response.json<{ code: string }>().code).toBeTruthy();
    }
    expect(wrong).toEqual([]);
    expect(sessionRoutes().length).toBeGreaterThan(50);
  });

  it('answers public routes without a session, and without a server error', async () => {
    const wrong: string[] = [];
    for (const route of covered().filter((entry) => routeKey(entry) in publicRoutes)) {
      const response = await call(anonymous(test), route, fixtureOf(route));
      // A public route may still refuse a bad credential of its own (a callback's signature).
      const asksForLogin = response.status === 401 && response.body.includes('NOT_AUTHENTICATED');
      if (asksForLogin || response.status >= 500) wrong.push(`${routeKey(route)} → ${response.status} ${response.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("never gives another subscriber the owner's things: 403 or 404, no e-mail, no account number", async () => {
    const owned = covered().filter((route) => fixtureOf(route).owned);
    expect(owned.length).toBeGreaterThan(25);
    const wrong: string[] = [];
    for (const route of owned) {
      const fixture = fixtureOf(route);
      const owner = personas[fixture.owner ?? 'papir'];
      const response = await call(session(otherOf[fixture.owner ?? 'papir']), route, fixture);
      const leaks = response.body.includes(owner.email) || response.body.includes(String(owner.accountNo));
      if (![403, 404].includes(response.status) || leaks) wrong.push(`${routeKey(route)} → ${response.status} ${response.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("lets the owner through on every session route (no 401/403 on the owner's own things, never a 5xx)", async () => {
    const wrong: string[] = [];
    for (const route of sessionRoutes()) {
      const fixture = fixtureOf(route);
      if (fixture.skipOwner) continue;
      const response = await call(session(fixture.owner ?? 'papir'), route, fixture);
      const refusedAsStranger = response.status === 401 || (fixture.owned && response.status === 403);
      // The owner reads their own things: proves the other subscriber's 404 is not a bad fixture.
      const ownReadFailed = fixture.owned && route.method === 'GET' && response.status !== 200;
      if (refusedAsStranger || ownReadFailed || response.status >= 500) wrong.push(`${routeKey(route)} → ${response.status} ${response.body.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses operator routes without the token and with a wrong one (401), and accepts the right one', async () => {
    const operator = covered().filter((route) => operatorRoutes.has(routeKey(route)));
    expect(operator.length).toBe(operatorRoutes.size);
    for (const route of operator) {
      const fixture = fixtureOf(route);
      for (const authorization of [undefined, 'Bearer wrong-token-wrong-token-wrong-token-0000', `Basic ${OPERATOR_TOKEN}`]) {
        // A subscriber's session is no operator either.
        const headers: Record<string, string> = authorization ? { authorization } : {};
        const response = await call(session('papir'), route, fixture, headers);
        expect(response.status, `${routeKey(route)} with ${authorization ?? 'no token'}: ${response.body}`).toBe(401);
      }
      const allowed = await call(anonymous(test), route, fixture, { authorization: `Bearer ${OPERATOR_TOKEN}` });
      expect(allowed.status, `${routeKey(route)}: ${allowed.body}`).not.toBe(401);
      expect(allowed.status, `${routeKey(route)}: ${allowed.body}`).toBeLessThan(500);
    }
  });
});

describe('operator routes without OPERATOR_TOKEN', () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp('pglite', { seed: false });
  });
  afterAll(() => test?.close());

  it('do not exist (404), whatever token is presented', async () => {
    const routes = apiRoutes(test).filter((route) => operatorRoutes.has(routeKey(route)));
    expect(routes.length).toBe(operatorRoutes.size);
    const table = fixtures({ papirInvoiceNo: 1, creditNoteNumber: 1, ehfInvoiceNo: 1, deliveryChangeId: 'x', exportId: 'x', paymentId: 'x', today: '2026-12-01' });
    for (const route of routes) {
      for (const headers of [{}, { authorization: `Bearer ${OPERATOR_TOKEN}` }] as Record<string, string>[]) {
        const response = await call(anonymous(test), route, table[routeKey(route)] as Fixture, headers);
        expect(response.status, `${routeKey(route)}: ${response.body}`).toBe(404);
      }
    }
  });
});
