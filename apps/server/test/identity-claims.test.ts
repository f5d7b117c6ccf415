import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, osloToday, systemClock, type ProfileResponse } from '@minside/domain';
import { buildTestApp, type TestApp } from './helper.ts';
import { fetchTransport, injectTransport, login, TestBrowser } from './browser.ts';
import { expectRefused } from './support.ts';
import { startVippsLikeIssuer, type VippsClaims, type VippsLikeIssuer, type VippsPerson } from './vipps-like-issuer.ts';

// Issue 24: the portal against an issuer in another process that behaves like Vipps Login — the
// ID token carries only `sub`, the person's name, phone number, birthdate and address come from
// userinfo in Vipps' names, and what it says of the birthdate and the number is BankID-verified.
// The issuer's word decides SPEC §5's ages, whatever the person types.

const PORTAL = 'http://adresseavisen.localhost:3000';
const CLIENT_SECRET = 'vipps-like-client-secret';
const today = osloToday(systemClock());
const address = { street_address: 'Kárášjohkageaidnu 3', postal_code: '9730', region: 'Kárášjohka', country: 'NO', formatted: 'Kárášjohkageaidnu 3\n9730 Kárášjohka\nNO', address_type: 'home' };
const person = (key: string, claims: VippsClaims, extra: Partial<VippsPerson> = {}): VippsPerson => ({
  sub: randomUUID(),
  email: `${key}@vipps.test`,
  password: `${key}-passord-123`,
  claims: { email: `${key}@vipps.test`, email_verified: true, ...claims },
  ...extra,
});

/** Seventeen today: eighteen tomorrow. */
const seventeen = person('sytten', { name: 'Áile Čuđe', phone_number: '4791234567', birthdate: addDays(addMonths(today, -12 * 18), 1), address });
const forty = person('forti', { given_name: 'Ola', family_name: 'Nordmann', phone_number: '4798765432', birthdate: addMonths(today, -12 * 40), address });
/** Said nothing of the birthdate (the scope not granted to this client): the buyer declares it. */
const noBirthdate = person('uten', { name: 'Kari Uten', phone_number: '4791112222' }, { withhold: ['birthDate'] });
const unverifiedEmail = person('uverifisert', { name: 'Per Uverifisert', email_verified: false, birthdate: addMonths(today, -12 * 50) });

describe('an issuer like Vipps Login (OIDC_CLAIMS=vipps)', () => {
  let issuer: VippsLikeIssuer;
  let portal: TestApp;

  beforeAll(async () => {
    issuer = await startVippsLikeIssuer({ clientId: 'minside', clientSecret: CLIENT_SECRET, redirectUris: [`${PORTAL}/callback`], persons: [seventeen, forty, noBirthdate, unverifiedEmail] });
    portal = await buildTestApp('pglite', { seed: true, config: { oidcIssuer: issuer.issuer, oidcClientSecret: CLIENT_SECRET, oidcClaims: 'vipps', oidcIssuerLabel: 'Vipps', oidcScopes: undefined } });
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
    issuer?.stop();
  });

  const signIn = async (who: VippsPerson) => {
    const browser = new TestBrowser((url) => (url.href.startsWith(issuer.issuer) ? fetchTransport : injectTransport(portal.app)));
    const response = await login(browser, { portal: PORTAL, email: who.email, password: who.password });
    expect(response.status, response.body).toBe(200);
    return browser;
  };
  const profileOf = async (browser: TestBrowser) => (await browser.request('GET', `${PORTAL}/api/profile`)).json<ProfileResponse>();
  const order = (browser: TestBrowser, ariaPlanID: string, birthdate?: string) =>
    browser.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID, ...(birthdate ? { birthdate } : {}) } });
  const form = (profile: ProfileResponse, change: Record<string, string>) => ({
    givenName: profile.givenName,
    familyName: profile.familyName,
    phoneNumber: profile.phoneNumber ?? '',
    birthdate: profile.birthdate ?? '',
    ...change,
  });

  it('a person the issuer says is 17 cannot buy, whatever they type, and cannot type another birthdate', async () => {
    const browser = await signIn(seventeen);
    const profile = await profileOf(browser);
    // Everything from userinfo, in the portal's shapes: the name split, the number in E.164.
    expect(profile).toMatchObject({ givenName: 'Áile', familyName: 'Čuđe', phoneNumber: '+4791234567', birthdate: seventeen.claims.birthdate, email: 'sytten@vipps.test' });
    expect(profile.sources.birthdate).toMatchObject({ source: 'ISSUER', issuerLabel: 'Vipps', verified: true });
    expect(profile.sources.phoneNumber).toMatchObject({ source: 'ISSUER', verified: true });
    expect(profile.sources.givenName).toMatchObject({ source: 'ISSUER', verified: false });

    const retyped = expectRefused(await browser.request('PUT', `${PORTAL}/api/profile`, { json: form(profile, { birthdate: '1990-01-01' }) }), 409, 'PROFILE_FIELD_LOCKED');
    expect(retyped.message).toBe('Fødselsdatoen er bekreftet av Vipps og kan ikke endres her. Endre den hos Vipps, så oppdateres den neste gang du logger inn.');
    expectRefused(await browser.request('PUT', `${PORTAL}/api/profile`, { json: form(profile, { phoneNumber: '+4790000000' }) }), 409, 'PROFILE_FIELD_LOCKED');
    expectRefused(await order(browser, 'ADR-DIGITAL-M', '1990-01-01'), 409, 'UNDER_MINIMUM_AGE');
    expect((await profileOf(browser)).birthdate).toBe(seventeen.claims.birthdate);
    // The name is theirs to change: the issuer did not verify it.
    expect((await browser.request('PUT', `${PORTAL}/api/profile`, { json: form(profile, { givenName: 'Áile Sofie' }) })).status).toBe(200);
  });

  it('Ung and Honnør use the verified birthdate; the issuer’s changed claims arrive at the next login', async () => {
    let browser = await signIn(forty);
    expectRefused(await order(browser, 'ADR-UNG-DIGITAL-M', addMonths(today, -12 * 25)), 409, 'UNG_AGE_LIMIT');
    // The issuer corrects the birthdate (and the number): the next login brings both, still verified.
    await issuer.setClaims(forty.sub, { ...forty.claims, birthdate: addMonths(today, -12 * 30), phone_number: '4798765433' });
    browser = await signIn(forty);
    const profile = await profileOf(browser);
    expect(profile).toMatchObject({ birthdate: addMonths(today, -12 * 30), phoneNumber: '+4798765433' });
    expect(profile.sources.birthdate).toMatchObject({ source: 'ISSUER', verified: true });
    const ung = await order(browser, 'ADR-UNG-DIGITAL-M');
    expect(ung.status, ung.body).toBe(201);
  });

  it('without the issuer’s birthdate the buyer declares one, and it is locked from then on', async () => {
    const browser = await signIn(noBirthdate);
    const profile = await profileOf(browser);
    expect(profile.birthdate).toBeNull();
    expect(profile.sources.birthdate).toBeNull();
    const declared = addMonths(today, -12 * 45);
    const ordered = await order(browser, 'ADR-DIGITAL-M', declared);
    expect(ordered.status, ordered.body).toBe(201);
    expect((await profileOf(browser)).sources.birthdate).toMatchObject({ source: 'DECLARED', verified: false });
    expectRefused(await browser.request('PUT', `${PORTAL}/api/profile`, { json: form(await profileOf(browser), { birthdate: addMonths(today, -12 * 20) }) }), 409, 'PROFILE_FIELD_LOCKED');
  });

  it('an e-mail address the issuer has not verified is shown as such and is not trusted', async () => {
    const browser = await signIn(unverifiedEmail);
    const profile = await profileOf(browser);
    expect(profile.sources.email).toMatchObject({ source: 'ISSUER', verified: false });
    const [row] = await portal.database.rows<{ email_verified_at: Date | null }>(`select email_verified_at from app_user where email = 'uverifisert@vipps.test'` as never);
    expect(row?.email_verified_at ?? null).toBeNull();
  });
});
