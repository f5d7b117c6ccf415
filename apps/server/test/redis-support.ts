import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../src/config.ts';

/**
 * Redis for server tests: TEST_REDIS_URL (.ci/run sets it when 127.0.0.1:6379 answers). Every
 * test run gets its own key prefix, so runs and other users of the same Redis never meet, and
 * deletes its keys afterwards.
 */
export const testRedisUrl = process.env.TEST_REDIS_URL;

/** Where the shared state lives in a test: the database always, Redis too when there is one. */
export const storageModes: { storage: 'database' | 'redis' }[] = [{ storage: 'database' }, ...(testRedisUrl ? [{ storage: 'redis' as const }] : [])];

export interface TestRedis {
  /** Config overrides that put this test's shared state in Redis under its own prefix. */
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>;
  /** A client without the prefix, for looking at what the server stored. */
  client: Redis;
  /** This run's keys matching `pattern` (after the prefix), prefix stripped. */
  keys(pattern?: string): Promise<string[]>;
  deleteKeys(pattern?: string): Promise<void>;
  /** Deletes every key of this run and closes the client. */
  dispose(): Promise<void>;
}

export function createTestRedis(url = testRedisUrl ?? 'redis://127.0.0.1:6379'): TestRedis {
  const prefix = `minside-test:${randomBytes(6).toString('hex')}:`;
  const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  async function keys(pattern = '*'): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}${pattern}`, 'COUNT', 500);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found.map((key) => key.slice(prefix.length));
  }
  async function deleteKeys(pattern = '*'): Promise<void> {
    const found = await keys(pattern);
    if (found.length > 0) await client.del(...found.map((key) => prefix + key));
  }
  return {
    config: { redisUrl: url, redisKeyPrefix: prefix },
    client,
    keys,
    deleteKeys,
    async dispose() {
      await deleteKeys();
      await client.quit();
    },
  };
}
