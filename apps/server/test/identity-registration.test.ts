import { sql } from 'drizzle-orm';
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

  it('creates a login from the login page and signs the person in at once', async () => {
    const b = browser();
    const { action, page } = await openRegistration(b);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Opprett bruker</h1>');
    expect(page.body).toContain('Min Side · Adresseavisen');
    expect(page.body).toMatch(/<label for="email">E-post<\/label>\s*<input id="email"[^>]*autocomplete="email"/);

    const posted = await b.request('POST', action, { form: person });
    expect(posted.status, posted.body.slice(0, 300)).toBe(303);
    const back = await b.follow(new URL(String(posted.headers['location']), action).href, (url) => url.pathname === '/callback');
    const session = await b.request('POST', `${PORTAL}/api/handlecode`, { json: callbackBody(back.url) });
    expect(session.status, session.body).toBe(200);
    expect(session.json()).toMatchObject({ user: { givenName: 'Nora', familyName: 'Ny', email: 'nora.ny@example.no' }, returnTo: '/familiedeling' });

    // The new login works like any other afterwards.
    expect((await login(browser(), { portal: PORTAL, email: 'nora.ny@example.no', password: 'lang-nok-1', titleCode: 'ADR' })).status).toBe(200);
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

  it('refuses an e-mail that has a login, leaving that login and its password alone', async () => {
    const before = await accounts();
    const b = browser();
    const { action } = await openRegistration(b);
    const taken = await b.request('POST', action, { form: { ...person, email: ' PAPIR@minside.test ', password: 'kapret-passord', passwordRepeat: 'kapret-passord' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toContain('Det finnes allerede en bruker med denne e-postadressen. Logg inn i stedet.');
    expect(await accounts()).toBe(before);
    expect((await login(browser(), { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
  });

  it('answers a sign-up outside a login interaction with the expired page', async () => {
    const response = await browser().request('POST', 'http://localhost:3000/idp/interaction/unknown-uid/register', { form: person });
    expect(response.status).toBe(400);
    expect(response.body).toContain('Innloggingen er utløpt');
  });
});
