import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, osloToday, systemClock, type ProfileLogins, type ProfileResponse } from '@minside/domain';
import { buildTestApp, DEMO_PASSWORD, type TestApp } from './helper.ts';
import { callbackBody, fetchTransport, injectTransport, login, submitLoginForm, TestBrowser } from './browser.ts';
import { expectRefused } from './support.ts';
import { startVippsLikeIssuer, type VippsLikeIssuer, type VippsPerson } from './vipps-like-issuer.ts';

// Issue 24, "two ways to log in at once": the group's account (the embedded provider) and an issuer
// like Vipps Login in another process, side by side. The portal's login page lists both; either
// reaches the same subscriber when a verified e-mail links them; a signed-in person links and
// unlinks the second login on the profile; a title that takes no self-declared age sends the buyer
// to confirm it with Vipps.

const PORTAL = 'http://adresseavisen.localhost:3000';
const FVN = 'http://faedrelandsvennen.localhost:3000';
const CLIENT_SECRET = 'second-issuer-client-secret';
const today = osloToday(systemClock());
const person = (key: string, email: string, claims: VippsPerson['claims']): VippsPerson => ({
  sub: randomUUID(),
  email,
  password: `${key}-passord-123`,
  claims: { email, email_verified: true, phone_number_verified: true, ...claims },
});

/** papir@'s person at Vipps: the same address, verified there too. */
const kari = person('kari', 'papir@minside.test', { name: 'Kari Nordmann', phone_number: '4791234567', birthdate: addMonths(today, -12 * 58) });
/** Nobody at the portal yet. */
const stranger = person('ny', 'ny.vipps@vipps.test', { name: 'Nils Ny', phone_number: '4748000011', birthdate: addMonths(today, -12 * 30) });
/** digital@'s phone number, but an e-mail Vipps did not verify: a number typed on Min Side links nobody. */
const samePhone = person('telefon', 'telefon@vipps.test', { name: 'Tone Telefon', email_verified: false, phone_number: '4792345678', birthdate: addMonths(today, -12 * 44) });
/** Twenty-five by BankID: links to another user by hand, then buys Ung where the title wants a verified age. */
const young = person('ung', 'emma.vipps@vipps.test', { name: 'Emma Vipps-Berg', phone_number: '4748000012', birthdate: addMonths(today, -12 * 25) });

describe('two issuers side by side: the group account and Vipps Login', () => {
  let issuer: VippsLikeIssuer;
  let portal: TestApp;

  beforeAll(async () => {
    issuer = await startVippsLikeIssuer({ clientId: 'minside-vipps', clientSecret: CLIENT_SECRET, redirectUris: [`${PORTAL}/callback`, `${FVN}/callback`], persons: [kari, stranger, samePhone, young] });
    portal = await buildTestApp('pglite', {
      seed: true,
      config: { secondIssuer: { kind: 'external', key: 'vipps', issuer: issuer.issuer, clientId: 'minside-vipps', clientSecret: CLIENT_SECRET, scopes: undefined, claims: 'vipps', label: 'Vipps' } },
    });
  }, 180_000);
  afterAll(async () => {
    await portal?.close();
    issuer?.stop();
  });

  const newBrowser = () => new TestBrowser((url) => (url.href.startsWith(issuer.issuer) ? fetchTransport : injectTransport(portal.app)));

  /** As the web does it: the login token's URL is the portal's login page; the pick sends the browser on. */
  async function signInThroughLoginPage(browser: TestBrowser, key: 'account' | 'vipps', credentials: { email: string; password: string }, origin = PORTAL) {
    const token = await browser.request('GET', `${origin}/api/loginToken?returnTo=%2F`);
    expect(token.status, token.body).toBe(200);
    const { loginToken, authorizationUrl } = token.json<{ loginToken: string; authorizationUrl: string }>();
    expect(authorizationUrl).toBe(`${origin}/logg-inn?login=${encodeURIComponent(loginToken)}`);
    const chosen = await browser.request('POST', `${origin}/api/login/choose`, { json: { loginToken, issuer: key } });
    expect(chosen.status, chosen.body).toBe(200);
    const callback = await submitLoginForm(browser, chosen.json<{ authorizationUrl: string }>().authorizationUrl, credentials);
    return browser.request('POST', `${origin}/api/handlecode`, { json: callbackBody(callback) });
  }

  async function link(browser: TestBrowser, who: VippsPerson, origin = PORTAL) {
    const token = await browser.request('GET', `${origin}/api/loginToken?returnTo=%2Fendre-profil&issuer=vipps&purpose=link`);
    expect(token.status, token.body).toBe(200);
    const callback = await submitLoginForm(browser, token.json<{ authorizationUrl: string }>().authorizationUrl, who);
    return browser.request('POST', `${origin}/api/handlecode`, { json: callbackBody(callback) });
  }

  const loginsOf = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/profile/logins`)).json<ProfileLogins>();
  const profileOf = async (browser: TestBrowser, origin = PORTAL) => (await browser.request('GET', `${origin}/api/profile`)).json<ProfileResponse>();
  const sessionUserId = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/session`)).json<{ user: { sp_id: string } }>().user.sp_id;

  it('lists both ways to log in, and takes the pick once, from the browser that started the login', async () => {
    expect((await newBrowser().request('GET', `${PORTAL}/api/login/issuers`)).json()).toEqual({
      issuers: [
        { key: 'account', label: 'kontoen din', style: 'oidc', verifiesAge: false },
        { key: 'vipps', label: 'Vipps', style: 'vipps', verifiesAge: true },
      ],
    });
    const browser = newBrowser();
    const { loginToken } = (await browser.request('GET', `${PORTAL}/api/loginToken`)).json<{ loginToken: string }>();
    expectRefused(await browser.request('POST', `${PORTAL}/api/login/choose`, { json: { loginToken, issuer: 'bankid' } }), 400, 'UNKNOWN_LOGIN_ISSUER');
    // Another browser cannot pick for this login.
    expectRefused(await newBrowser().request('POST', `${PORTAL}/api/login/choose`, { json: { loginToken, issuer: 'vipps' } }), 400, 'LOGIN_STATE_INVALID');
    expect((await browser.request('POST', `${PORTAL}/api/login/choose`, { json: { loginToken, issuer: 'vipps' } })).status).toBe(200);
    // Picked: a second pick cannot switch the issuer under the login.
    expectRefused(await browser.request('POST', `${PORTAL}/api/login/choose`, { json: { loginToken, issuer: 'account' } }), 400, 'LOGIN_STATE_INVALID');
    // A login whose issuer was never picked cannot complete.
    const unpicked = (await browser.request('GET', `${PORTAL}/api/loginToken`)).json<{ loginToken: string }>();
    expectRefused(await browser.request('POST', `${PORTAL}/api/handlecode`, { json: { code: 'whatever', state: unpicked.loginToken } }), 400, 'LOGIN_STATE_INVALID');
  });

  it('reaches the same subscriber with either login when the verified e-mail links them', async () => {
    const withAccount = newBrowser();
    expect((await signInThroughLoginPage(withAccount, 'account', { email: 'papir@minside.test', password: DEMO_PASSWORD })).status).toBe(200);
    const withVipps = newBrowser();
    const viaVipps = await signInThroughLoginPage(withVipps, 'vipps', kari);
    expect(viaVipps.status, viaVipps.body).toBe(200);
    expect(await sessionUserId(withVipps)).toBe(await sessionUserId(withAccount));
    // Vipps' verified birthdate and number now stand on Kari's profile, locked; the address she logs in with stays hers.
    const profile = await profileOf(withVipps);
    expect(profile).toMatchObject({ email: 'papir@minside.test', birthdate: kari.claims.birthdate, phoneNumber: '+4791234567' });
    expect(profile.sources.birthdate).toMatchObject({ source: 'ISSUER', issuerLabel: 'Vipps', verified: true });
    const logins = await loginsOf(withVipps);
    expect(logins.logins.map(({ key, canUnlink }) => ({ key, canUnlink }))).toEqual([
      { key: 'account', canUnlink: true },
      { key: 'vipps', canUnlink: true },
    ]);
    expect(logins.logins.every((entry) => entry.linkedAt !== null)).toBe(true);
    // Logging out of a Vipps session ends it at Vipps.
    const logout = (await withVipps.request('POST', `${PORTAL}/api/logout`, { json: {} })).json<{ endSessionUrl: string | null }>();
    expect(logout.endSessionUrl?.startsWith(`${issuer.issuer}/oauth2/sessions/logout`)).toBe(true);
  });

  it('makes a new subscriber of a stranger, and links nobody by a phone number the portal never verified', async () => {
    const strangerBrowser = newBrowser();
    expect((await signInThroughLoginPage(strangerBrowser, 'vipps', stranger)).status).toBe(200);
    expect((await profileOf(strangerBrowser)).email).toBe('ny.vipps@vipps.test');
    expect((await loginsOf(strangerBrowser)).logins.map((entry) => entry.linkedAt !== null)).toEqual([false, true]);
    // Their only login: it cannot be unlinked.
    expectRefused(await strangerBrowser.request('DELETE', `${PORTAL}/api/profile/logins/vipps`, { json: {} }), 409, 'LAST_LOGIN');
    expectRefused(await strangerBrowser.request('DELETE', `${PORTAL}/api/profile/logins/account`, { json: {} }), 404, 'LOGIN_NOT_LINKED');

    const phoneBrowser = newBrowser();
    expect((await signInThroughLoginPage(phoneBrowser, 'vipps', samePhone)).status).toBe(200);
    const [digitalUser] = await portal.database.rows<{ id: string }>(`select id from app_user where email = 'digital@minside.test'` as never);
    expect(await sessionUserId(phoneBrowser)).not.toBe(digitalUser?.id);
  });

  it('links and unlinks a second login on the profile, never one that reaches someone else', async () => {
    const browser = newBrowser();
    expect((await login(browser, { portal: PORTAL, email: 'ung@minside.test', password: DEMO_PASSWORD })).status).toBe(200);
    const before = await sessionUserId(browser);
    // Linking needs the session of the one who links.
    expectRefused(await newBrowser().request('GET', `${PORTAL}/api/loginToken?issuer=vipps&purpose=link`), 401, 'NOT_AUTHENTICATED');
    // Kari's Vipps login is Kari's.
    expectRefused(await link(browser, kari), 409, 'LOGIN_LINKED_TO_OTHER_USER');
    expect((await loginsOf(browser)).logins.find((entry) => entry.key === 'vipps')?.linkedAt).toBeNull();

    const linked = await link(browser, young);
    expect(linked.status, linked.body).toBe(200);
    expect(linked.json<{ returnTo: string }>().returnTo).toBe('/endre-profil');
    expect(await sessionUserId(browser)).toBe(before);
    expect((await loginsOf(browser)).logins.map((entry) => entry.linkedAt !== null)).toEqual([true, true]);
    // The second login's verified birthdate is taken; its name does not replace the one her account gives.
    expect(await profileOf(browser)).toMatchObject({ givenName: 'Emma', familyName: 'Berg', birthdate: young.claims.birthdate });
    // The next Vipps login reaches Emma's subscriber.
    const viaVipps = newBrowser();
    expect((await signInThroughLoginPage(viaVipps, 'vipps', young)).status).toBe(200);
    expect(await sessionUserId(viaVipps)).toBe(before);
    // Unlinked, the Vipps login reaches her no more; the group account still does.
    const after = (await browser.request('DELETE', `${PORTAL}/api/profile/logins/vipps`, { json: {} })).json<ProfileLogins>();
    expect(after.logins.map((entry) => ({ key: entry.key, linked: entry.linkedAt !== null, canUnlink: entry.canUnlink }))).toEqual([
      { key: 'account', linked: true, canUnlink: false },
      { key: 'vipps', linked: false, canUnlink: false },
    ]);
    expectRefused(await browser.request('DELETE', `${PORTAL}/api/profile/logins/account`, { json: {} }), 409, 'LAST_LOGIN');
    // Unlinked stays unlinked: the next Vipps login does not find its way back, not even by the phone
    // number Vipps verified for her (that is Vipps' own word, the login she let go of).
    const afterUnlink = newBrowser();
    expect((await signInThroughLoginPage(afterUnlink, 'vipps', young)).status).toBe(200);
    expect(await sessionUserId(afterUnlink)).not.toBe(before);
    // What Vipps verified stays on her profile, as verified then (the next test buys with it).
    expect((await profileOf(browser)).sources.birthdate).toMatchObject({ source: 'ISSUER', verified: true });
  });

  it('where the title takes no self-declared age, the buyer confirms it with Vipps first', async () => {
    const browser = newBrowser();
    expect((await login(browser, { portal: FVN, email: 'student@minside.test', password: DEMO_PASSWORD, titleCode: 'FVN' })).status).toBe(200);
    const order = (ariaPlanID: string, birthdate?: string) =>
      browser.request('POST', `${FVN}/api/order?titleCode=FVN`, { json: { idempotencyKey: randomUUID(), ariaPlanID, ...(birthdate ? { birthdate } : {}) } });
    const refused = expectRefused(await order('FVN-UNG-DIGITAL-M', addMonths(today, -12 * 22)), 409, 'AGE_VERIFICATION_REQUIRED');
    expect(refused.message).toContain('Bekreft alderen med Vipps');
    // Nothing was declared: the typed birthdate is not locked by the refused purchase.
    expect((await profileOf(browser, FVN)).sources.birthdate?.source ?? null).not.toBe('DECLARED');
    // An offer without an age limit takes the declaration as before.
    const digital = await order('FVN-DIGITAL-M', addMonths(today, -12 * 22));
    expect(digital.status, digital.body).toBe(201);
  });

  it('after "Bekreft alderen med Vipps" the verified birthdate decides the age-limited offer', async () => {
    const browser = newBrowser();
    expect((await login(browser, { portal: FVN, email: 'ung@minside.test', password: DEMO_PASSWORD, titleCode: 'FVN' })).status).toBe(200);
    // Emma linked Vipps in the test before (and unlinked it): her birthdate is BankID's, verified then.
    expect((await profileOf(browser, FVN)).sources.birthdate).toMatchObject({ source: 'ISSUER', verified: true });
    const ordered = await browser.request('POST', `${FVN}/api/order?titleCode=FVN`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'FVN-UNG-DIGITAL-M' } });
    expect(ordered.status, ordered.body).toBe(201);
  });
});
