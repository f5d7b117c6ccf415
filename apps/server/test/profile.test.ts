import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

// Issue 4 profile: the SPEC §5 messages, phone numbers validated with libphonenumber-js,
// and the e-mail change with re-authentication and a confirmation link from the outbox.

const PORTAL = 'http://adresseavisen.localhost:3000';

describe.each(testDatabases)('profile ($name)', ({ name }) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(() => test.close());

  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const browser = new TestBrowser(() => injectTransport(test.app));
    const response = await login(browser, { portal: PORTAL, email, password, titleCode: 'ADR' });
    expect(response.status, response.body).toBe(200);
    return browser;
  };
  const userRow = async (id: string) =>
    (await test.database.rows<Record<string, unknown>>(sql`select email, given_name, family_name, phone_number, birthdate::text as birthdate from app_user where id = ${id}`))[0];
  const outbox = async () => test.database.rows<{ to_address: string; subject: string; text: string }>(sql`select to_address, subject, text from mail_outbox order by created_at`);
  const expectRefused = (response: BrowserResponse, status: number, code: string, message: string) => {
    expect(response.status, response.body).toBe(status);
    expect(response.json()).toMatchObject({ code, message });
  };
  const valid = { givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567', birthdate: '1968-01-15' };

  it('shows the profile and the family-sharing summary per role', async () => {
    const papir = await signIn('papir@minside.test');
    const profile = (await papir.request('GET', `${PORTAL}/api/profile`)).json();
    expect(profile).toMatchObject({ givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '+4791234567', email: 'papir@minside.test', pendingEmail: null, emailChangeHere: true });
    expect(profile['birthdate']).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const familie = await signIn('familie@minside.test');
    expect((await familie.request('GET', `${PORTAL}/api/profile`)).json()).toMatchObject({
      sharing: {
        role: 'owner',
        maxMembers: 4,
        members: expect.arrayContaining([
          { email: 'familiemedlem@minside.test', status: 'active' },
          { email: 'sofie.olsen@minside.test', status: 'emailSent' },
        ]),
      },
    });
    const member = await signIn('familiemedlem@minside.test');
    expect((await member.request('GET', `${PORTAL}/api/profile`)).json()).toMatchObject({ sharing: { role: 'member', ownerName: 'Per Olsen' } });
  });

  it('refuses invalid fields with the SPEC §5 messages and changes nothing', async () => {
    const browser = await signIn('papir@minside.test');
    const before = await userRow('user-papir');
    const put = (body: Record<string, string>) => browser.request('PUT', `${PORTAL}/api/profile`, { json: { ...valid, ...body } });
    expectRefused(await put({ givenName: '  ' }), 400, 'VALIDATION_FAILED', 'Fornavn er påkrevd');
    expectRefused(await put({ familyName: '' }), 400, 'VALIDATION_FAILED', 'Etternavn er påkrevd');
    expectRefused(await put({ phoneNumber: '12345' }), 400, 'VALIDATION_FAILED', 'Telefonnummeret er ugyldig');
    expectRefused(await put({ phoneNumber: '+47 123' }), 400, 'VALIDATION_FAILED', 'Telefonnummeret er ugyldig');
    expectRefused(await put({ phoneNumber: 'ring meg' }), 400, 'VALIDATION_FAILED', 'Telefonnummeret er ugyldig');
    expectRefused(await put({ birthdate: '2999-01-01' }), 400, 'VALIDATION_FAILED', 'Fødselsdatoen er ugyldig');
    expect(await userRow('user-papir')).toEqual(before);
  });

  it('stores Norwegian and foreign numbers in E.164, and returns the session user', async () => {
    const browser = await signIn('papir@minside.test');
    const response = await browser.request('PUT', `${PORTAL}/api/profile`, { json: { ...valid, givenName: 'Kari Anne', phoneNumber: '912 34 567' } });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ user: { givenName: 'Kari Anne', displayName: 'Kari Anne Nordmann', phoneNumber: '+4791234567' }, profile: { birthdate: '1968-01-15' } });
    const swedish = await browser.request('PUT', `${PORTAL}/api/profile`, { json: { ...valid, phoneNumber: '+46 70 123 45 67', birthdate: '' } });
    expect(swedish.status, swedish.body).toBe(200);
    expect(await userRow('user-papir')).toMatchObject({ phone_number: '+46701234567', birthdate: null, given_name: 'Kari' });
  });

  it('an e-mail change needs the password and a valid, unused address; refusals send nothing', async () => {
    const browser = await signIn('digital@minside.test');
    const change = (body: Record<string, string>) => browser.request('POST', `${PORTAL}/api/profile/email-change`, { json: body });
    expectRefused(await change({ newEmail: 'ola.ny@minside.test', password: 'feil-passord' }), 403, 'WRONG_PASSWORD', 'Passordet er feil.');
    expectRefused(await change({ newEmail: 'ikke-en-adresse', password: DEMO_PASSWORD }), 400, 'VALIDATION_FAILED', 'Vennligst skriv en gyldig e-postadresse');
    expectRefused(await change({ newEmail: '', password: DEMO_PASSWORD }), 400, 'VALIDATION_FAILED', 'E-post er påkrevd');
    expectRefused(await change({ newEmail: 'digital@minside.test', password: DEMO_PASSWORD }), 409, 'EMAIL_UNCHANGED', 'Dette er e-postadressen du har nå.');
    expectRefused(await change({ newEmail: 'papir@minside.test', password: DEMO_PASSWORD }), 409, 'EMAIL_TAKEN', 'E-postadressen er allerede i bruk av en annen bruker.');
    expect(await outbox()).toEqual([]);
  });

  it('is confirmed by the link sent to the new address; then the new address signs in', async () => {
    const browser = await signIn('digital@minside.test');
    const requested = await browser.request('POST', `${PORTAL}/api/profile/email-change`, { json: { newEmail: 'Ola.Ny@Minside.test', password: DEMO_PASSWORD } });
    expect(requested.status, requested.body).toBe(202);
    expect(requested.json()).toEqual({ pendingEmail: 'ola.ny@minside.test' });
    expect((await browser.request('GET', `${PORTAL}/api/profile`)).json()).toMatchObject({ email: 'digital@minside.test', pendingEmail: 'ola.ny@minside.test' });
    expect(await userRow('user-digital')).toMatchObject({ email: 'digital@minside.test' });

    const [mail] = await outbox();
    expect(mail).toMatchObject({ to_address: 'ola.ny@minside.test', subject: 'Bekreft ny e-postadresse på Min Side' });
    const token = /\/endre-profil\?bekreft-epost=([\w-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    expect(mail?.text).toContain(`${PORTAL}/endre-profil?bekreft-epost=`);

    // Someone else, signed in, cannot use the link.
    const other = await signIn('ung@minside.test');
    expectRefused(await other.request('POST', `${PORTAL}/api/profile/email-change/confirm`, { json: { token } }), 400, 'EMAIL_TOKEN_INVALID', 'Lenken er ugyldig eller utløpt. Be om en ny.');
    expectRefused(
      await browser.request('POST', `${PORTAL}/api/profile/email-change/confirm`, { json: { token: 'gjettet' } }),
      400,
      'EMAIL_TOKEN_INVALID',
      'Lenken er ugyldig eller utløpt. Be om en ny.',
    );

    const confirmed = await browser.request('POST', `${PORTAL}/api/profile/email-change/confirm`, { json: { token } });
    expect(confirmed.status, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ user: { email: 'ola.ny@minside.test' }, profile: { email: 'ola.ny@minside.test', pendingEmail: null } });
    expectRefused(await browser.request('POST', `${PORTAL}/api/profile/email-change/confirm`, { json: { token } }), 400, 'EMAIL_TOKEN_INVALID', 'Lenken er ugyldig eller utløpt. Be om en ny.');

    await signIn('ola.ny@minside.test');
    await expect(signIn('digital@minside.test')).rejects.toThrow();
  });

  it('lists the outbox at /_dev/mail when no SMTP server is set', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/_dev/mail' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('Bekreft ny e-postadresse på Min Side');
    expect(response.body).toMatch(/<a href="http:\/\/adresseavisen\.localhost:3000\/endre-profil\?bekreft-epost=/);
  });

  it('needs a session', async () => {
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    expect((await anonymous.request('GET', `${PORTAL}/api/profile`)).status).toBe(401);
    expect((await anonymous.request('PUT', `${PORTAL}/api/profile`, { json: valid })).status).toBe(401);
  });
});
