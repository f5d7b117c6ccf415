import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths, manualClock, osloToday, systemClock, type ProfileResponse } from '@minside/domain';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { expectRefused, signIn } from './support.ts';

// Issue 24: each profile field remembers where it came from; what the issuer verified is locked
// against edits here, and a birthdate a purchase was judged by is the buyer's declaration, locked
// too — a later edit can neither reopen an offer nor close one. (The issuer that verifies a
// birthdate, Vipps Login, is in identity-claims.test.ts.)

const PORTAL = 'http://adresseavisen.localhost:3000';

describe.each(testDatabases)('where profile fields come from ($name)', ({ name }) => {
  let test: TestApp;
  const clock = manualClock(systemClock());
  const today = () => osloToday(clock());

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: clock });
  });
  afterAll(() => test?.close());

  const profileOf = async (browser: Awaited<ReturnType<typeof signIn>>) => (await browser.request('GET', `${PORTAL}/api/profile`)).json<ProfileResponse>();
  const form = (profile: ProfileResponse, change: Partial<Record<'givenName' | 'familyName' | 'phoneNumber' | 'birthdate', string>>) => ({
    givenName: profile.givenName,
    familyName: profile.familyName,
    phoneNumber: profile.phoneNumber ?? '',
    birthdate: profile.birthdate ?? '',
    ...change,
  });
  const userRow = async (email: string) =>
    (await test.database.rows<{ given_name: string; birthdate: string | null }>(sql`select given_name, birthdate::text from app_user where email = ${email}`))[0];

  it('says what came from the login, takes the issuer’s changes at the next login, and keeps the user’s own edit', async () => {
    let papir = await signIn(test, PORTAL, 'papir@minside.test');
    const first = await profileOf(papir);
    expect(first.sources.email).toMatchObject({ source: 'ISSUER', issuerLabel: 'kontoen din', verified: true });
    expect(first.sources.givenName).toMatchObject({ source: 'ISSUER', verified: false });
    // Demo data typed before provenance: the user's own.
    expect(first.sources.birthdate).toBeNull();

    // The issuer's name changes (renamed at the account): the next login brings it, as it is the issuer's.
    await test.database.db.execute(sql`update idp_account set given_name = 'Karianne' where email = 'papir@minside.test'`);
    papir = await signIn(test, PORTAL, 'papir@minside.test');
    expect((await profileOf(papir)).givenName).toBe('Karianne');

    // The user's own edit is theirs from now on: a later login does not overwrite it with the issuer's.
    const edited = await papir.request('PUT', `${PORTAL}/api/profile`, { json: form(await profileOf(papir), { givenName: 'Kari Marie' }) });
    expect(edited.status, edited.body).toBe(200);
    expect(edited.json<{ profile: ProfileResponse }>().profile.sources.givenName).toMatchObject({ source: 'USER', verified: false });
    papir = await signIn(test, PORTAL, 'papir@minside.test');
    expect((await profileOf(papir)).givenName).toBe('Kari Marie');

    // A number the user cleared stays cleared: the issuer's (unverified) one does not come back at the next login.
    await test.database.db.execute(sql`update idp_account set phone_number = '+4791234567' where email = 'papir@minside.test'`);
    const cleared = await papir.request('PUT', `${PORTAL}/api/profile`, { json: form(await profileOf(papir), { phoneNumber: '' }) });
    expect(cleared.status, cleared.body).toBe(200);
    papir = await signIn(test, PORTAL, 'papir@minside.test');
    expect((await profileOf(papir)).phoneNumber).toBeNull();
  });

  it('locks the birthdate an order was judged by: an edit is refused with a code and changes nothing', async () => {
    // ny@ has never given a birthdate (as a buyer who signs up to buy).
    await test.database.db.execute(sql`update app_user set birthdate = null where email = 'ny@minside.test'`);
    const ny = await signIn(test, PORTAL, 'ny@minside.test');
    expect((await profileOf(ny)).birthdate).toBeNull();
    const birthdate = addMonths(today(), -12 * 40);
    const ordered = await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-DIGITAL-M', birthdate } });
    expect(ordered.status, ordered.body).toBe(201);

    const profile = await profileOf(ny);
    expect(profile.birthdate).toBe(birthdate);
    expect(profile.sources.birthdate).toMatchObject({ source: 'DECLARED', verified: false });
    // Younger, to reach Ung: refused, with where to go instead; nothing stored.
    const younger = expectRefused(await ny.request('PUT', `${PORTAL}/api/profile`, { json: form(profile, { birthdate: addMonths(today(), -12 * 25) }) }), 409, 'PROFILE_FIELD_LOCKED');
    expect(younger.message).toBe('Fødselsdatoen bekreftet du da du kjøpte et abonnement med aldersgrense, og den kan ikke endres her. Er den feil, kontakt kundeservice.');
    expect((await userRow('ny@minside.test'))?.birthdate).toBe(birthdate);
    // The rest of the profile is still the user's to change, with the birthdate sent back as it is.
    const renamed = await ny.request('PUT', `${PORTAL}/api/profile`, { json: form(profile, { familyName: 'Nyhus' }) });
    expect(renamed.status, renamed.body).toBe(200);
    // An order with another birthdate in its body is judged by the declared one (and declares nothing new).
    await test.database.db.execute(sql`update subscription_order set state = 'cancelled' where user_id = 'user-ny'`);
    const again = await ny.request('POST', `${PORTAL}/api/order?titleCode=ADR`, { json: { idempotencyKey: randomUUID(), ariaPlanID: 'ADR-UNG-DIGITAL-M', birthdate: addMonths(today(), -12 * 20) } });
    expect(again.status).toBe(409);
    expect((await userRow('ny@minside.test'))?.birthdate).toBe(birthdate);
  });
});
