import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { callbackBody, injectTransport, login, loginAtProvider, submitLoginForm, TestBrowser, type BrowserResponse } from './browser.ts';
import { createTestRedis, testRedisUrl, type TestRedis } from './redis-support.ts';
import { LOGIN_NOT_STARTED_ERROR, systemClock } from '@minside/domain';

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60 * 1000;

// Sessions and login tokens in the database on every test database, and in Redis (ADR 018)
// once: the same assertions hold for both stores.
const storageCases: { name: 'pglite' | 'postgres'; storage: 'database' | 'redis' }[] = [
  ...testDatabases.map(({ name }) => ({ name, storage: 'database' as const })),
  ...(testRedisUrl ? [{ name: 'pglite' as const, storage: 'redis' as const }] : []),
];

describe.each(storageCases)('login, sessions and ownership ($name, sessions in $storage)', ({ name, storage }) => {
  let test: TestApp;
  let redis: TestRedis | undefined;
  let clockOffset = 0;
  const now = () => new Date(systemClock().getTime() + clockOffset);

  beforeAll(async () => {
    redis = storage === 'redis' ? createTestRedis() : undefined;
    test = await buildTestApp(name, { seed: true, now, ...(redis ? { config: redis.config } : {}) });
  });
  afterAll(async () => {
    await test.close();
    await redis?.dispose();
  });
  beforeEach(async () => {
    clockOffset = 0;
    await test.database.rows(sql`delete from user_session`);
    await redis?.deleteKeys('session:*');
  });

  const browser = () => new TestBrowser(() => injectTransport(test.app));
  const sessionCount = async () => (redis ? (await redis.keys('session:*')).length : Number((await test.database.rows<{ count: string }>(sql`select count(*) as count from user_session`))[0]?.count));
  const signIn = async (email: string, extra: { titleCode?: string; returnTo?: string } = {}) => {
    const b = browser();
    const response = await login(b, { portal: PORTAL, email, password: DEMO_PASSWORD, titleCode: 'ADR', ...extra });
    expect(response.status, response.body).toBe(200);
    return b;
  };
  const expectRefused = (response: BrowserResponse, code: string) => {
    expect(response.status, response.body).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.json()).toMatchObject({ code });
    expect(response.json<{ message: string }>().message).toMatch(/logg/i);
  };

  describe('login', () => {
    it('signs papir in and returns user, account, subscription and the return target', async () => {
      const b = browser();
      const response = await login(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR', returnTo: '/fakturaoversikt?side=2#siste' });
      expect(response.status, response.body).toBe(200);
      const body = response.json<Record<string, Record<string, unknown>>>();
      expect(body['user']).toMatchObject({ spidId: 'demo-papir', givenName: 'Kari', familyName: 'Nordmann', displayName: 'Kari Nordmann', email: 'papir@minside.test' });
      expect(body['account']).toMatchObject({ ariaAccountNo: 40_000_001, spidId: 'demo-papir', firstTitleCode: 'ADR' });
      expect(body['subscription']).toMatchObject({ titleCode: 'ADR', planProductType: 'COMBO', paymentMethod: 'AVTALEGIRO', billingPeriod: 'MONTH', instStatusCode: 1 });
      expect(body['returnTo']).toBe('/fakturaoversikt?side=2#siste');

      const setCookie = String(response.headers['set-cookie']);
      expect(setCookie).toMatch(/minside_session=[^;]+;.*HttpOnly/i);
      expect(setCookie).toMatch(/SameSite=Lax/i);
      expect(setCookie).not.toMatch(/Secure/i);

      const session = await b.request('GET', `${PORTAL}/api/session?titleCode=ADR`);
      expect(session.status).toBe(200);
      expect(session.json()).toMatchObject({ user: { spidId: 'demo-papir' }, title: { titleCode: 'ADR' }, subscription: { ariaAccountNo: 40_000_001 } });
    });

    it('asks the provider for openid offline_access with PKCE S256, state and nonce', async () => {
      const response = await browser().request('GET', `${PORTAL}/api/loginToken?returnTo=%2F`);
      expect(response.status).toBe(200);
      const { loginToken, authorizationUrl } = response.json<{ loginToken: string; authorizationUrl: string }>();
      const url = new URL(authorizationUrl);
      expect(url.origin + url.pathname).toBe('http://localhost:3000/idp/auth');
      expect(url.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'offline_access']));
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('state')).toBe(loginToken);
      expect(url.searchParams.get('nonce')).toMatch(/.{20,}/);
      expect(url.searchParams.get('redirect_uri')).toBe(`${PORTAL}/callback`);
      expect(String(response.headers['set-cookie'])).toMatch(/minside_login=.*HttpOnly/i);
    });

    it('starts the same login from a plain link (/api/login/start): 303 to the provider, and the login completes back at the return target', async () => {
      const b = browser();
      const started = await b.request('GET', `${PORTAL}/api/login/start?returnTo=${encodeURIComponent('/kundeservice?sok=ferie')}&titleCode=ADR`);
      expect(started.status, started.body).toBe(303);
      expect(String(started.headers['set-cookie'])).toMatch(/minside_login=.*HttpOnly/i);
      const authorizationUrl = String(started.headers['location']);
      const url = new URL(authorizationUrl);
      expect(url.origin + url.pathname).toBe('http://localhost:3000/idp/auth');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('state')).toMatch(/.{20,}/);

      const callback = await submitLoginForm(b, authorizationUrl, { email: 'papir@minside.test', password: DEMO_PASSWORD });
      const completed = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expect(completed.status, completed.body).toBe(200);
      expect(completed.json()).toMatchObject({ user: { spidId: 'demo-papir' }, returnTo: '/kundeservice?sok=ferie' });
      // Bound to the browser that followed the link, as a login from loginToken is.
      const { callback: other } = await loginAtProvider(browser(), { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      expectRefused(await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(other) }), 'LOGIN_STATE_INVALID');
    });

    it('tells the browser that started a login where it returns to (for /callback after "Avbryt"), and nobody else', async () => {
      const b = browser();
      const started = await b.request('GET', `${PORTAL}/api/login/start?returnTo=%2Fvilkaar`);
      const state = new URL(String(started.headers['location'])).searchParams.get('state') ?? '';
      const own = await b.request('GET', `${PORTAL}/api/login/return?state=${encodeURIComponent(state)}`);
      expect(own.status, own.body).toBe(200);
      expect(own.json()).toEqual({ returnTo: '/vilkaar' });
      // Another browser (no binding cookie, or its own), and a state never issued: refused alike.
      expectRefused(await browser().request('GET', `${PORTAL}/api/login/return?state=${encodeURIComponent(state)}`), 'LOGIN_STATE_INVALID');
      const other = browser();
      await other.request('GET', `${PORTAL}/api/loginToken`);
      expectRefused(await other.request('GET', `${PORTAL}/api/login/return?state=${encodeURIComponent(state)}`), 'LOGIN_STATE_INVALID');
      expectRefused(await b.request('GET', `${PORTAL}/api/login/return?state=${'x'.repeat(43)}`), 'LOGIN_STATE_INVALID');
      expect((await b.request('GET', `${PORTAL}/api/login/return`)).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      // The same for a login the script started (loginToken) in the same browser.
      const token = (await b.request('GET', `${PORTAL}/api/loginToken?returnTo=%2Fkundeservice`)).json<{ loginToken: string }>();
      expect((await b.request('GET', `${PORTAL}/api/login/return?state=${encodeURIComponent(token.loginToken)}`)).json()).toEqual({ returnTo: '/kundeservice' });
    });

    it('refuses a link whose return target is on another site, with its API answer and no login started', async () => {
      for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        const response = await browser().request('GET', `${PORTAL}/api/login/start?returnTo=${encodeURIComponent(returnTo)}`);
        expect(response.status, returnTo).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      const elsewhere = await browser().request('GET', 'http://evil.example/api/login/start');
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.json()).toMatchObject({ code: 'UNKNOWN_PORTAL_HOST' });
    });

    it('refuses a return target on another site', async () => {
      for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        const response = await browser().request('GET', `${PORTAL}/api/loginToken?returnTo=${encodeURIComponent(returnTo)}`);
        expect(response.status, returnTo).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
    });

    it('refuses a state that was never issued, and creates no session', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const forged = await b.request('POST', `${PORTAL}/api/handlecode`, { json: { ...callbackBody(callback), state: 'x'.repeat(43) } });
      expectRefused(forged, 'LOGIN_STATE_INVALID');
      expect(await sessionCount()).toBe(0);
      // The code itself was good: only the state made the difference.
      expect((await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) })).status).toBe(200);
    });

    it('refuses a state of another login of the same browser, and creates no session', async () => {
      const b = browser();
      const other = (await b.request('GET', `${PORTAL}/api/loginToken`)).json<{ loginToken: string }>();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const swapped = await b.request('POST', `${PORTAL}/api/handlecode`, { json: { ...callbackBody(callback), state: other.loginToken } });
      expectRefused(swapped, 'LOGIN_FAILED');
      expect(await sessionCount()).toBe(0);
    });

    it('refuses a replayed callback: the login token is single-use', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const first = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expect(first.status).toBe(200);
      const replay = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expectRefused(replay, 'LOGIN_STATE_INVALID');
      expect(await sessionCount()).toBe(1);
    });

    it('refuses a used code presented with a fresh login token (PKCE and one-time codes)', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      expect((await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) })).status).toBe(200);
      const fresh = (await b.request('GET', `${PORTAL}/api/loginToken`)).json<{ loginToken: string }>();
      const replay = await b.request('POST', `${PORTAL}/api/handlecode`, { json: { ...callbackBody(callback), state: fresh.loginToken } });
      expectRefused(replay, 'LOGIN_FAILED');
      expect(await sessionCount()).toBe(1);
    });

    it('refuses an ID token whose nonce belongs to another login', async () => {
      const b = browser();
      const first = (await b.request('GET', `${PORTAL}/api/loginToken`)).json<{ authorizationUrl: string }>();
      const second = (await b.request('GET', `${PORTAL}/api/loginToken`)).json<{ authorizationUrl: string }>();
      // The second login's request, carrying the first one's nonce: the code is then issued
      // for an ID token with a nonce the second login did not ask for.
      const tampered = new URL(second.authorizationUrl);
      tampered.searchParams.set('nonce', new URL(first.authorizationUrl).searchParams.get('nonce') ?? '');
      const { submitLoginForm } = await import('./browser.ts');
      const callback = await submitLoginForm(b, tampered.href, { email: 'papir@minside.test', password: DEMO_PASSWORD });
      const response = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expectRefused(response, 'LOGIN_FAILED');
      expect(await sessionCount()).toBe(0);
    });

    it('refuses an expired login token', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      clockOffset = 31 * MINUTE;
      const response = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expectRefused(response, 'LOGIN_EXPIRED');
      expect(await sessionCount()).toBe(0);
    });

    it('refuses a callback posted from another browser than the one that started the login', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const response = await browser().request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
      expectRefused(response, 'LOGIN_STATE_INVALID');
      expect(await sessionCount()).toBe(0);
      // The refusal did not use up the login of the browser that started it.
      expect((await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) })).status).toBe(200);
    });

    it('refuses to start a login on a host the portal does not serve', async () => {
      const response = await browser().request('GET', 'http://evil.example/api/loginToken');
      expect(response.status).toBe(400);
      expect(response.json()).toMatchObject({ code: 'UNKNOWN_PORTAL_HOST', message: 'Min Side er ikke tilgjengelig på denne adressen.' });
    });

    it('refuses an identity id that is not the signed-in subject', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const response = await b.request('POST', `${PORTAL}/api/handlecode`, { json: { ...callbackBody(callback), identityId: 'demo-digital' } });
      expectRefused(response, 'IDENTITY_MISMATCH');
      expect(await sessionCount()).toBe(0);
    });

    it('accepts the same callback at handleLoginToken', async () => {
      const b = browser();
      const { callback } = await loginAtProvider(b, { portal: PORTAL, email: 'digital@minside.test', password: DEMO_PASSWORD });
      const response = await b.request('POST', `${PORTAL}/api/handleLoginToken`, { json: { ...callbackBody(callback), identityId: 'demo-digital' } });
      expect(response.status, response.body).toBe(200);
      expect(response.json()).toMatchObject({ user: { spidId: 'demo-digital' } });
    });

    it('rejects malformed bodies with 400 and a stable code', async () => {
      for (const json of [{}, { code: 'x' }, { code: 1, state: 2 }, { code: '', state: '' }]) {
        const response = await browser().request('POST', `${PORTAL}/api/handlecode`, { json });
        expect(response.status).toBe(400);
        expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
    });
  });

  describe('sessions', () => {
    it('answers 401 without a session, and with an unknown cookie', async () => {
      const anonymous = await browser().request('GET', `${PORTAL}/api/session`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'NOT_AUTHENTICATED', message: 'Du må logge inn for å fortsette.' });
      const forged = await browser().request('GET', `${PORTAL}/api/session`, { headers: { cookie: 'minside_session=forged' } });
      expect(forged.status).toBe(401);
    });

    it('ends after 30 idle minutes, and each request keeps it alive', async () => {
      const b = await signIn('digital@minside.test');
      clockOffset = 29 * MINUTE;
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(200);
      clockOffset = 58 * MINUTE;
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(200);
      clockOffset = 58 * MINUTE + 30 * MINUTE;
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
      expect(await sessionCount()).toBe(0);
    });

    it('ends 12 hours after login however active the user is', async () => {
      const b = await signIn('digital@minside.test');
      for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
        clockOffset = minutes * MINUTE;
        expect((await b.request('GET', `${PORTAL}/api/session`)).status, `at ${minutes} min`).toBe(200);
      }
      clockOffset = 12 * 60 * MINUTE;
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
    });

    it('logout ends the session on the server and returns the provider logout URL', async () => {
      const b = await signIn('papir@minside.test');
      const stolen = b.clone();
      const response = await b.request('POST', `${PORTAL}/api/logout`, { json: {} });
      expect(response.status).toBe(200);
      const { endSessionUrl } = response.json<{ endSessionUrl: string }>();
      const url = new URL(endSessionUrl);
      expect(url.origin + url.pathname).toBe('http://localhost:3000/idp/session/end');
      expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
      expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PORTAL}/kundeservice`);
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
      // Not only the cookie is gone: the session itself is, so a copied cookie is worthless.
      expect((await stolen.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
      expect(await sessionCount()).toBe(0);
      // Logging out twice is harmless.
      const again = await b.request('POST', `${PORTAL}/api/logout`, { json: {} });
      expect(again.json()).toEqual({ endSessionUrl: null });
    });

    it('gives every login a new session id', async () => {
      const b = await signIn('papir@minside.test');
      const firstId = b.cookies(new URL(PORTAL).host).get('minside_session');
      await login(b, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD });
      const secondId = b.cookies(new URL(PORTAL).host).get('minside_session');
      expect(secondId).toBeTruthy();
      expect(secondId).not.toBe(firstId);
      // The earlier session ended with the new login: its cookie is worth nothing now.
      const old = await browser().request('GET', `${PORTAL}/api/session`, { headers: { cookie: `minside_session=${firstId}` } });
      expect(old.status).toBe(401);
      expect(await sessionCount()).toBe(1);
    });

    it('refuses state-changing calls from another site or in another format, and changes nothing', async () => {
      const b = await signIn('papir@minside.test');
      const refusals: [Record<string, string>, number, string][] = [
        [{ 'sec-fetch-site': 'same-site' }, 403, 'CROSS_SITE_REQUEST'],
        [{ 'sec-fetch-site': 'cross-site' }, 403, 'CROSS_SITE_REQUEST'],
        [{ origin: 'https://www.adressa.no' }, 403, 'CROSS_SITE_REQUEST'],
        [{ origin: 'null' }, 403, 'CROSS_SITE_REQUEST'],
      ];
      for (const [headers, status, code] of refusals) {
        const response = await b.request('POST', `${PORTAL}/api/logout`, { json: {}, headers });
        expect(response.status, JSON.stringify(headers)).toBe(status);
        expect(response.json()).toMatchObject({ code });
      }
      const form = await b.request('POST', `${PORTAL}/api/logout`, { form: {} });
      expect(form.status).toBe(415);
      const bodyless = await b.request('POST', `${PORTAL}/api/logout`);
      expect(bodyless.status).toBe(415);
      expect((await b.request('GET', `${PORTAL}/api/session`)).status).toBe(200);
      // The SPA's own calls pass: same origin, JSON.
      const own = await b.request('POST', `${PORTAL}/api/logout`, { json: {}, headers: { 'sec-fetch-site': 'same-origin', origin: PORTAL } });
      expect(own.status).toBe(200);
    });

    it('shows the subscription of the title the browser is on', async () => {
      const b = await signIn('varden@minside.test', { titleCode: 'VAR' });
      expect((await b.request('GET', `${PORTAL}/api/session?titleCode=VAR`)).json()).toMatchObject({ title: { titleCode: 'VAR' }, subscription: { titleCode: 'VAR' } });
      expect((await b.request('GET', `${PORTAL}/api/session?titleCode=ADR`)).json()).toMatchObject({ title: { titleCode: 'ADR' }, subscription: null });
      // Without a code the host decides (adresseavisen.localhost → ADR); the group fallback shows the first title's.
      expect((await b.request('GET', `${PORTAL}/api/session`)).json()).toMatchObject({ title: { titleCode: 'ADR' } });
      expect((await b.request('GET', `${PORTAL}/api/session?titleCode=POL`)).json()).toMatchObject({ title: { titleCode: 'POL' }, subscription: { titleCode: 'VAR' } });
    });
  });

  describe('accounts and subscriptions', () => {
    it('answers 404 for another user’s account and subscription, exactly like a missing one', async () => {
      const b = await signIn('digital@minside.test');
      const missing = await b.request('GET', `${PORTAL}/api/account/49999999`);
      for (const path of ['/api/account/40000001', '/api/subscription/40000001/ADR', '/api/subscription/40000013/VAR']) {
        const response = await b.request('GET', `${PORTAL}${path}`);
        expect(response.status, path).toBe(404);
        expect(response.body).toBe(missing.body);
      }
      const put = await b.request('PUT', `${PORTAL}/api/account`, { json: { ariaAccountNo: 40_000_001, firstTitleCode: 'VAR' } });
      expect(put.status).toBe(404);
      const [papirAccount] = await test.database.rows<{ first_title_code: string }>(sql`select first_title_code from account where aria_account_no = 40000001`);
      expect(papirAccount?.first_title_code).toBe('ADR');
    });

    it('serves the caller’s own account and subscription with the §3 fields', async () => {
      const b = await signIn('admin@firma.test');
      const accountResponse = await b.request('GET', `${PORTAL}/api/account/40000006`);
      expect(accountResponse.json()).toEqual({ ariaAccountNo: 40_000_006, accountBalance: 0, firstTitleCode: 'ADR', spidId: 'demo-admin' });
      const subscriptionResponse = await b.request('GET', `${PORTAL}/api/subscription/40000006/adr`);
      expect(subscriptionResponse.json()).toMatchObject({
        ariaPlanID: 'ADR-BEDRIFT-DIGITAL-Y',
        planProductType: 'DIGITAL',
        eligibleForSharing: true,
        instStatusCode: 1,
        subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: 'admin' },
        planName: 'Bedrift digital',
        companyDomain: 'firma.test',
      });
    });

    it('shows a shared subscription with its owner', async () => {
      const b = await signIn('familiemedlem@minside.test');
      const response = await b.request('GET', `${PORTAL}/api/subscription/40000005/ADR`);
      expect(response.json()).toMatchObject({ eligibleForSharing: false, instStatusCode: 61, sharedFrom: { ownerName: 'Per Olsen' } });
    });

    it('answers 401 to every account call without a session', async () => {
      const anonymous = browser();
      for (const [method, path, json] of [
        ['GET', '/api/account/40000001', undefined],
        ['GET', '/api/subscription/40000001/ADR', undefined],
        ['PUT', '/api/account', { ariaAccountNo: 40_000_001, firstTitleCode: 'ADR' }],
        ['POST', '/api/account', { accountBalance: 0, firstTitleCode: 'ADR' }],
      ] as const) {
        const response = await anonymous.request(method, `${PORTAL}${path}`, json === undefined ? {} : { json });
        expect(response.status, `${method} ${path}`).toBe(401);
      }
    });

    it('lets a signed-in user without an account create one, once, starting at balance 0', async () => {
      const b = await signIn('ny@minside.test');
      const session = (await b.request('GET', `${PORTAL}/api/session`)).json();
      expect(session).toMatchObject({ account: null, subscription: null });
      const accounts = async () => Number((await test.database.rows<{ count: string }>(sql`select count(*) as count from account`))[0]?.count);
      const initially = await accounts();

      const credit = await b.request('POST', `${PORTAL}/api/account`, { json: { accountBalance: 100_00, spidId: 'demo-ny', firstTitleCode: 'ADR' } });
      expect(credit.status).toBe(400);
      expect(credit.json()).toMatchObject({ code: 'INVALID_ACCOUNT_BALANCE' });
      const someoneElse = await b.request('POST', `${PORTAL}/api/account`, { json: { accountBalance: 0, spidId: 'demo-papir', firstTitleCode: 'ADR' } });
      expect(someoneElse.status).toBe(404);
      const unknownTitle = await b.request('POST', `${PORTAL}/api/account`, { json: { accountBalance: 0, firstTitleCode: 'XX' } });
      expect(unknownTitle.status).toBe(400);
      expect(unknownTitle.json()).toMatchObject({ code: 'UNKNOWN_TITLE' });
      // None of the refused calls above created an account.
      expect(await accounts()).toBe(initially);

      const created = await b.request('POST', `${PORTAL}/api/account`, { json: { accountBalance: 0, spidId: 'demo-ny', firstTitleCode: 'adr' } });
      expect(created.status, created.body).toBe(201);
      const { ariaAccountNo } = created.json<{ ariaAccountNo: number }>();
      expect(ariaAccountNo).toBeGreaterThanOrEqual(50_000_000);
      expect(await accounts()).toBe(initially + 1);
      const again = await b.request('POST', `${PORTAL}/api/account`, { json: { accountBalance: 0, firstTitleCode: 'ADR' } });
      expect(again.status).toBe(409);
      expect((await b.request('GET', `${PORTAL}/api/account/${ariaAccountNo}`)).json()).toMatchObject({ ariaAccountNo, firstTitleCode: 'ADR', accountBalance: 0 });
      await test.database.rows(sql`delete from account where aria_account_no = ${ariaAccountNo}`);
    });
  });
});

describe('session cookies behind https', () => {
  it('are __Host- prefixed and Secure when PUBLIC_URL is https', async () => {
    // Behind a load balancer that terminates TLS and says so in X-Forwarded-Proto.
    const test = await buildTestApp('pglite', { seed: true, config: { publicUrl: 'https://minside.adressa.no', trustProxy: true, paymentProvider: undefined } });
    try {
      const portal = 'https://minside.adressa.no';
      const b = new TestBrowser(() => injectTransport(test.app));
      const token = await b.request('GET', `${portal}/api/loginToken`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(String(token.headers['set-cookie'])).toMatch(/^__Host-minside_login=.*Secure/i);
      expect(new URL(token.json<{ authorizationUrl: string }>().authorizationUrl).searchParams.get('redirect_uri')).toBe(`${portal}/callback`);
      // In production, loopback is no portal origin: a code is never sent to a visitor's own machine.
      const loopback = await b.request('GET', 'http://localhost:3000/api/loginToken');
      expect(loopback.json()).toMatchObject({ code: 'UNKNOWN_PORTAL_HOST' });
    } finally {
      await test.close();
    }
  });
});

describe('a login the provider cannot start (its discovery document does not answer)', () => {
  it('GET /api/login/start sends the browser to /callback, which says so, and records no login; loginToken answers 503', async () => {
    // Nothing listens on port 9 (discard) here: discovery fails at once.
    const test = await buildTestApp('pglite', { seed: true, config: { oidcIssuer: 'http://127.0.0.1:9/' } });
    try {
      const attempts = async () => Number((await test.database.rows<{ count: string }>(sql`select count(*) as count from login_attempt`))[0]?.count);
      const before = await attempts();
      const b = new TestBrowser(() => injectTransport(test.app));
      const started = await b.request('GET', `${PORTAL}/api/login/start?returnTo=%2Fkundeservice`);
      expect(started.status, started.body).toBe(303);
      expect(started.headers['location']).toBe(`/callback?error=${LOGIN_NOT_STARTED_ERROR}&returnTo=%2Fkundeservice`);
      expect(started.headers['set-cookie']).toBeUndefined();
      expect(await attempts()).toBe(before);
      const token = await b.request('GET', `${PORTAL}/api/loginToken`);
      expect(token.status).toBe(503);
      expect(token.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    } finally {
      await test.close();
    }
  });
});
