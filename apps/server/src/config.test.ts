import { describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from './config.ts';

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      dataDir: './data',
      databaseUrl: undefined,
      maintenance: false,
      identityProviderName: 'spid',
    });
  });

  it.each([
    ['MAINTENANCE', 'on', { maintenance: true }],
    ['MAINTENANCE', 'off', { maintenance: false }],
    ['PORT', '8080', { port: 8080 }],
    ['DATABASE_URL', 'postgres://u@h:5432/db', { databaseUrl: 'postgres://u@h:5432/db' }],
    ['DATABASE_URL', '', { databaseUrl: undefined }],
    ['REDIS_URL', 'rediss://u:p@redis.internal:6380/0', { redisUrl: 'rediss://u:p@redis.internal:6380/0', redisKeyPrefix: 'minside:' }],
    ['REDIS_URL', '', { redisUrl: undefined }],
    ['REDIS_KEY_PREFIX', 'minside-staging:', { redisKeyPrefix: 'minside-staging:' }],
  ])('reads %s=%s', (name, value, expected) => {
    expect(loadConfig({ [name]: value })).toMatchObject(expected);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://x'],
    ['MAINTENANCE', 'maybe'],
    ['PUBLIC_URL', 'not-a-url'],
    ['REDIS_URL', 'http://redis:6379'],
    ['REDIS_KEY_PREFIX', 'has space'],
  ])('fails fast naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name}`));
  });

  // ADR 025 "Development default": `npm start` pays through the real Vipps MobilePay adapter, against the simulator in its own process.
  it('offers a second issuer only when configured: Vipps Login, or its simulator off production (issue 24)', () => {
    expect(loadConfig({}).secondIssuer).toBeUndefined();
    expect(loadConfig({ VIPPS_LOGIN: 'simulator' }).secondIssuer).toMatchObject({ kind: 'simulator', key: 'vipps', label: 'Vipps', claims: 'vipps' });
    // A simulator verifies no one: never in production.
    expect(() => loadConfig({ VIPPS_LOGIN: 'simulator', NODE_ENV: 'production' }, { purpose: 'migrate' })).toThrow(/^Invalid configuration: VIPPS_LOGIN: /);
    expect(() => loadConfig({ VIPPS_LOGIN: 'simulator', OIDC2_ISSUER: 'https://api.vipps.no/access-management-1.0/access/' })).toThrow(/choose either the simulator or OIDC2_ISSUER/);
    expect(() => loadConfig({ OIDC2_ISSUER: 'https://api.vipps.no/access-management-1.0/access/' })).toThrow(/OIDC2_CLIENT_ID and OIDC2_CLIENT_SECRET: required/);
    // Which claims it gives is said, never assumed: an issuer taken for Vipps would have its phone numbers and birthdates count as verified.
    expect(() => loadConfig({ OIDC2_ISSUER: 'https://login.example.test/', OIDC2_CLIENT_ID: 'id', OIDC2_CLIENT_SECRET: 'secret' })).toThrow(/OIDC2_CLAIMS: required when OIDC2_ISSUER is set/);
    expect(loadConfig({ OIDC2_ISSUER: 'https://api.vipps.no/access-management-1.0/access/', OIDC2_CLIENT_ID: 'id', OIDC2_CLIENT_SECRET: 'secret', OIDC2_CLAIMS: 'vipps' }).secondIssuer).toMatchObject({
      kind: 'external',
      key: 'vipps',
      label: 'Vipps',
      claims: 'vipps',
    });
    expect(loadConfig({ OIDC2_ISSUER: 'https://login.example.test/', OIDC2_CLIENT_ID: 'id', OIDC2_CLIENT_SECRET: 'secret', OIDC2_CLAIMS: 'oidc' }).secondIssuer).toMatchObject({
      kind: 'external',
      key: 'second',
      label: 'den andre kontoen din',
      claims: 'oidc',
    });
    expect(() => loadConfig({ VIPPS_LOGIN: 'simulator', OIDC2_KEY: 'account' })).toThrow(/OIDC2_KEY: "account" is the first issuer's key/);
  });

  it('pays through Vipps MobilePay against the embedded simulator by default off production', () => {
    expect(loadConfig({})).toMatchObject({ paymentProvider: 'vipps', vipps: { embeddedSimulator: true, port: undefined }, production: false });
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:3000' })).toMatchObject({ paymentProvider: 'vipps', vipps: { embeddedSimulator: true }, production: false });
    expect(loadConfig({ VIPPS_SIMULATOR_PORT: '4010' }).vipps).toEqual({ embeddedSimulator: true, port: 4010 });
    expect(loadConfig({ VIPPS_SIMULATOR_PORT: '' }).vipps).toEqual({ embeddedSimulator: true, port: undefined });
  });

  it.each(['eighty', '0', '70000', '40.5'])('fails fast naming VIPPS_SIMULATOR_PORT when it is %s', (value) => {
    expect(() => loadConfig({ VIPPS_SIMULATOR_PORT: value })).toThrow(/^Invalid configuration: VIPPS_SIMULATOR_PORT: /);
  });

  it('keeps the test provider and an explicit Vipps MobilePay as they were', () => {
    expect(loadConfig({ PAYMENT_PROVIDER: 'test' })).toMatchObject({ paymentProvider: 'test', vipps: undefined });
    const keys = { VIPPS_CLIENT_ID: 'id', VIPPS_CLIENT_SECRET: 'secret', VIPPS_SUBSCRIPTION_KEY: 'key', VIPPS_MERCHANT_SERIAL_NUMBER: '123456' };
    expect(loadConfig({ PAYMENT_PROVIDER: 'vipps', VIPPS_BASE_URL: 'https://apitest.vipps.no/', VIPPS_SIMULATOR_PORT: '4010', ...keys }).vipps).toEqual({
      baseUrl: 'https://apitest.vipps.no',
      clientId: 'id',
      clientSecret: 'secret',
      subscriptionKey: 'key',
      merchantSerialNumber: '123456',
    });
    // PAYMENT_PROVIDER=vipps still needs every key: a forgotten secret is never a silent simulator.
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'vipps' })).toThrow(
      /VIPPS_BASE_URL, VIPPS_CLIENT_ID, VIPPS_CLIENT_SECRET, VIPPS_SUBSCRIPTION_KEY, VIPPS_MERCHANT_SERIAL_NUMBER: required when PAYMENT_PROVIDER=vipps/,
    );
  });

  it('refuses a VIPPS_BASE_URL without PAYMENT_PROVIDER rather than pay the simulator instead', () => {
    expect(() => loadConfig({ VIPPS_BASE_URL: 'https://apitest.vipps.no' })).toThrow(
      /^Invalid configuration: PAYMENT_PROVIDER: VIPPS_BASE_URL is set but PAYMENT_PROVIDER is not: set PAYMENT_PROVIDER=vipps/,
    );
  });

  // Issue 22: the server tests pay as `npm start` does, through the real adapter against the embedded simulator.
  it("gives tests npm start's default: Vipps MobilePay against the embedded simulator, never the test provider unless asked", () => {
    expect(testConfig()).toMatchObject({ paymentProvider: 'vipps', vipps: { embeddedSimulator: true, port: undefined }, production: false });
    // The same simulator, except that due charges wait for the test's clock instead of a wall-clock minute.
    expect(testConfig().vipps).toEqual({ ...loadConfig({}).vipps, chargesEveryMs: 0 });
    expect(testConfig({ paymentProvider: 'test', vipps: undefined })).toMatchObject({ paymentProvider: 'test', vipps: undefined });
  });
});

// Issue 20 point 2: the test provider marks an invoice paid with no money moving, so production
// (NODE_ENV=production or an https PUBLIC_URL) must not start with it, nor without a real provider.
describe('loadConfig in production', () => {
  const productionEnvs: [string, NodeJS.ProcessEnv][] = [
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['an https PUBLIC_URL', { PUBLIC_URL: 'https://minside.adressa.no' }],
    ['both', { NODE_ENV: 'production', PUBLIC_URL: 'https://minside.adressa.no' }],
  ];

  it.each(productionEnvs)('refuses PAYMENT_PROVIDER=test with %s, in one line that says what to configure', (_name, env) => {
    let message = '';
    try {
      loadConfig({ ...env, PAYMENT_PROVIDER: 'test' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration: PAYMENT_PROVIDER: /);
    expect(message).not.toContain('\n');
    // Plainly: the test provider is fake money, what production sets instead, and what to set for a trial.
    expect(message).toContain('without moving any money');
    expect(message).toContain('set PAYMENT_PROVIDER=vipps');
    expect(message).toContain('NODE_ENV=development');
  });

  it.each(productionEnvs)('refuses to start with %s and no payment provider, saying which to set', (_name, env) => {
    expect(() => loadConfig(env)).toThrow(/^Invalid configuration: PAYMENT_PROVIDER: .*set PAYMENT_PROVIDER=vipps with VIPPS_BASE_URL=https:\/\/api\.vipps\.no/);
  });

  it.each(productionEnvs)('never embeds the Vipps MobilePay simulator with %s, whatever else is set', (_name, env) => {
    expect(() => loadConfig({ ...env, VIPPS_SIMULATOR_PORT: '4010' })).toThrow(/^Invalid configuration: PAYMENT_PROVIDER: .*set PAYMENT_PROVIDER=vipps with VIPPS_BASE_URL=https:\/\/api\.vipps\.no/);
    // Nor without keys, nor at any other URL than Vipps MobilePay's own.
    expect(() => loadConfig({ ...env, PAYMENT_PROVIDER: 'vipps' })).toThrow(/VIPPS_BASE_URL, .*: required when PAYMENT_PROVIDER=vipps/);
    const keys = { VIPPS_CLIENT_ID: 'id', VIPPS_CLIENT_SECRET: 'secret', VIPPS_SUBSCRIPTION_KEY: 'key', VIPPS_MERCHANT_SERIAL_NUMBER: '123456' };
    expect(() => loadConfig({ ...env, PAYMENT_PROVIDER: 'vipps', VIPPS_BASE_URL: 'http://127.0.0.1:4010', ...keys }, { purpose: 'migrate' })).toThrow(
      /VIPPS_BASE_URL: production pays through https:\/\/api\.vipps\.no/,
    );
    expect(loadConfig({ ...env, VIPPS_SIMULATOR_PORT: '4010' }, { purpose: 'migrate' })).toMatchObject({ paymentProvider: undefined, vipps: undefined });
  });

  it('lets the migration entry read its configuration in production: migrations move no money', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h:5432/db' }, { purpose: 'migrate' })).toMatchObject({
      production: true,
      paymentProvider: undefined,
      databaseUrl: 'postgres://u@h:5432/db',
    });
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }, { purpose: 'migrate' })).toThrow(/PAYMENT_PROVIDER/);
  });
});
