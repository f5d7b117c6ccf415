import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, login, TestBrowser } from './browser.ts';

const PORTAL = 'http://adresseavisen.localhost:3000';

/**
 * Links in the newspaper's e-mails are built from the host a request came to. A signed-in
 * subscriber who sends their own cookie with `Host: evil.example` must not get an official
 * e-mail pointing there (review finding 2): those calls answer 400 and send nothing.
 */
describe.each(testDatabases)('e-mail links only from portal hosts ($name)', ({ name }) => {
  let test: TestApp;
  const mails = async () => Number((await test.database.rows<{ n: string }>(sql`select count(*) as n from mail_outbox`))[0]?.n);

  async function signedIn(email: string): Promise<{ cookie: string }> {
    const browser = new TestBrowser(() => injectTransport(test.app));
    expect((await login(browser, { portal: PORTAL, email, password: DEMO_PASSWORD, titleCode: 'ADR' })).status).toBe(200);
    const cookie = [...browser.cookies(new URL(PORTAL).host)].map(([key, value]) => `${key}=${value}`).join('; ');
    return { cookie };
  }
  /** The subscriber's own session, sent by hand to another host. */
  const forged = async (cookie: string, path: string, json: unknown) => new TestBrowser(() => injectTransport(test.app)).request('POST', `http://evil.example${path}`, { json, headers: { cookie } });

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
  });
  afterAll(() => test.close());

  it.each([
    ['familie@minside.test', '/api/family/invitations?titleCode=ADR', { email: 'offer@example.no' }],
    ['admin@firma.test', '/api/business/invitations?titleCode=ADR', { emails: 'ny.kollega@firma.test' }],
    ['papir@minside.test', '/api/profile/email-change', { newEmail: 'kari.ny@example.no', password: DEMO_PASSWORD }],
  ])('%s: %s from a foreign host is refused and sends nothing', async (email, path, body) => {
    const before = await mails();
    const { cookie } = await signedIn(email);
    const response = await forged(cookie, path, body);
    expect(response.status, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'UNKNOWN_PORTAL_HOST' });
    expect(await mails()).toBe(before);
  });
});
