import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, SERVER_START_MS, waitUntilReady } from './server-process.ts';
import { buildTestApp, DEMO_PASSWORD, type TestApp } from './helper.ts';
import { fetchTransport, injectTransport, login, TestBrowser } from './browser.ts';

// The relying party against an identity provider in another process, over real HTTP: the
// provider is this product's own server (its embedded provider), started from the bundle,
// and the portal under test is configured with OIDC_ISSUER as for any external issuer.
const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const PORTAL = 'http://adresseavisen.localhost:3000';
const CLIENT_SECRET = 'a-secret-shared-by-configuration';

describe('a provider in a separate process (OIDC_ISSUER)', () => {
  let portal: TestApp;
  let stopProvider: () => void = () => {};
  let issuer = '';

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'minside-idp-'));
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}/idp`;
    const child = spawn(process.execPath, [bundle], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        SEED_DEMO_DATA: 'on',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    stopProvider = () => {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    };
    await waitUntilReady(`${issuer}/.well-known/openid-configuration`, { child });
    portal = await buildTestApp('pglite', { config: { oidcIssuer: issuer, oidcClientSecret: CLIENT_SECRET } });
  }, SERVER_START_MS + 45_000);

  afterAll(async () => {
    await portal?.close();
    stopProvider();
  });

  it('has no provider of its own at /idp', async () => {
    const response = await portal.app.inject({ method: 'GET', url: '/idp/.well-known/openid-configuration' });
    expect(response.statusCode).toBe(404);
  });

  it('logs in through the other process and creates the user at first login', async () => {
    const browser = new TestBrowser((url) => (url.href.startsWith(issuer) ? fetchTransport : injectTransport(portal.app)));
    const response = await login(browser, { portal: PORTAL, email: 'papir@minside.test', password: DEMO_PASSWORD, returnTo: '/fakturaoversikt' });
    expect(response.status, response.body).toBe(200);
    // The portal's database has no demo data: the user is new to it, with no account yet.
    expect(response.json()).toMatchObject({ user: { spidId: 'demo-papir', email: 'papir@minside.test', givenName: 'Kari' }, account: null, returnTo: '/fakturaoversikt' });

    const session = await browser.request('GET', `${PORTAL}/api/session`);
    expect(session.status).toBe(200);
    const logout = await browser.request('POST', `${PORTAL}/api/logout`, { json: {} });
    expect(logout.json<{ endSessionUrl: string }>().endSessionUrl.startsWith(`${issuer}/session/end?`)).toBe(true);
    expect((await browser.request('GET', `${PORTAL}/api/session`)).status).toBe(401);
  });

  it('refuses to start without the client secret of an external issuer', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ OIDC_ISSUER: issuer })).toThrow(/OIDC_CLIENT_SECRET/);
  });
});
