import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, submitLoginForm, TestBrowser } from './browser.ts';
import { startVippsLikeIssuer, VIPPS_LOGIN_SCOPE, type VippsClaims, type VippsLikeIssuer, type VippsPerson } from './vipps-like-issuer.ts';

// The fixture itself, seen from a relying party that knows nothing of it but its discovery
// document: the portal's tests lean on it behaving like Vipps Login (vipps-login-contract.md).
const CLIENT_ID = 'minside-vipps-test';
const CLIENT_SECRET = 'a-secret-for-the-test-issuer';
const REDIRECT_URI = 'http://adresseavisen.localhost:3000/callback';

const home = { street_address: 'Kongens gate 1', postal_code: '7011', region: 'TRONDHEIM', country: 'NO', formatted: 'Kongens gate 1\n7011 TRONDHEIM\nNO', address_type: 'home' };
const work = { street_address: 'Heimdalsvegen 2', postal_code: '7080', region: 'HEIMDAL', country: 'NO', formatted: 'Heimdalsvegen 2\n7080 HEIMDAL\nNO', address_type: 'work' };
const ingridClaims: VippsClaims = {
  name: 'Ingrid Vipps Hansen',
  given_name: 'Ingrid Vipps',
  family_name: 'Hansen',
  email: 'ingrid@minside.test',
  email_verified: true,
  phone_number: '4791234567',
  phone_number_verified: true,
  address: home,
  other_addresses: [work],
  birthdate: '1988-04-12',
};
const ingrid: VippsPerson = { sub: 'c06c4afe-d9e1-4c5d-939a-177d752a0944', email: 'ingrid@minside.test', password: 'ingrid-passord', claims: ingridClaims };
// Seventeen by the issuer's word, and unwilling to share it.
const ola: VippsPerson = {
  sub: '63d8303f-41d5-4150-9e33-0a39ed81856c',
  email: 'ola@minside.test',
  password: 'ola-passord',
  claims: { name: 'Ola Nordmann', given_name: 'Ola', family_name: 'Nordmann', email: 'ola@minside.test', email_verified: false, phone_number: '4798765432', birthdate: '2009-01-01' },
  withhold: ['birthDate'],
};

/** Claims an ID token may carry: Vipps' ID token identifies the user and says nothing about them. */
const TOKEN_CLAIMS = new Set(['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'at_hash', 'sid', 'jti', 'azp', 'acr', 'amr']);

describe('a Vipps-like issuer in a separate process', () => {
  let vipps: VippsLikeIssuer;
  let basic: oidc.Configuration;

  beforeAll(async () => {
    vipps = await startVippsLikeIssuer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [REDIRECT_URI], persons: [ingrid, ola] });
    basic = await discover(oidc.ClientSecretBasic(CLIENT_SECRET));
  });

  afterAll(() => vipps?.stop());

  function discover(auth: oidc.ClientAuth): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(vipps.issuer), CLIENT_ID, undefined, auth, { execute: [oidc.allowInsecureRequests] });
  }

  /** A whole code + PKCE login through the login form, as the portal's relying party does it. */
  async function login(person: { email: string; password: string }, options: { config?: oidc.Configuration; browser?: TestBrowser; scope?: string } = {}) {
    const config = options.config ?? basic;
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: options.scope ?? VIPPS_LOGIN_SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const browser = options.browser ?? new TestBrowser(() => fetchTransport);
    const callback = await submitLoginForm(browser, authorizationUrl.href, person);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return { tokens, idToken, userinfo };
  }

  it('publishes Vipps Login’s scopes, both client authentication methods and PKCE S256 in its discovery document', () => {
    const metadata = basic.serverMetadata();
    expect(metadata.issuer).toBe(vipps.issuer);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'name', 'email', 'phoneNumber', 'address', 'birthDate', 'nin', 'api_version_2']));
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.userinfo_endpoint).toBe(`${vipps.issuer}/vipps-userinfo-api/userinfo`);
    expect(metadata.end_session_endpoint).toBeTruthy();
    expect(metadata.jwks_uri).toBeTruthy();
  });

  it('logs a person in with code + PKCE: the ID token only identifies them, userinfo has their claims in Vipps’ formats', async () => {
    const { tokens, idToken, userinfo } = await login(ingrid);

    expect(idToken.sub).toBe(ingrid.sub);
    expect(Object.keys(idToken).filter((claim) => !TOKEN_CLAIMS.has(claim))).toEqual([]);
    expect(idToken).not.toHaveProperty('name');
    expect(idToken).not.toHaveProperty('birthdate');
    expect(idToken).not.toHaveProperty('phone_number');

    expect(userinfo).toMatchObject({ sub: ingrid.sub, ...ingridClaims });
    expect(userinfo.phone_number).toMatch(/^47\d{8}$/); // no "+"
    expect(userinfo.birthdate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(userinfo.address).toEqual(home);
    expect(userinfo['other_addresses']).toEqual([work]);
    expect(new Set(tokens.scope?.split(' '))).toEqual(new Set(VIPPS_LOGIN_SCOPE.split(' ')));
  });

  it('releases only the claims of the scopes asked for', async () => {
    const { userinfo } = await login(ingrid, { scope: 'openid name api_version_2' });
    expect(userinfo).toEqual({ sub: ingrid.sub, name: ingridClaims.name, given_name: ingridClaims.given_name, family_name: ingridClaims.family_name, ...(userinfo.sid ? { sid: userinfo.sid } : {}) });
  });

  it('leaves out the claims of a scope the person withholds, and says so in the granted scope', async () => {
    const { tokens, userinfo } = await login(ola);
    expect(userinfo).not.toHaveProperty('birthdate');
    expect(userinfo).toMatchObject({ sub: ola.sub, name: 'Ola Nordmann', email: 'ola@minside.test', email_verified: false, phone_number: '4798765432' });
    expect(tokens.scope?.split(' ')).not.toContain('birthDate');
    expect(tokens.scope?.split(' ')).toContain('name');
  });

  it('hands out changed claims, and a changed consent, at the next login', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const before = await login(ingrid, { browser });
    expect(before.userinfo.family_name).toBe('Hansen');

    const moved = { ...home, street_address: 'Olav Tryggvasons gate 5', formatted: 'Olav Tryggvasons gate 5\n7011 TRONDHEIM\nNO' };
    await vipps.setClaims(ingrid.sub, { ...ingridClaims, family_name: 'Berg', name: 'Ingrid Vipps Berg', address: moved, phone_number: '4799887766' }, ['birthDate']);
    try {
      // The same browser: the issuer's session does not carry the old consent over.
      const after = await login(ingrid, { browser });
      expect(after.userinfo).toMatchObject({ family_name: 'Berg', name: 'Ingrid Vipps Berg', address: moved, phone_number: '4799887766' });
      expect(after.userinfo).not.toHaveProperty('birthdate');
    } finally {
      await vipps.setClaims(ingrid.sub, ingridClaims, []);
    }
    expect((await login(ingrid, { browser })).userinfo.birthdate).toBe('1988-04-12');
  });

  it('signs another person in on the same browser without asking the first to log out', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    expect((await login(ingrid, { browser })).idToken.sub).toBe(ingrid.sub);
    expect((await login(ola, { browser })).idToken.sub).toBe(ola.sub);
  });

  it('accepts client_secret_post as well as client_secret_basic at the token endpoint', async () => {
    const post = await discover(oidc.ClientSecretPost(CLIENT_SECRET));
    expect((await login(ingrid, { config: post })).userinfo.sub).toBe(ingrid.sub);
  });

  it('ends the session and sends the browser back to any page of the portal, never elsewhere', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const { tokens } = await login(ingrid, { browser });
    const endSession = oidc.buildEndSessionUrl(basic, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: 'http://adresseavisen.localhost:3000/utlogget?fra=vipps' });
    const confirm = await browser.request('GET', endSession.href);
    expect(confirm.status).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(confirm.body)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)?.[1];
    if (!action || !xsrf) throw new Error(`no logout form: ${confirm.body}`);
    const done = await browser.request('POST', new URL(action, endSession).href, { form: { xsrf, logout: 'yes' } });
    expect(done.headers['location']).toBe('http://adresseavisen.localhost:3000/utlogget?fra=vipps');

    const foreign = oidc.buildEndSessionUrl(basic, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: 'https://evil.example/' });
    expect((await browser.request('GET', foreign.href)).status).toBe(400);
  });

  it('refuses a wrong password and shows the form again', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const authorizationUrl = oidc.buildAuthorizationUrl(basic, {
      redirect_uri: REDIRECT_URI,
      scope: VIPPS_LOGIN_SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
    });
    await expect(submitLoginForm(browser, authorizationUrl.href, { email: ingrid.email, password: 'not-the-password' })).rejects.toThrow(/login form answered 401: .*<form method="post"/);
  });

  it('answers a scope Vipps does not know with invalid_scope, and a request without PKCE with an error', async () => {
    const browser = new TestBrowser(() => fetchTransport);
    const unknownScope = oidc.buildAuthorizationUrl(basic, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid profile offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: 'state-for-scope',
    });
    const refused = await browser.follow(unknownScope.href, (url) => url.pathname === '/callback');
    expect(Object.fromEntries(refused.url.searchParams)).toMatchObject({ error: 'invalid_scope', state: 'state-for-scope', iss: vipps.issuer });

    const withoutPkce = oidc.buildAuthorizationUrl(basic, { redirect_uri: REDIRECT_URI, scope: VIPPS_LOGIN_SCOPE, state: 'state-for-pkce' });
    const noPkce = await browser.follow(withoutPkce.href, (url) => url.pathname === '/callback');
    expect(Object.fromEntries(noPkce.url.searchParams)).toMatchObject({ error: 'invalid_request', state: 'state-for-pkce' });
  });

  it('refuses claims that are not in Vipps’ formats, and a control call without its token', async () => {
    await expect(vipps.setClaims(ingrid.sub, { phone_number: '+4791234567' })).rejects.toThrow(/400.*phone_number/);
    await expect(vipps.setClaims(ingrid.sub, { birthdate: '12.04.1988' })).rejects.toThrow(/400.*birthdate/);
    const response = await fetch(`${vipps.issuer}/_control/claims`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub: ingrid.sub, claims: {} }) });
    expect(response.status).toBe(404);
    expect((await login(ingrid)).userinfo.phone_number).toBe('4791234567');
  });
});
