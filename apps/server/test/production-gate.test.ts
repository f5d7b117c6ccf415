import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig, testConfig, type Config } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

// Issue 20 point 2: production (NODE_ENV=production or an https PUBLIC_URL) never runs the test
// payment provider, whose page approves a payment with no money moving, nor any /_dev page.
// loadConfig refuses it for every process (src/config.test.ts); buildApp refuses it again for a
// configuration made in code, and checks the finished route table for /_dev routes. Issue 22: the
// same holds for the Vipps MobilePay simulator embedded in the process, the default off production
// (testConfig gives it too), whose landing page approves payments with no money moving either.

const devRoutes = (app: Awaited<ReturnType<typeof buildApp>>) => app.routeTable().filter((route) => route.url === '/_dev' || route.url.startsWith('/_dev/'));

describe('an app built for production', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createDatabase({ kind: 'pglite', dataDir: undefined });
    await migrate(database);
  });
  afterAll(() => database?.close());

  const build = (config: Partial<Config>) => buildApp({ config: testConfig(config), database, catalogue: defaultCatalogue, now: systemClock });

  it.each<[string, Partial<Config>]>([
    ['an https PUBLIC_URL', { publicUrl: 'https://minside.adressa.no' }],
    ['NODE_ENV=production', { production: true }],
  ])('refuses the test payment provider with %s', async (_name, config) => {
    const refused = build({ ...config, paymentProvider: 'test' });
    await expect(refused).rejects.toBeInstanceOf(ConfigError);
    await expect(build({ ...config, paymentProvider: 'test' })).rejects.toThrow(/PAYMENT_PROVIDER: .*without moving any money/);
  });

  /** Why building the app with `config` was refused; an app that was built after all is closed (its simulator stops) and the check fails. */
  const refusal = async (config: Partial<Config>): Promise<unknown> => {
    let app: Awaited<ReturnType<typeof build>>;
    try {
      app = await build(config);
    } catch (error) {
      return error;
    }
    await app.close();
    throw new Error(`built an app with ${app.paymentProvider.name} as its payment provider`);
  };
  const embeddedSimulatorRefused = async (config: Partial<Config>) => {
    // testConfig's default is the embedded simulator (as `npm start`'s): only the production switch is set here.
    expect(testConfig(config)).toMatchObject({ paymentProvider: 'vipps', vipps: { embeddedSimulator: true } });
    const error = await refusal(config);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/PAYMENT_PROVIDER: .*embedded Vipps MobilePay simulator moves no money/);
  };

  // Production is NODE_ENV=production or an https PUBLIC_URL, as for the test provider.
  it.each<[string, Partial<Config>]>([
    ['an https PUBLIC_URL', { publicUrl: 'https://minside.adressa.no' }],
    ['NODE_ENV=production', { production: true }],
    ['NODE_ENV=production on http', { production: true, publicUrl: 'http://minside.intern:3000' }],
  ])('refuses the embedded Vipps MobilePay simulator with %s', (_name, config) => embeddedSimulatorRefused(config));

  it.each<[string, Partial<Config>]>([
    ['an https PUBLIC_URL', { publicUrl: 'https://minside.adressa.no' }],
    ['NODE_ENV=production on http', { production: true, publicUrl: 'http://minside.intern:3000' }],
  ])('serves no /_dev route with %s (no mail viewer, no payment page), even without SMTP', async (_name, config) => {
    const app = await build({ ...config, paymentProvider: undefined, smtpUrl: undefined });
    try {
      await app.ready();
      expect(devRoutes(app)).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/_dev/mail.json' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/_dev/pay/tp_x' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('refuses to become ready when any /_dev route was added in production', async () => {
    const app = await build({ production: true, paymentProvider: undefined });
    app.get('/_dev/anything', async () => 'ok');
    await expect(app.ready()).rejects.toThrow(/\/_dev\/anything/);
    await app.close().catch(() => {});
  });

  it('a payment with no provider configured is refused in Norwegian, with nothing charged', async () => {
    const app = await build({ publicUrl: 'https://minside.adressa.no', paymentProvider: undefined });
    try {
      await expect(
        app.paymentProvider.createPayment({
          merchantReference: 'p',
          idempotencyKey: 'k',
          method: 'VIPPS',
          kind: 'PAYMENT',
          amountOre: 100,
          description: 'x',
          returnUrl: '/',
          portalOrigin: 'https://minside.adressa.no',
          titleCode: 'ADR',
        }),
      ).rejects.toMatchObject({ name: 'ProviderUnavailableError' });
    } finally {
      await app.close();
    }
  });

  it('off production the default pays through the embedded Vipps MobilePay simulator: the mail pages are there, no /_dev/pay', async () => {
    const app = await build({});
    try {
      await app.ready();
      expect(app.paymentProvider.name).toBe('vipps');
      expect(app.vippsSimulator?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const routes = devRoutes(app).map((route) => `${route.method} ${route.url}`);
      expect(routes).toEqual(expect.arrayContaining(['GET /_dev/mail', 'GET /_dev/mail.json']));
      expect(routes.filter((route) => route.includes('/_dev/pay'))).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/_dev/pay/tp_x' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('off production PAYMENT_PROVIDER=test still gives the test provider and its /_dev/pay page, as before', async () => {
    const { paymentProvider, vipps } = loadConfig({ PAYMENT_PROVIDER: 'test' });
    const app = await build({ paymentProvider, vipps });
    try {
      await app.ready();
      expect(app.paymentProvider.name).toBe('test');
      expect(app.vippsSimulator).toBeUndefined();
      expect(devRoutes(app).map((route) => `${route.method} ${route.url}`)).toEqual(expect.arrayContaining(['GET /_dev/mail', 'GET /_dev/mail.json', 'GET /_dev/pay/:id', 'POST /_dev/pay/:id']));
    } finally {
      await app.close();
    }
  });
});
