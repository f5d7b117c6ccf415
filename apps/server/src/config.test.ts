import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

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

  it('uses the test payment provider by default off production', () => {
    expect(loadConfig({})).toMatchObject({ paymentProvider: 'test', production: false });
    expect(loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:3000' })).toMatchObject({ paymentProvider: 'test', production: false });
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

  it('lets the migration entry read its configuration in production: migrations move no money', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h:5432/db' }, { purpose: 'migrate' })).toMatchObject({
      production: true,
      paymentProvider: undefined,
      databaseUrl: 'postgres://u@h:5432/db',
    });
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }, { purpose: 'migrate' })).toThrow(/PAYMENT_PROVIDER/);
  });
});
