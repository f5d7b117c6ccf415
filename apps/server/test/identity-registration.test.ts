import { sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { callbackBody, injectTransport, login, TestBrowser, type BrowserResponse } from './browser.ts';

const PORTAL = 'http://adresseavisen.localhost:3000';

describe.each(testDatabases)('sign-up at the embedded provider ($name)', ({ name }) => {
  let test: TestApp;
  const browser = () => new TestBrowser(() => injectTransport(test.app));
  const accounts = async () => Number((await test.database.rows<{ n: string }>(sql`select count(*) as n from idp_account`))[0]?.n);

  /** From Min Side's login button to the provider's sign-up form: the form's action and the page. */
  async function openRegistration(b: TestBrowser): Promise<{ action: string; page: BrowserResponse }> {
    const { authorizationUrl } = (await b.request('GET', `${PORTAL}/api/loginToken?titleCode=ADR&returnTo=%2Ffamiliedeling`)).json<{ authorizationUrl: string }>();
    const atLogin = await b.follow(authorizationUrl);
    const loginPage = atLogin.response?.body ?? '';
    const link = /<a href="([^"]+\/register)">Opprett bruker<\/a>/.exec(loginPage)?.[1];
    expect(link, loginPage.slice(0, 500)).toBeDefined();
    const page = await b.request('GET', new URL(link ?? '', atLogin.url).href);
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return { action: new URL(action, atLogin.url).href, page };
  }

  const person = { givenName: 'Nora', familyName: 'Ny', email: 'Nora.Ny@Example.no', password: 'lang-nok-1', passwordRepeat: 'lang-nok-1' };

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(() => test.close());

  /** The code in the newest mail to `to`, on a line of its own. */
  const codeMailedTo = async (to: string) => {
    const [mail] = await test.database.rows<{ text: string }>(sql`select text from mail_outbox where to_address = ${to} order by created_at desc limit 1`);
    const code = /^(\d{6})$/m.exec(mail?.text ?? '')?.[1];
    if (!code) throw new Error(`no code mailed to ${to}`);
    return code;
  };
  const codeForm = (page: BrowserResponse, at: string) => {
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const signup = /name="signup" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return { action: new URL(action.replaceAll('&amp;', '&'), at).href, signup };
  };

  // Issue 20 point 3: a sign-up with an address the person does not control used to sign them in
  // at once, and the data export then listed the subjects of the mail sent to that address.
  it('signs nobody in before the code from the mailbox is entered; the code creates the login and signs in', async () => {
    const before = await accounts();
    const b = browser();
    const { action } = await openRegistration(b);
    const posted = await b.request('POST', action, { form: person });
    expect(posted.status, posted.body.slice(0, 300)).toBe(200);
    expect(posted.body).toContain('<h1>Bekreft e-postadressen</h1>');
    expect(posted.body).toContain('Vi har sendt en kode på 6 siffer til nora.ny@example.no');
    expect(posted.headers['location']).toBeUndefined();
    expect(await accounts()).toBe(before);
    // Not usable for a login either.
    expect((await login(browser(), { portal: PORTAL, email: 'nora.ny@example.no', password: 'lang-nok-1', titleCode: 'ADR' }).catch((error: Error) => error)) instanceof Error).toBe(true);

    const form = codeForm(posted, action);
    const code = await codeMailedTo('nora.ny@example.no');
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await b.request('POST', form.action, { form: { signup: form.signup, code: wrong } });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Koden er feil. Du har 4 forsøk igjen.');
    expect(await accounts()).toBe(before);

    const verified = await b.request('POST', form.action, { form: { signup: form.signup, code } });
    expect(verified.status, verified.body.slice(0, 300)).toBe(303);
    const back = await b.follow(new URL(String(verified.headers['location']), action).href, (url) => url.pathname === '/callback');
    const session = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(back.url) });
    expect(session.status, session.body).toBe(200);
    expect(session.json()).toMatchObject({ user: { givenName: 'Nora', familyName: 'Ny', email: 'nora.ny@example.no' }, returnTo: '/familiedeling' });
    expect(await accounts()).toBe(before + 1);
    // The new login works like any other afterwards.
    expect((await login(browser(), { portal: PORTAL, email: 'nora.ny@example.no', password: 'lang-nok-1', titleCode: 'ADR' })).status).toBe(200);
  });

  it('the data export lists only the mail sent since the address was proven, not mail merely addressed to it before', async () => {
    const email = 'eva.eksport@example.no';
    await test.database.rows(
      sql`insert into mail_outbox (id, to_address, subject, text, created_at) values ('mail-before-signup', ${email}, 'Sendt før brukeren fantes', 'x', now() - interval '1 day')`,
    );
    const b = browser();
    const { action } = await openRegistration(b);
    const posted = await b.request('POST', action, { form: { ...person, email } });
    const form = codeForm(posted, action);
    const verified = await b.request('POST', form.action, { form: { signup: form.signup, code: await codeMailedTo(email) } });
    const back = await b.follow(new URL(String(verified.headers['location']), action).href, (url) => url.pathname === '/callback');
    expect((await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(back.url) })).status).toBe(200);
    await test.database.rows(
      sql`insert into mail_outbox (id, to_address, subject, text, created_at) values ('mail-after-signup', ${email}, 'Sendt etter bekreftelsen', 'x', now() + interval '1 minute')`,
    );
    const requested = await b.request('POST', `${PORTAL}/api/privacy/export`, { json: {} });
    expect(requested.status, requested.body).toBe(200);
    const cookie = [...b.cookies(new URL(PORTAL).host)].map(([key, value]) => `${key}=${value}`).join('; ');
    const zip = await test.app.inject({ method: 'GET', url: requested.json<{ downloadUrl: string }>().downloadUrl, headers: { host: new URL(PORTAL).host, cookie } });
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.rawPayload))['minside-data.json'] ?? new Uint8Array())) as { mail: { subject: string }[] };
    const subjects = data.mail.map((mail) => mail.subject);
    expect(subjects).not.toContain('Sendt før brukeren fantes');
    expect(subjects).toContain('Sendt etter bekreftelsen');
  });

  it('a code works only in the browser that asked for it, and five wrong codes end the sign-up', async () => {
    const b = browser();
    const { action } = await openRegistration(b);
    const posted = await b.request('POST', action, { form: { ...person, email: 'kari.kode@example.no' } });
    const form = codeForm(posted, action);
    const code = await codeMailedTo('kari.kode@example.no');

    // Someone else's browser (its own login interaction) cannot use this sign-up's code.
    const other = browser();
    const { action: otherAction } = await openRegistration(other);
    const stolen = await other.request('POST', new URL(form.action.replace(/interaction\/[^/]+\//, `interaction/${/interaction\/([^/]+)\//.exec(otherAction)?.[1]}/`)).href, {
      form: { signup: form.signup, code },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).not.toContain('kari.kode@example.no');
    expect((await test.database.rows(sql`select 1 from idp_account where email = 'kari.kode@example.no'`)).length).toBe(0);

    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) await b.request('POST', form.action, { form: { signup: form.signup, code: wrong } });
    const tooLate = await b.request('POST', form.action, { form: { signup: form.signup, code } });
    expect(tooLate.status).toBe(400);
    expect(tooLate.body).toContain('Koden er ikke lenger gyldig.');
    expect((await test.database.rows(sql`select 1 from idp_account where email = 'kari.kode@example.no'`)).length).toBe(0);
  });

  it('shows the field messages and stores nothing for an incomplete form', async () => {
    const before = await accounts();
    const b = browser();
    const { action } = await openRegistration(b);
    const empty = await b.request('POST', action, { form: { givenName: ' ', familyName: '', email: '', password: '', passwordRepeat: '' } });
    expect(empty.status).toBe(400);
    for (const message of ['Fornavn er påkrevd', 'Etternavn er påkrevd', 'E-post er påkrevd', 'Passordet må ha minst 8 tegn']) expect(empty.body).toContain(message);
    expect(empty.body).toMatch(/<input id="givenName"[^>]*aria-invalid="true" aria-describedby="givenName-error"[^>]*autofocus/);

    const wrong = await b.request('POST', action, { form: { ...person, email: 'nora@', passwordRepeat: 'noe-annet-1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('Vennligst skriv en gyldig e-postadresse');
    expect(wrong.body).toContain('Passordene er ikke like');
    expect(wrong.body).toContain('value="Nora"'); // what was typed stays
    expect(wrong.body).not.toContain('lang-nok-1'); // passwords are never echoed
    expect(await accounts()).toBe(before);
  });

  // Issue 20 point 8: the names are copied into e-mails; CR/LF and 1,000 characters were accepted.
  it('refuses a name with a line break or over 100 characters, and stores what it takes in NFC', async () => {
    const before = await accounts();
    const b = browser();
    const { action } = await openRegistration(b);
    const broken = await b.request('POST', action, { form: { ...person, email: 'linjeskift@example.no', givenName: 'Nora\r\nBcc: x@example.no', familyName: 'N'.repeat(1000) } });
    expect(broken.status).toBe(400);
    expect(broken.body).toContain('Teksten inneholder tegn som ikke er tillatt.');
    expect(broken.body).toContain('Teksten kan være på høyst 100 tegn');
    expect(await accounts()).toBe(before);
  });

  // Issue 20 point 9: sign-up answered 409 for a known address, telling anyone who has a login.
  it('answers a known address exactly like a new one, mails its owner instead of a code, and leaves that login alone', async () => {
    const before = await accounts();
    const pageFor = async (email: string) => {
      const b = browser();
      const { action } = await openRegistration(b);
      const started = performance.now();
      const response = await b.request('POST', action, { form: { ...person, email, password: 'kapret-passord', passwordRepeat: 'kapret-passord' } });
      return { response, ms: performance.now() - started, action };
    };
    const known = await pageFor(' PAPIR@minside.test ');
    const fresh = await pageFor('helt.ny@example.no');
    const scrub = (body: string, email: string) =>
      body
        .replaceAll(email, 'EPOST')
        .replace(/(interaction\/)[^/"]+/g, '$1UID')
        .replace(/name="signup" value="[^"]+"/, 'name="signup" value="ID"');
    expect(known.response.status).toBe(fresh.response.status);
    expect(scrub(known.response.body, 'papir@minside.test')).toBe(scrub(fresh.response.body, 'helt.ny@example.no'));
    // Both hash the password and write one mail, so neither answer is much quicker.
    expect(known.ms).toBeLessThan(fresh.ms * 3 + 250);
    const [notice] = await test.database.rows<{ subject: string; text: string }>(sql`select subject, text from mail_outbox where to_address = 'papir@minside.test' order by created_at desc limit 1`);
    expect(notice?.text).toContain('Du har allerede en bruker');
    expect(notice?.text).not.toMatch(/^\d{6}$/m);
    // No code can finish it, and the login and its password are as they were.
    const form = codeForm(known.response, known.action);
    for (const code of ['000000', '123456']) expect((await browser().request('POST', form.action, { form: { signup: form.signup, code } })).status).toBe(400);
    expect(await accounts()).toBe(before + 0 /* the fresh one waits for its code */);
    expect((await login(browser(), { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
  });

  it('sends at most three codes an hour to one address, the same whether or not it has a login', async () => {
    // The per-IP sign-up throttle (10 a minute) is another limit: the earlier cases used part of it.
    await test.database.rows(sql`delete from idp_login_failure`);
    for (const email of ['admin@firma.test', 'grense@example.no']) {
      const mails = async () => (await test.database.rows(sql`select 1 from mail_outbox where to_address = ${email}`)).length;
      const before = await mails();
      const statuses = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const b = browser();
        const { action } = await openRegistration(b);
        const answer = await b.request('POST', action, { form: { ...person, email } });
        statuses.push(answer.status);
        if (answer.status === 429) expect(answer.body).toContain('Det er bedt om for mange koder til denne e-postadressen. Vent en time og prøv igjen.');
      }
      expect(statuses, email).toEqual([200, 200, 200, 429]);
      expect(await mails()).toBe(before + 3);
    }
  });

  it('answers a sign-up outside a login interaction with the expired page', async () => {
    const response = await browser().request('POST', 'http://localhost:3000/idp/interaction/unknown-uid/register', { form: person });
    expect(response.status).toBe(400);
    expect(response.body).toContain('Innloggingen er utløpt');
  });
});
