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

  it('uses the test payment provider by default only off https, where it must be chosen on purpose', () => {
    expect(loadConfig({})).toMatchObject({ paymentProvider: 'test' });
    expect(() => loadConfig({ PUBLIC_URL: 'https://minside.adressa.no' })).toThrow(/Invalid configuration: PAYMENT_PROVIDER/);
    expect(loadConfig({ PUBLIC_URL: 'https://minside.adressa.no', PAYMENT_PROVIDER: 'test' })).toMatchObject({ paymentProvider: 'test' });
  });
});
