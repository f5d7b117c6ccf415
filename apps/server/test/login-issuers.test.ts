import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, osloToday, systemClock, type ProfileLogins, type ProfileResponse } from '@minside/domain';
import { upsertIdentityAccount } from '../src/identity/provider/index.ts';
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
/** familie@'s person at Vipps: signed in on two devices, one by Vipps and one by the group account, then unlinks Vipps. */
const per = person('per', 'familie@minside.test', { name: 'Per Olsen', phone_number: '4748000013', birthdate: addMonths(today, -12 * 46) });
/** Came by Vipps first (identity id `vipps:{sub}`), and links a group account later. */
const vera = person('vera', 'vera.vipps@vipps.test', { name: 'Vera Vippsen', phone_number: '4748000014', birthdate: addMonths(today, -12 * 39) });
/** Comes by the group account, links Vipps, then unlinks the group account. */
const tom = person('tom', 'tom.vipps@vipps.test', { name: 'Tom Konto', phone_number: '4748000015', birthdate: addMonths(today, -12 * 33) });
/** Vera's group account, made at the embedded provider before she links it. */
const veraAccount = { id: `vera-account-${randomUUID()}`, email: 'vera@minside.test', password: 'vera-konto-passord-1' };

describe('two issuers side by side: the group account and Vipps Login', () => {
  let issuer: VippsLikeIssuer;
  let portal: TestApp;

  beforeAll(async () => {
    issuer = await startVippsLikeIssuer({
      clientId: 'minside-vipps',
      clientSecret: CLIENT_SECRET,
      redirectUris: [`${PORTAL}/callback`, `${FVN}/callback`],
      persons: [kari, stranger, samePhone, young, per, vera, tom],
    });
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

  /** "Koble til kontoen din" from a session: the group account's login form, in the signed-in user's session. */
  async function linkAccount(browser: TestBrowser, credentials: { email: string; password: string }) {
    const token = await browser.request('GET', `${PORTAL}/api/loginToken?returnTo=%2Fendre-profil&issuer=account&purpose=link`);
    expect(token.status, token.body).toBe(200);
    const callback = await submitLoginForm(browser, token.json<{ authorizationUrl: string }>().authorizationUrl, credentials);
    return browser.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(callback) });
  }

  const signedIn = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/session`)).status;
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

  it('unlinking a login ends the sessions it opened on other devices; the one it is unlinked from stays signed in', async () => {
    // Per signs in with Vipps on his phone (his verified address reaches his subscriber), and with the group account here.
    const phone = newBrowser();
    expect((await signInThroughLoginPage(phone, 'vipps', per)).status).toBe(200);
    const here = newBrowser();
    expect((await login(here, { portal: PORTAL, email: 'familie@minside.test', password: DEMO_PASSWORD })).status).toBe(200);
    const otherAccountSession = newBrowser();
    expect((await login(otherAccountSession, { portal: PORTAL, email: 'familie@minside.test', password: DEMO_PASSWORD })).status).toBe(200);
    expect(await sessionUserId(phone)).toBe(await sessionUserId(here));

    const unlinked = await here.request('DELETE', `${PORTAL}/api/profile/logins/vipps`, { json: {} });
    expect(unlinked.status, unlinked.body).toBe(200);
    // The phone's Vipps session is over; the group account's sessions, this one and another, go on.
    expectRefused(await phone.request('GET', `${PORTAL}/api/session`), 401, 'NOT_AUTHENTICATED');
    expect(await signedIn(here)).toBe(200);
    expect(await signedIn(otherAccountSession)).toBe(200);

    // Linked again, and unlinked from a session Vipps opened: that session stays, Vipps' other one ends.
    expect((await link(here, per)).status).toBe(200);
    const viaVipps = newBrowser();
    expect((await signInThroughLoginPage(viaVipps, 'vipps', per)).status).toBe(200);
    const vippsElsewhere = newBrowser();
    expect((await signInThroughLoginPage(vippsElsewhere, 'vipps', per)).status).toBe(200);
    expect((await viaVipps.request('DELETE', `${PORTAL}/api/profile/logins/vipps`, { json: {} })).status).toBe(200);
    expect(await signedIn(viaVipps)).toBe(200);
    expect(await signedIn(vippsElsewhere)).toBe(401);
    expect(await signedIn(here)).toBe(200);
    // The session that stays still ends at Vipps when Per logs out there.
    const logout = (await viaVipps.request('POST', `${PORTAL}/api/logout`, { json: {} })).json<{ endSessionUrl: string | null }>();
    expect(logout.endSessionUrl?.startsWith(`${issuer.issuer}/oauth2/sessions/logout`)).toBe(true);
  });

  describe('a user who came by Vipps first and linked the group account later', () => {
    // Their identity id is `vipps:{sub}`; the group account is found through their login with the main issuer.
    let vipps: TestBrowser;
    let userId: string;

    beforeAll(async () => {
      await upsertIdentityAccount(portal.database, { ...veraAccount, givenName: 'Vera', familyName: 'Vippsen' });
      vipps = newBrowser();
      expect((await signInThroughLoginPage(vipps, 'vipps', vera)).status).toBe(200);
      userId = await sessionUserId(vipps);
      const [user] = await portal.database.rows<{ identity_sub: string }>(sql`select identity_sub from app_user where id = ${userId}`);
      expect(user?.identity_sub).toBe(`vipps:${vera.sub}`);
      const linked = await linkAccount(vipps, veraAccount);
      expect(linked.status, linked.body).toBe(200);
      expect(await sessionUserId(vipps)).toBe(userId);
    });

    it('changes the e-mail address with the group account’s password', async () => {
      expect((await profileOf(vipps)).emailChangeHere).toBe(true);
      const change = (password: string) => vipps.request('POST', `${PORTAL}/api/profile/email-change`, { json: { newEmail: 'vera.ny@minside.test', password } });
      expectRefused(await change('feil-passord-123'), 403, 'WRONG_PASSWORD');
      const requested = await change(veraAccount.password);
      expect(requested.status, requested.body).toBe(202);
      const [mail] = await portal.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = 'vera.ny@minside.test' order by created_at desc limit 1`);
      const token = /\/endre-profil\?bekreft-epost=([\w-]+)/.exec(mail?.text ?? '')?.[1];
      const confirmed = await vipps.request('POST', `${PORTAL}/api/profile/email-change/confirm`, { json: { token } });
      expect(confirmed.status, confirmed.body).toBe(200);
      // The group account signs in with the new address now, and reaches Vera.
      const [account] = await portal.database.rows<{ email: string }>(sql`select email from idp_account where id = ${veraAccount.id}`);
      expect(account?.email).toBe('vera.ny@minside.test');
      veraAccount.email = 'vera.ny@minside.test';
      const withAccount = newBrowser();
      expect((await login(withAccount, { portal: PORTAL, email: veraAccount.email, password: veraAccount.password })).status).toBe(200);
      expect(await sessionUserId(withAccount)).toBe(userId);
    });

    it('exports the group account as their identity-provider account', async () => {
      const created = await vipps.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
      expect(created.status, created.body).toBe(200);
      const cookie = [...vipps.cookies(new URL(PORTAL).host)].map(([key, value]) => `${key}=${value}`).join('; ');
      const zip = await portal.app.inject({ method: 'GET', url: created.json<{ downloadUrl: string }>().downloadUrl, headers: { host: new URL(PORTAL).host, cookie } });
      expect(zip.statusCode).toBe(200);
      const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['minside-data.json'] ?? new Uint8Array())) as { identityAccount: { email: string } | null };
      expect(data.identityAccount).toMatchObject({ email: veraAccount.email, givenName: 'Vera' });
    });

    it('erasure deletes the group account, so it signs in no more', async () => {
      const scheduled = await vipps.request('POST', `${PORTAL}/api/privacy/deletion`, { json: { confirmConsequences: true, confirmPaymentHistory: true } });
      expect(scheduled.status, scheduled.body).toBe(200);
      await portal.app.jobs.runNow('data-erasure');
      const [request] = await portal.database.rows<{ status: string }>(sql`select status from data_request where user_id = ${userId} and kind = 'erasure'`);
      expect(request?.status).toBe('completed');
      expect(await portal.database.rows(sql`select id from idp_account where id = ${veraAccount.id}`)).toEqual([]);
      expect(await portal.database.rows(sql`select id from idp_payload where payload->>'accountId' = ${veraAccount.id}`)).toEqual([]);
      await expect(login(newBrowser(), { portal: PORTAL, email: veraAccount.email, password: veraAccount.password })).rejects.toThrow();
    });
  });

  it('a user who logs in with Vipps only changes the e-mail address at Vipps, not here', async () => {
    const browser = newBrowser();
    expect((await signInThroughLoginPage(browser, 'vipps', stranger)).status).toBe(200);
    expect((await profileOf(browser)).emailChangeHere).toBe(false);
    expectRefused(await browser.request('POST', `${PORTAL}/api/profile/email-change`, { json: { newEmail: 'nils.ny@minside.test', password: DEMO_PASSWORD } }), 409, 'EMAIL_CHANGE_AT_PROVIDER');
  });

  it('a group account unlinked is no longer the user’s, though their identity id is its subject: no e-mail change with it, not exported, not erased', async () => {
    const account = { id: `tom-account-${randomUUID()}`, email: 'tom@minside.test', password: 'tom-konto-passord-1' };
    await upsertIdentityAccount(portal.database, { ...account, givenName: 'Tom', familyName: 'Konto' });
    const browser = newBrowser();
    expect((await login(browser, { portal: PORTAL, ...account })).status).toBe(200);
    const userId = await sessionUserId(browser);
    expect((await link(browser, tom)).status).toBe(200);
    expect((await browser.request('DELETE', `${PORTAL}/api/profile/logins/account`, { json: {} })).status).toBe(200);
    const [user] = await portal.database.rows<{ identity_sub: string }>(sql`select identity_sub from app_user where id = ${userId}`);
    expect(user?.identity_sub).toBe(account.id);

    // Vipps only now: the address is changed at Vipps, not with the password of an account that is no longer his.
    expect((await profileOf(browser)).emailChangeHere).toBe(false);
    expectRefused(await browser.request('POST', `${PORTAL}/api/profile/email-change`, { json: { newEmail: 'tom.ny@minside.test', password: account.password } }), 409, 'EMAIL_CHANGE_AT_PROVIDER');
    const created = await browser.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
    const cookie = [...browser.cookies(new URL(PORTAL).host)].map(([key, value]) => `${key}=${value}`).join('; ');
    const zip = await portal.app.inject({ method: 'GET', url: created.json<{ downloadUrl: string }>().downloadUrl, headers: { host: new URL(PORTAL).host, cookie } });
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['minside-data.json'] ?? new Uint8Array())) as { identityAccount: unknown };
    expect(data.identityAccount).toBeNull();
    expect((await browser.request('POST', `${PORTAL}/api/privacy/deletion`, { json: { confirmConsequences: true, confirmPaymentHistory: true } })).status).toBe(200);
    await portal.app.jobs.runNow('data-erasure');
    // The account stays: it reaches someone else the next time it signs in, not the erased user.
    expect(await portal.database.rows(sql`select id from idp_account where id = ${account.id}`)).toEqual([{ id: account.id }]);
    const again = newBrowser();
    expect((await login(again, { portal: PORTAL, ...account })).status).toBe(200);
    expect(await sessionUserId(again)).not.toBe(userId);
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
