import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { idpAccount, idpLoginFailure, idpPayload } from '../src/db/schema.ts';
import { createPayloadAdapterFactory } from '../src/identity/provider/adapter.ts';
import { embeddedClientCredentials, upsertIdentityAccount } from '../src/identity/provider/index.ts';
import { loadProviderSecrets } from '../src/identity/provider/secrets.ts';
import { createScratchDatabase, testDatabases, type ScratchDatabase } from './helper.ts';
import { systemClock } from '@minside/domain';

const ISSUER = 'http://localhost:3000/idp';
const CALLBACK = 'http://adresseavisen.localhost:3000/callback';
const PASSWORD = 'riktig-passord-123';
const KARI = { id: 'idp-kari', email: 'kari@example.no', password: PASSWORD, givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567' };
const INVALID = 'Feil e-post eller passord.';
const THROTTLED = 'For mange innloggingsforsøk. Vent et minutt og prøv igjen.';

/** Cookies by name and path, sent like a browser sends them to one host. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const attribute = (key: string) => attributes.find((part) => part.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
      const path = attribute('path') ?? '/';
      const expires = attribute('expires');
      const maxAge = attribute('max-age');
      const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= systemClock().getTime());
      if (gone) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { name, value, path });
    }
  }

  header(pathname: string): string {
    return [...this.cookies.values()]
      .filter(({ path }) => pathname === path || pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.cookies.values()].map(({ name }) => name);
  }
}

interface Browser {
  app: FastifyInstance;
  jar: CookieJar;
  /** X-Forwarded-For: the load balancer tells the app who is calling. */
  ip: string;
}

async function send(browser: Browser, method: InjectOptions['method'], href: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
  const url = new URL(href, ISSUER);
  const cookie = browser.jar.header(url.pathname);
  const response = await browser.app.inject({
    method,
    url: url.pathname + url.search,
    headers: {
      host: url.host,
      'x-forwarded-for': browser.ip,
      ...(cookie ? { cookie } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
  });
  browser.jar.store(response.headers['set-cookie']);
  return response;
}

/** Follows redirects while they stay at the provider; stops at a page or a redirect elsewhere. */
async function follow(browser: Browser, response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
  let current = response;
  for (let hops = 0; hops < 10; hops++) {
    const location = current.headers.location;
    if (current.statusCode < 300 || current.statusCode >= 400 || typeof location !== 'string') return current;
    const target = new URL(location, ISSUER);
    if (target.origin !== new URL(ISSUER).origin || !target.pathname.startsWith('/idp/')) return current;
    current = await send(browser, 'GET', target.href);
  }
  throw new Error('too many redirects');
}

interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
}

function authorizationRequest(options: { redirectUri?: string; prompt?: string; scope?: string } = {}): AuthorizationRequest {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const nonce = randomBytes(12).toString('base64url');
  const redirectUri = options.redirectUri ?? CALLBACK;
  const params = new URLSearchParams({
    client_id: 'minside',
    response_type: 'code',
    scope: options.scope ?? 'openid email profile phone offline_access',
    redirect_uri: redirectUri,
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });
  return { url: `${ISSUER}/auth?${params}`, state, nonce, verifier, redirectUri };
}

const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';

async function openLoginPage(browser: Browser, request = authorizationRequest()) {
  const page = await follow(browser, await send(browser, 'GET', request.url));
  return { request, page };
}

async function submitLogin(browser: Browser, page: LightMyRequestResponse, email: string, password: string) {
  return follow(browser, await send(browser, 'POST', formAction(page.body), { email, password }));
}

/** The query of a redirect to the relying party's callback (fails when it is not one). */
function callbackParams(response: LightMyRequestResponse, redirectUri = CALLBACK): URLSearchParams {
  expect(response.statusCode, response.body).toBeOneOf([302, 303]);
  const location = new URL(String(response.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return location.searchParams;
}

describe.each(testDatabases)('embedded identity provider on $name', ({ name }) => {
  let scratch: ScratchDatabase;
  let database: Database;
  let app: FastifyInstance;
  let clientSecret: string;
  const clock = { offsetMs: 0 };
  const now = () => new Date(systemClock().getTime() + clock.offsetMs);
  // These tests play the load balancer: they say who is calling with X-Forwarded-For.
  const config = testConfig({ trustProxy: true });
  let ipCounter = 0;
  const newBrowser = (on: FastifyInstance = app): Browser => ({ app: on, jar: new CookieJar(), ip: `198.51.100.${++ipCounter}` });

  async function build(): Promise<FastifyInstance> {
    const built = await buildApp({ config, database, catalogue: defaultCatalogue, now });
    await built.ready();
    return built;
  }

  async function exchange(on: FastifyInstance, code: string, request: AuthorizationRequest) {
    return on.inject({
      method: 'POST',
      url: '/idp/token',
      headers: {
        host: 'localhost:3000',
        authorization: `Basic ${Buffer.from(`minside:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: request.redirectUri, code_verifier: request.verifier }).toString(),
    });
  }

  async function jwks(on: FastifyInstance = app) {
    return (await on.inject({ method: 'GET', url: '/idp/jwks', headers: { host: 'localhost:3000' } })).json<JSONWebKeySet>();
  }

  /** Logs Kari in from a fresh browser and returns the browser, its request and the code. */
  async function logIn() {
    const browser = newBrowser();
    const { request, page } = await openLoginPage(browser);
    const done = await submitLogin(browser, page, KARI.email, PASSWORD);
    const params = callbackParams(done);
    return { browser, request, code: params.get('code') ?? '' };
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase(name);
    database = await createDatabase(scratch.options);
    await migrate(database);
    await upsertIdentityAccount(database.db, KARI);
    app = await build();
    ({ clientSecret } = await embeddedClientCredentials(database, config));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await scratch?.dispose();
  });

  it('publishes a discovery document for the /idp issuer with PKCE S256', async () => {
    const res = await app.inject({ method: 'GET', url: '/idp/.well-known/openid-configuration', headers: { host: 'localhost:3000' } });
    expect(res.statusCode).toBe(200);
    const doc = res.json<Record<string, unknown>>();
    expect(doc.issuer).toBe(ISSUER);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.authorization_endpoint).toBe(`${ISSUER}/auth`);
    expect(doc.token_endpoint).toBe(`${ISSUER}/token`);
    expect(doc.jwks_uri).toBe(`${ISSUER}/jwks`);
    expect(doc.end_session_endpoint).toBe(`${ISSUER}/session/end`);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'offline_access', 'email', 'profile', 'phone']));
    expect(doc.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('shows the Norwegian login form, then redirects to the callback with a code that yields a signed ID token', async () => {
    const browser = newBrowser();
    const { request, page } = await openLoginPage(browser);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<html lang="nb">');
    expect(page.body).toContain('<h1>Logg inn</h1>');
    expect(page.body).toMatch(/<label for="email">E-post<\/label>\s*<input id="email"[^>]*autocomplete="username"[^>]*autofocus/);
    expect(page.body).toMatch(/<label for="password">Passord<\/label>\s*<input id="password"[^>]*autocomplete="current-password"/);
    expect(page.body).toContain('<button type="submit">Logg inn</button>');
    // Dressed as the title of the redirect URI's host: its wordmark and its name (issue 25.9).
    expect(page.body).toContain('<img class="logo" src="/logos/adressa.no.svg" alt="Adresseavisen"');
    expect(page.body).toContain('Logg inn på Min Side hos Adresseavisen');
    expect(page.body).toContain('>Avbryt</a>');
    // Inline CSS by hash; the form may end at the title's origin (form-action covers redirects).
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? '';
    expect(page.headers['content-security-policy']).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://adresseavisen.localhost:3000");
    expect(browser.jar.names()).toContain('_idp_interaction');

    // A form POST, parsed by our route; the e-mail as a person might type it.
    const done = await submitLogin(browser, page, '  Kari@Example.NO ', PASSWORD);
    const params = callbackParams(done);
    expect(params.get('state')).toBe(request.state);
    expect(params.get('iss')).toBe(ISSUER);
    const code = params.get('code');
    expect(code).toBeTruthy();
    expect(browser.jar.names()).toContain('_idp_session');
    expect(browser.jar.header('/api/session')).not.toContain('_idp_session');

    const token = await exchange(app, code ?? '', request);
    expect(token.statusCode, token.body).toBe(200);
    const tokens = token.json<{ id_token: string; access_token: string; refresh_token?: string; token_type: string; expires_in: number }>();
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    // offline_access without prompt=consent: our first-party client gets a refresh token.
    expect(tokens.refresh_token).toBeTruthy();

    const { payload, protectedHeader } = await jwtVerify(tokens.id_token, createLocalJWKSet(await jwks()), { issuer: ISSUER, audience: 'minside' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      sub: KARI.id,
      nonce: request.nonce,
      email: KARI.email,
      email_verified: true,
      given_name: 'Kari',
      family_name: 'Nordmann',
      name: 'Kari Nordmann',
      phone_number: KARI.phoneNumber,
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    const userinfo = await app.inject({ method: 'GET', url: '/idp/me', headers: { host: 'localhost:3000', authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json()).toMatchObject({ sub: KARI.id, email: KARI.email });

    // The refresh token works, with client_secret_post this time.
    const refreshed = await app.inject({
      method: 'POST',
      url: '/idp/token',
      headers: { host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token ?? '', client_id: 'minside', client_secret: clientSecret }).toString(),
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json()).toHaveProperty('id_token');
  });

  it('refuses a replayed authorization code with invalid_grant and revokes what the code produced', async () => {
    const { request, code } = await logIn();
    const first = await exchange(app, code, request);
    expect(first.statusCode).toBe(200);
    const { refresh_token: refreshToken } = first.json<{ refresh_token: string }>();

    const [stored] = await database.db.select().from(idpPayload).where(eq(idpPayload.id, code));
    expect(stored?.model).toBe('AuthorizationCode');
    expect(stored?.consumedAt).toBeInstanceOf(Date);
    expect(stored?.payload).toHaveProperty('consumed');
    const grantId = stored?.grantId ?? '';
    expect(grantId).not.toBe('');

    const replay = await exchange(app, code, request);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    // revokeByGrantId: the tokens of that grant are gone, so the refresh token is dead too.
    const left = await database.db.select({ model: idpPayload.model }).from(idpPayload).where(eq(idpPayload.grantId, grantId));
    expect(left).toEqual([]);
    const refresh = await app.inject({
      method: 'POST',
      url: '/idp/token',
      headers: { host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'minside', client_secret: clientSecret }).toString(),
    });
    expect(refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('issues a refresh token only when offline_access is asked for', async () => {
    const { browser } = await logIn();
    const request = authorizationRequest({ scope: 'openid email' });
    const code = callbackParams(await follow(browser, await send(browser, 'GET', request.url))).get('code') ?? '';
    const token = await exchange(app, code, request);
    expect(token.statusCode).toBe(200);
    expect(token.json()).not.toHaveProperty('refresh_token');
    expect(token.json()).toMatchObject({ scope: 'openid email' });
  });

  it('refuses a wrong password and an unknown e-mail with the same Norwegian message and counts both', async () => {
    const browser = newBrowser();
    const { page } = await openLoginPage(browser);
    const wrong = await submitLogin(browser, page, KARI.email, 'feil-passord');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toMatch(/<p class="alert" role="alert" id="login-error">Feil e-post eller passord\.<\/p>/);
    expect(wrong.body).toContain(`value="${KARI.email}"`);

    const unknown = await submitLogin(browser, page, '"><script>alert(1)</script>@example.no', PASSWORD);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toContain(INVALID);
    expect(unknown.body).not.toContain('<script>alert(1)</script>');
    expect(unknown.body).toContain('&quot;&gt;&lt;script&gt;');

    const failures = await database.db
      .select({ key: idpLoginFailure.key })
      .from(idpLoginFailure)
      .where(eq(idpLoginFailure.key, `ip:${browser.ip}`));
    expect(failures).toHaveLength(2);
    const byEmail = await database.db
      .select({ key: idpLoginFailure.key })
      .from(idpLoginFailure)
      .where(eq(idpLoginFailure.key, `email:${KARI.email}`));
    expect(byEmail.length).toBeGreaterThanOrEqual(1);

    // The interaction is still usable after failures.
    const ok = await submitLogin(browser, page, KARI.email, PASSWORD);
    expect(callbackParams(ok).get('code')).toBeTruthy();
  });

  it('throttles one e-mail after 10 failures in a minute, even with the right password, until the minute has passed', async () => {
    await database.db.delete(idpLoginFailure);
    // Each attempt from another address: only the e-mail counter can be what stops the 11th.
    const browser = newBrowser();
    const { page } = await openLoginPage(browser);
    for (let attempt = 1; attempt <= 10; attempt++) {
      browser.ip = `203.0.113.${attempt}`;
      expect((await submitLogin(browser, page, KARI.email, `feil-${attempt}`)).statusCode).toBe(401);
    }
    browser.ip = '203.0.113.11';
    const blocked = await submitLogin(browser, page, KARI.email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain(THROTTLED);
    expect(blocked.body).toContain('role="alert"');
    expect(blocked.body).toContain('<h1>Logg inn</h1>');
    // The refused attempt was not checked and not counted.
    const counted = await database.db
      .select()
      .from(idpLoginFailure)
      .where(eq(idpLoginFailure.key, `email:${KARI.email}`));
    expect(counted).toHaveLength(10);

    clock.offsetMs += 61_000;
    const again = await submitLogin(browser, page, KARI.email, PASSWORD);
    expect(callbackParams(again).get('code')).toBeTruthy();
  });

  it('throttles one IP after 10 failures in a minute across different e-mails', async () => {
    const browser = newBrowser();
    const { page } = await openLoginPage(browser);
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await submitLogin(browser, page, `ukjent${attempt}@example.no`, 'gjetting')).statusCode).toBe(401);
    }
    const blocked = await submitLogin(browser, page, KARI.email, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain(THROTTLED);

    // Kari herself, from another address, is not affected.
    const elsewhere = newBrowser();
    const { page: otherPage } = await openLoginPage(elsewhere);
    expect(callbackParams(await submitLogin(elsewhere, otherPage, KARI.email, PASSWORD)).get('code')).toBeTruthy();
  });

  it('lets at most 10 of many simultaneous wrong passwords through to the password check', async () => {
    await database.db.delete(idpLoginFailure);
    const browser = newBrowser();
    const { page } = await openLoginPage(browser);
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, attempt) => submitLogin(browser, page, KARI.email, `samtidig-${attempt}`).then((res) => res.statusCode)));
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(6);
    clock.offsetMs += 61_000;
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so', async () => {
    await database.db.delete(idpLoginFailure);
    const direct = await buildApp({ config: testConfig(), database, catalogue: defaultCatalogue, now });
    try {
      await direct.ready();
      const browser = newBrowser(direct);
      const { page } = await openLoginPage(browser);
      // A new forged address each time, and a new e-mail: only the real (socket) IP can count them.
      for (let attempt = 1; attempt <= 10; attempt++) {
        browser.ip = `192.0.2.${attempt}`;
        expect((await submitLogin(browser, page, `forfalsket${attempt}@example.no`, 'gjetting')).statusCode).toBe(401);
      }
      browser.ip = '192.0.2.99';
      expect((await submitLogin(browser, page, KARI.email, PASSWORD)).statusCode).toBe(429);
    } finally {
      await direct.close();
      await database.db.delete(idpLoginFailure);
    }
  });

  it('never redirects to a redirect_uri on a foreign origin', async () => {
    const browser = newBrowser();
    const res = await follow(browser, await send(browser, 'GET', authorizationRequest({ redirectUri: 'https://evil.example/callback' }).url));
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('<html lang="nb">');
    expect(res.body).toContain('Noe gikk galt');
    expect(res.body).not.toContain('evil.example');
    expect(res.body).not.toMatch(/at \w+ \(|node_modules/);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);

    const path = await follow(browser, await send(browser, 'GET', authorizationRequest({ redirectUri: 'http://adresseavisen.localhost:3000/other' }).url));
    expect(path.statusCode).toBe(400);
    expect(path.headers.location).toBeUndefined();
  });

  it('lets the person abort the login back to the relying party', async () => {
    const browser = newBrowser();
    const { request, page } = await openLoginPage(browser);
    const abortHref = /<a href="([^"]+\/abort)">Avbryt<\/a>/.exec(page.body)?.[1] ?? '';
    const params = callbackParams(await follow(browser, await send(browser, 'GET', abortHref)));
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('state')).toBe(request.state);
  });

  it('answers an unknown or foreign interaction with a Norwegian page, not a login form', async () => {
    const res = await send(newBrowser(), 'GET', '/idp/interaction/unknown-uid');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Innloggingen er utløpt');
    const post = await send(newBrowser(), 'POST', '/idp/interaction/unknown-uid/login', { email: KARI.email, password: PASSWORD });
    expect(post.statusCode).toBe(400);
    expect(post.headers.location).toBeUndefined();
  });

  it('answers a login POST it cannot read with a Norwegian page, not JSON', async () => {
    const browser = newBrowser();
    const { page } = await openLoginPage(browser);
    const url = formAction(page.body);
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { host: 'localhost:3000', cookie: browser.jar.header(url), 'content-type': 'application/json' },
      payload: JSON.stringify({ email: KARI.email, password: PASSWORD }),
    });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Vi kunne ikke lese skjemaet.');
    expect(res.headers['content-security-policy']).toMatch(/style-src 'sha256-/);
  });

  it('names its cookies apart from the portal and keeps the session cookie under /idp; Secure with an https issuer', async () => {
    const browser = newBrowser();
    const first = await send(browser, 'GET', authorizationRequest().url);
    const cookies = [first.headers['set-cookie'] ?? []].flat();
    expect(cookies.some((line) => /^_idp_interaction=[^;]+; path=\/idp\/interaction\//.test(line))).toBe(true);
    expect(cookies.every((line) => /httponly/i.test(line) && /samesite=lax/i.test(line) && !/secure/i.test(line))).toBe(true);

    const https = await buildApp({ config: { ...config, publicUrl: 'https://minside.example.no', paymentProvider: undefined }, database, catalogue: defaultCatalogue, now });
    try {
      await https.ready();
      const params = new URL(authorizationRequest({ redirectUri: 'https://minside.adressa.no/callback' }).url).search;
      const res = await https.inject({ method: 'GET', url: `/idp/auth${params}`, headers: { host: 'minside.example.no', 'x-forwarded-proto': 'https' } });
      expect(res.statusCode).toBe(303);
      const secure = [res.headers['set-cookie'] ?? []].flat();
      expect(secure.length).toBeGreaterThan(0);
      expect(secure.every((line) => /; secure/i.test(line))).toBe(true);
      expect(res.headers['strict-transport-security']).toContain('max-age=');
    } finally {
      await https.close();
    }
  });

  it('keeps the API JSON-only: a form POST to /api is still 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/retrieveTitleCode', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'minsideUrl=x' });
    expect(res.statusCode).toBe(415);
  });

  it('logs out through RP-initiated logout with a Norwegian page that submits itself', async () => {
    const { browser, request, code } = await logIn();
    const { id_token: idToken } = (await exchange(app, code, request)).json<{ id_token: string }>();
    const params = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: 'http://adresseavisen.localhost:3000/', state: 'ut-1' });
    const page = await send(browser, 'GET', `/idp/session/end?${params}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="nb">');
    expect(page.body).toMatch(/<button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Logg ut<\/button>/);
    const inline = /<script>([^<]+)<\/script>/.exec(page.body)?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(page.headers['content-security-policy']).toContain(`script-src ${hash}`);
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://adresseavisen.localhost:3000");

    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const done = await send(browser, 'POST', action, { xsrf, logout: 'yes' });
    expect(done.statusCode).toBeOneOf([302, 303]);
    const back = new URL(String(done.headers.location));
    expect(back.origin + back.pathname).toBe('http://adresseavisen.localhost:3000/');
    expect(back.searchParams.get('state')).toBe('ut-1');

    // The provider session is gone: a silent login attempt now needs a login.
    const silent = await follow(browser, await send(browser, 'GET', authorizationRequest({ prompt: 'none' }).url));
    expect(callbackParams(silent).get('error')).toBe('login_required');

    // Without id_token_hint the page asks first instead of logging out by itself.
    const asked = await send(browser, 'GET', '/idp/session/end');
    expect(asked.body).not.toContain('<script>document');

    const success = await send(browser, 'GET', '/idp/session/end/success');
    expect(success.statusCode).toBe(200);
    expect(success.body).toContain('<h1>Du er logget ut</h1>');
    expect(success.body).toContain('Tilbake til Min Side');
  });

  it('keeps signing keys and provider sessions across a restart on the same database', async () => {
    const { browser } = await logIn();
    const before = await jwks();
    const restarted = await build();
    try {
      const after = await jwks(restarted);
      expect(after.keys.map((key) => key.kid)).toEqual(before.keys.map((key) => key.kid));
      expect(after.keys.every((key) => key.d === undefined)).toBe(true);

      browser.app = restarted;
      for (const prompt of ['none', undefined]) {
        const request = authorizationRequest(prompt ? { prompt } : {});
        const res = await follow(browser, await send(browser, 'GET', request.url));
        const code = callbackParams(res).get('code');
        expect(code, `prompt=${prompt}`).toBeTruthy();
        const token = await exchange(restarted, code ?? '', request);
        expect(token.statusCode).toBe(200);
        const idToken = token.json<{ id_token: string }>().id_token;
        expect(decodeProtectedHeader(idToken).kid).toBe(before.keys[0]?.kid);
      }
    } finally {
      await restarted.close();
    }
  });

  it('stores the secrets once: concurrent first starts agree', async () => {
    const fresh = await createScratchDatabase(name);
    const other = await createDatabase(fresh.options);
    try {
      await migrate(other);
      const [a, b] = await Promise.all([loadProviderSecrets(other.db), loadProviderSecrets(other.db)]);
      expect(a).toEqual(b);
      const [c, d] = await Promise.all([embeddedClientCredentials(other, config), embeddedClientCredentials(other, config)]);
      expect(c.clientSecret).toBe(d.clientSecret);
      expect(c).toEqual({ clientId: 'minside', clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      expect(await embeddedClientCredentials(other, { ...config, oidcClientSecret: 'from-config' })).toEqual({ clientId: 'minside', clientSecret: 'from-config' });
      const rows = await other.rows<{ name: string }>(sql`select name from idp_secret order by name`);
      expect(rows.map((row) => row.name)).toEqual(['client_secret', 'cookie_keys', 'jwks']);
    } finally {
      await other.close();
      await fresh.dispose();
    }
  });

  it('adapter: ignores expired rows and sweeps them on a later write', async () => {
    const adapter = createPayloadAdapterFactory({ db: database.db, now })('TestModel');
    await adapter.upsert('short', { jti: 'short' }, 5);
    await adapter.upsert('forever', { jti: 'forever', uid: 'uid-1', grantId: 'g-1' });
    expect(await adapter.find('short')).toEqual({ jti: 'short' });
    expect(await adapter.findByUid('uid-1')).toMatchObject({ jti: 'forever' });

    clock.offsetMs += 6_000;
    expect(await adapter.find('short')).toBeUndefined();
    clock.offsetMs += 61_000;
    await adapter.upsert('later', { jti: 'later' }, 60);
    const ids = await database.db.select({ id: idpPayload.id }).from(idpPayload).where(eq(idpPayload.model, 'TestModel'));
    expect(ids.map((row) => row.id).sort()).toEqual(['forever', 'later']);

    await adapter.consume('forever');
    expect(await adapter.find('forever')).toMatchObject({ consumed: expect.any(Number) });
    await adapter.revokeByGrantId('g-1');
    expect(await adapter.find('forever')).toBeUndefined();
    await adapter.destroy('later');
    expect(await adapter.find('later')).toBeUndefined();
  });

  it('upsertIdentityAccount updates by e-mail and keeps the account id', async () => {
    await upsertIdentityAccount(database, { ...KARI, id: 'another-id', email: ' KARI@example.no', password: 'nytt-passord-456', givenName: 'Kari Anne' });
    const rows = await database.db.select().from(idpAccount).where(eq(idpAccount.email, KARI.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: KARI.id, givenName: 'Kari Anne', familyName: 'Nordmann' });
    await upsertIdentityAccount(database, KARI);
  });
});
