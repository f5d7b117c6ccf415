import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { injectTransport, TestBrowser } from './browser.ts';
import { signIn as signInAs } from './support.ts';

// Issue 9 consent: a signed-in user's choices are kept with their history (newest first),
// only the user's own are ever shown, bad input changes nothing; /api/client-config tells the
// browser what is configured and the CSP allows exactly that.

const PORTAL = 'http://adresseavisen.localhost:3000';
const granted = { analytics: true, marketing: false, personalisation: true };
const denied = { analytics: false, marketing: false, personalisation: false };

describe.each(testDatabases)('consent ($name)', ({ name }) => {
  let test: TestApp;
  let clock = new Date('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true, now: () => clock });
  });
  afterAll(() => test.close());

  const signIn = (email: string) => signInAs(test, PORTAL, email);
  const rowsOf = (userId: string) =>
    test.database.rows<{ analytics: boolean; source: string; title_code: string | null }>(sql`select analytics, source, title_code from consent_choice where user_id = ${userId} order by id`);

  it('needs a session', async () => {
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    expect((await anonymous.request('GET', `${PORTAL}/api/consent`)).status).toBe(401);
    const put = await anonymous.request('PUT', `${PORTAL}/api/consent`, { json: { choices: granted, source: 'dialog' } });
    expect(put.status).toBe(401);
  });

  it('keeps every change as history, newest first, and a repeated save adds nothing', async () => {
    const browser = await signIn('papir@minside.test');
    expect((await browser.request('GET', `${PORTAL}/api/consent`)).json()).toEqual({ current: null, history: [] });

    const first = await browser.request('PUT', `${PORTAL}/api/consent`, { json: { choices: granted, source: 'dialog', titleCode: 'adr' } });
    expect(first.status, first.body).toBe(200);
    expect(first.json()).toEqual({
      current: { choices: granted, source: 'dialog', titleCode: 'ADR', givenAt: '2026-03-02T10:00:00.000Z' },
      history: [{ choices: granted, source: 'dialog', titleCode: 'ADR', givenAt: '2026-03-02T10:00:00.000Z' }],
    });

    clock = new Date('2026-03-02T10:20:00Z');
    const again = await browser.request('PUT', `${PORTAL}/api/consent`, { json: { choices: granted, source: 'settings' } });
    expect(again.json<{ history: unknown[] }>().history).toHaveLength(1);

    const withdrawn = await browser.request('PUT', `${PORTAL}/api/consent`, { json: { choices: denied, source: 'settings' } });
    expect(withdrawn.status).toBe(200);
    const state = (await browser.request('GET', `${PORTAL}/api/consent`)).json<{ current: unknown; history: { choices: unknown; givenAt: string }[] }>();
    expect(state.current).toEqual({ choices: denied, source: 'settings', titleCode: null, givenAt: '2026-03-02T10:20:00.000Z' });
    expect(state.history.map((entry) => [entry.choices, entry.givenAt])).toEqual([
      [denied, '2026-03-02T10:20:00.000Z'],
      [granted, '2026-03-02T10:00:00.000Z'],
    ]);
    expect(await rowsOf('user-papir')).toEqual([
      { analytics: true, source: 'dialog', title_code: 'ADR' },
      { analytics: false, source: 'settings', title_code: null },
    ]);
  });

  it("shows nobody another user's choices", async () => {
    const digital = await signIn('digital@minside.test');
    const state = (await digital.request('GET', `${PORTAL}/api/consent`)).json<{ history: unknown[] }>();
    expect(state).toEqual({ current: null, history: [] });
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const browser = await signIn('ung@minside.test');
    const put = (json: unknown) => browser.request('PUT', `${PORTAL}/api/consent`, { json });
    const missing = await put({ choices: { analytics: true }, source: 'dialog' });
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await put({ choices: granted, source: 'somewhere' })).status).toBe(400);
    expect((await put({ choices: { ...granted, analytics: 'yes' }, source: 'dialog' })).status).toBe(400);
    const unknownTitle = await put({ choices: granted, source: 'dialog', titleCode: 'XYZ' });
    expect(unknownTitle.status).toBe(400);
    expect(unknownTitle.json()).toMatchObject({ code: 'UNKNOWN_TITLE', message: 'Fant ingen avis med koden XYZ.' });
    expect(await rowsOf('user-ung')).toEqual([]);
  });

  it('client config: everything off by default, the prompt on, and a CSP of our own origin only', async () => {
    const anonymous = new TestBrowser(() => injectTransport(test.app));
    const response = await anonymous.request('GET', `${PORTAL}/api/client-config?titleCode=ADR`);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ consent: { promptOnFirstVisit: true, sourcepoint: null }, analytics: null, rum: null });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('frame-src');
  });
});

describe('client config when configured', () => {
  let test: TestApp;
  beforeAll(async () => {
    const { clientSettings } = loadConfig({
      CONSENT_PROMPT: 'off',
      CONSENT_ACCOUNT_ID: '1234',
      CONSENT_PROPERTY_ID: '5678',
      CONSENT_GROUP_ID: '91011',
      ANALYTICS_COLLECTOR_URL: 'https://collector.example.test/api/v1/track',
      RUM_CLIENT_TOKEN: 'pub-token',
      RUM_APPLICATION_ID: 'app-id',
    });
    test = await buildTestApp('pglite', { config: { clientSettings } });
  });
  afterAll(() => test.close());

  const config = (query: string) => test.app.inject({ method: 'GET', url: `/api/client-config${query}`, headers: { host: 'adresseavisen.localhost:3000' } });

  it("names the title's vendor ids and pulse provider, and the CSP allows the configured origins", async () => {
    const response = await config('?titleCode=ADR');
    expect(response.json()).toEqual({
      consent: {
        promptOnFirstVisit: false,
        sourcepoint: {
          accountId: 1234,
          propertyId: 5678,
          groupId: 91011,
          privacyManagerId: 700101,
          vendorId: '337ddfc1fcbbb6429c4ee646',
          scriptUrl: 'https://cdn.privacy-mgmt.com/unified/wrapperMessagingWithoutDetection.js',
          baseEndpoint: 'https://cdn.privacy-mgmt.com',
        },
      },
      analytics: { collectorUrl: 'https://collector.example.test/api/v1/track', providerId: 'adressa' },
      rum: { clientToken: 'pub-token', applicationId: 'app-id', serviceName: 'minside' },
    });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://cdn.privacy-mgmt.com;");
    expect(csp).toContain("connect-src 'self' https://cdn.privacy-mgmt.com https://collector.example.test https://browser-intake-datadoghq.eu;");
    expect(csp).toContain('frame-src https://cdn.privacy-mgmt.com;');
  });

  it('SPEC §9: AN and VA have no pulse provider; without a title code the host decides', async () => {
    expect((await config('?titleCode=AN')).json()).toMatchObject({ analytics: { providerId: null } });
    expect((await config('?titleCode=VA')).json()).toMatchObject({ analytics: { providerId: null } });
    expect((await config('')).json()).toMatchObject({ analytics: { providerId: 'adressa' } });
  });

  it('refuses a malformed setting, naming the variable', () => {
    expect(() => loadConfig({ ANALYTICS_COLLECTOR_URL: 'not a url' })).toThrow(/ANALYTICS_COLLECTOR_URL/);
    expect(() => loadConfig({ CONSENT_PROPERTY_ID: 'abc' })).toThrow(/CONSENT_PROPERTY_ID/);
  });
});
