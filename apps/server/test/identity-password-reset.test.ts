import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@minside/domain';
import { appUser, userLogin } from '../src/db/schema.ts';
import { upsertIdentityAccount } from '../src/identity/provider/index.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { callbackBody, injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

// Issue 25.9: "Glemt passord?" at the embedded provider, through its real pages: a six-digit
// code by e-mail, then the code and a new password in the same login interaction.

const PORTAL = 'http://adresseavisen.localhost:3000';
const MINUTE = 60_000;
const OLD_PASSWORD = 'gammelt-passord-1';
const NEW_PASSWORD = 'nytt-passord-2';

describe.each(testDatabases)('password reset at the embedded provider ($name)', ({ name }) => {
  let test: TestApp;
  let clockOffset = 0;
  const now = () => new Date(systemClock().getTime() + clockOffset);
  const browser = () => new TestBrowser(() => injectTransport(test.app));
  let people = 0;

  /** A login of its own for each case, so no case depends on another's password. */
  async function person(): Promise<string> {
    people += 1;
    const email = `glemsk.${people}@example.no`;
    await upsertIdentityAccount(test.database, { id: `reset-person-${people}`, email, password: OLD_PASSWORD, givenName: 'Glenn', familyName: 'Glemsk' });
    return email;
  }

  const formAction = (page: BrowserResponse, at: URL | string) => new URL((/<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '').replaceAll('&amp;', '&'), at).href;

  /** From Min Side's login button to "Glemt passord?": the request form's action and the page. */
  async function openPasswordReset(b: TestBrowser): Promise<{ action: string; page: BrowserResponse }> {
    const { authorizationUrl } = (await b.request('GET', `${PORTAL}/api/loginToken?titleCode=ADR&returnTo=%2Ffakturaoversikt`)).json<{ authorizationUrl: string }>();
    const atLogin = await b.follow(authorizationUrl);
    const loginPage = atLogin.response?.body ?? '';
    const link = /<a href="([^"]+\/password)">Glemt passord\?<\/a>/.exec(loginPage)?.[1];
    expect(link, loginPage.slice(0, 500)).toBeDefined();
    const page = await b.request('GET', new URL(link ?? '', atLogin.url).href);
    return { action: formAction(page, atLogin.url), page };
  }

  /** "Send kode" for `email`: the code form's action and its hidden fields. */
  async function requestCode(b: TestBrowser, email: string) {
    const { action } = await openPasswordReset(b);
    const page = await b.request('POST', action, { form: { email } });
    // The form's own fields, as a browser would send them back.
    const reset = /name="reset" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const sentTo = /name="email" type="email" autocomplete="username" value="([^"]*)"/.exec(page.body)?.[1] ?? '';
    return { page, action: page.status === 200 ? formAction(page, action) : action, fields: { reset, email: sentTo } };
  }

  /** The code in the newest mail to `to`, on a line of its own. */
  const codeMailedTo = async (to: string) => {
    const [mail] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = ${to} order by created_at desc limit 1`);
    const code = /^(\d{6})$/m.exec(mail?.text ?? '')?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  };
  const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
  const canLogIn = async (email: string, password: string) =>
    login(browser(), { portal: PORTAL, email, password, titleCode: 'ADR' }).then(
      (response) => response.status === 200,
      () => false,
    );

  beforeAll(async () => {
    test = await buildTestApp(name, { now });
  });
  afterAll(() => test.close());
  beforeEach(async () => {
    clockOffset = 0;
    // The per-IP budgets are shared by every case in this file (all requests come from one IP).
    await test.database.rows(sql`delete from idp_login_failure`);
  });

  it('mails a code; a wrong code is refused; the right one sets the new password, signs in and ends the old sessions', async () => {
    const email = await person();
    // Signed in elsewhere with the old password: a portal session and a provider session.
    const elsewhere = browser();
    expect((await login(elsewhere, { portal: PORTAL, email, password: OLD_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    expect((await elsewhere.request('GET', `${PORTAL}/api/session`)).status).toBe(200);
    const accountId = `reset-person-${people}`;
    const providerRows = async () =>
      (await test.database.rows<{ model: string; id: string }>(sql`select model, id from idp_payload where payload->>'accountId' = ${accountId}`)).map((row) => `${row.model}:${row.id}`);
    const before = await providerRows();
    expect(before.some((row) => row.startsWith('Session:'))).toBe(true);
    expect(before.some((row) => row.startsWith('Grant:'))).toBe(true);

    const b = browser();
    const { page: form } = await openPasswordReset(b);
    expect(form.status).toBe(200);
    expect(form.body).toContain('<h1>Glemt passord?</h1>');
    expect(form.body).toContain('alt="Adresseavisen"');
    const requested = await requestCode(b, ` ${email.toUpperCase()} `);
    expect(requested.page.status, requested.page.body.slice(0, 300)).toBe(200);
    expect(requested.page.body).toContain('<h1>Lag nytt passord</h1>');
    expect(requested.page.body).toContain(`Hvis det finnes en bruker med e-postadressen <strong>${email}</strong>, har vi sendt en kode på 6 siffer til den.`);
    const code = await codeMailedTo(email);

    const wrong = await b.request('POST', requested.action, { form: { ...requested.fields, code: otherThan(code), password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('Koden er feil. Du har 4 forsøk igjen.');
    expect(wrong.body).toMatch(/<input id="code"[^>]*aria-invalid="true" aria-describedby="code-error"[^>]*autofocus/);
    expect(await canLogIn(email, OLD_PASSWORD)).toBe(true);

    const done = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(done.status, done.body.slice(0, 300)).toBe(303);
    const back = await b.follow(new URL(String(done.headers['location']), requested.action).href, (url) => url.pathname === '/callback');
    const session = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(back.url) });
    expect(session.status, session.body).toBe(200);
    expect(session.json()).toMatchObject({ user: { email }, returnTo: '/fakturaoversikt' });

    // The session opened with the old password is over, in the portal and at the provider.
    expect((await elsewhere.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
    const after = await providerRows();
    expect(before.filter((row) => after.includes(row))).toEqual([]);
    const [notice] = await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = ${email} order by created_at desc limit 1`);
    expect(notice?.subject).toBe('Passordet ditt på Min Side hos Adresseavisen er endret');
    expect(notice?.text).toContain('Du er logget ut alle andre steder.');

    expect(await canLogIn(email, NEW_PASSWORD)).toBe(true);
    expect(await canLogIn(email, OLD_PASSWORD)).toBe(false);

    // The code is used up: it cannot set a password a second time.
    const again = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: 'tredje-passord', passwordRepeat: 'tredje-passord' } });
    expect(again.status).toBe(400);
    expect(await canLogIn(email, 'tredje-passord')).toBe(false);
  });

  it('ends the sessions of a user who came by Vipps first and linked this account later', async () => {
    const email = await person();
    const accountId = `reset-person-${people}`;
    // As the portal leaves such a user (modules/auth/logins.ts): the identity id names their Vipps
    // login, and this account is linked to them as their login with the main issuer.
    const userId = `vipps-first-${people}`;
    const vippsSub = `vipps-sub-${people}`;
    await test.database.db.insert(appUser).values({ id: userId, identitySub: `vipps:${vippsSub}`, email, givenName: 'Glenn', familyName: 'Glemsk' });
    await test.database.db.insert(userLogin).values([
      { issuer: 'vipps', subject: vippsSub, userId, linkedAt: now() },
      { issuer: 'account', subject: accountId, userId, linkedAt: now() },
    ]);
    const elsewhere = browser();
    expect((await login(elsewhere, { portal: PORTAL, email, password: OLD_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    expect((await elsewhere.request('GET', `${PORTAL}/api/session`)).json<{ user: { sp_id: string } }>().user.sp_id).toBe(userId);

    const b = browser();
    const requested = await requestCode(b, email);
    const code = await codeMailedTo(email);
    const done = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(done.status, done.body.slice(0, 300)).toBe(303);
    expect((await elsewhere.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
  });

  it('refuses an expired code and leaves the password as it was', async () => {
    const email = await person();
    const b = browser();
    const requested = await requestCode(b, email);
    const code = await codeMailedTo(email);
    clockOffset = 16 * MINUTE;
    const late = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(late.status).toBe(400);
    expect(late.body).toContain('Koden er ikke lenger gyldig. Be om en ny kode.');
    expect(late.body).toContain('be om en ny kode</a>');
    clockOffset = 0;
    expect(await canLogIn(email, OLD_PASSWORD)).toBe(true);
    expect(await canLogIn(email, NEW_PASSWORD)).toBe(false);
  });

  it('checks the new password by the sign-up rules before spending a try of the code', async () => {
    const email = await person();
    const b = browser();
    const requested = await requestCode(b, email);
    const code = await codeMailedTo(email);
    const short = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: 'kort', passwordRepeat: 'kort' } });
    expect(short.status).toBe(400);
    expect(short.body).toContain('Passordet må ha minst 8 tegn');
    // The page keeps the address and the code as typed; only the passwords are typed again.
    expect(short.body).toContain(`Hvis det finnes en bruker med e-postadressen <strong>${email}</strong>, har vi sendt`);
    expect(short.body).toMatch(new RegExp(`<input id="code"[^>]*value="${code}"`));
    expect(short.body).toMatch(/<input id="password"[^>]*aria-invalid="true"[^>]*autofocus/);
    const differ = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: 'noe-annet-9' } });
    expect(differ.body).toContain('Passordene er ikke like');
    expect(differ.body).not.toContain(NEW_PASSWORD);
    const noCode = await b.request('POST', requested.action, { form: { ...requested.fields, code: ' ', password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(noCode.body).toContain('Skriv inn koden på 6 siffer');
    // None of these spent a try: the code still works.
    const done = await b.request('POST', requested.action, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(done.status).toBe(303);
    expect(await canLogIn(email, NEW_PASSWORD)).toBe(true);
  });

  it('answers an address without a login exactly like one with, mails its owner a notice, and no code works', async () => {
    const known = await person();
    const pageFor = async (email: string) => requestCode(browser(), email);
    const withLogin = await pageFor(known);
    const without = await pageFor('ingen.bruker@example.no');
    const scrub = (body: string, email: string) =>
      body
        .replaceAll(email, 'EPOST')
        .replace(/(interaction\/)[^/"]+/g, '$1UID')
        .replace(/name="reset" value="[^"]+"/, 'name="reset" value="ID"');
    expect(without.page.status).toBe(withLogin.page.status);
    expect(scrub(without.page.body, 'ingen.bruker@example.no')).toBe(scrub(withLogin.page.body, known));
    const [notice] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = 'ingen.bruker@example.no' order by created_at desc limit 1`);
    expect(notice?.text).toContain('det finnes ingen bruker med den');
    expect(notice?.text).not.toMatch(/^\d{6}$/m);
    for (const code of ['000000', '123456']) {
      const tried = await browser().request('POST', without.action, { form: { ...without.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
      expect(tried.status).toBe(400);
    }
    expect((await test.database.rows(sql`select 1 from idp_account where email = 'ingen.bruker@example.no'`)).length).toBe(0);
  });

  it('sends at most three codes an hour to one address, and takes at most ten requests a minute from one IP', async () => {
    const email = await person();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const requested = await requestCode(browser(), email);
      statuses.push(requested.page.status);
      if (requested.page.status === 429) expect(requested.page.body).toContain('Det er bedt om for mange koder til denne e-postadressen. Vent en time og prøv igjen.');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await test.database.rows(sql`select 1 from mail_outbox where to_address = ${email}`)).length).toBe(3);

    // One browser asking for many addresses: the eleventh request in the minute is refused unheard.
    await test.database.rows(sql`delete from idp_login_failure`);
    const b = browser();
    const { action } = await openPasswordReset(b);
    const answers: number[] = [];
    for (let n = 0; n < 11; n += 1) answers.push((await b.request('POST', action, { form: { email: `spray.${n}@example.no` } })).status);
    expect(answers.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(answers[10]).toBe(429);
    const refused = await b.request('POST', action, { form: { email: 'spray.11@example.no' } });
    expect(refused.body).toContain('For mange forsøk. Vent et minutt og prøv igjen.');
    expect((await test.database.rows(sql`select 1 from mail_outbox where to_address = 'spray.11@example.no'`)).length).toBe(0);
  });

  it('a code works only in the browser that asked for it', async () => {
    const email = await person();
    const requested = await requestCode(browser(), email);
    const code = await codeMailedTo(email);
    const other = browser();
    const { action: otherRequest } = await openPasswordReset(other);
    const stolen = await other.request('POST', `${otherRequest}/code`, { form: { ...requested.fields, code, password: NEW_PASSWORD, passwordRepeat: NEW_PASSWORD } });
    expect(stolen.status).toBe(400);
    expect(stolen.body).not.toContain(email);
    expect(stolen.body).toContain('Koden er ikke lenger gyldig. Be om en ny kode.');
    expect(await canLogIn(email, OLD_PASSWORD)).toBe(true);
  });

  it('refuses a bad address with the SPEC messages and mails nothing', async () => {
    const { action } = await openPasswordReset(browser());
    const b = browser();
    const { action: own } = await openPasswordReset(b);
    expect(action).not.toBe(own);
    const empty = await b.request('POST', own, { form: { email: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('E-post er påkrevd');
    const bad = await b.request('POST', own, { form: { email: 'ikke-en-adresse@' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Vennligst skriv en gyldig e-postadresse');
    expect((await test.database.rows(sql`select 1 from mail_outbox where to_address = 'ikke-en-adresse@'`)).length).toBe(0);
  });
});
