import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { createLoginThrottle, type LoginThrottle } from './database-login-throttle.ts';
import { databaseLoginAttempts, redisLoginAttempts, type LoginAttempts } from './login-attempts.ts';
import { redisLoginThrottle } from './login-throttle.ts';
import { databaseRateLimiter, redisRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { databaseIdempotencyStore, redisIdempotencyStore, type IdempotencyStore } from './idempotency.ts';
import { connectRedis, guarded } from './redis.ts';
import { databaseSessionRecords, redisSessionRecords, type SessionRecords } from './sessions.ts';

export type { RateLimiter } from './rate-limiter.ts';
export type { IdempotencyStore } from './idempotency.ts';

/**
 * The state every instance must see the same way (docs/decisions/018): sessions, login
 * tokens, the login throttle, rate limits and the first answers of idempotent calls. With REDIS_URL it lives in Redis; without it in
 * the database, which every instance shares too. Nothing here is kept in process memory.
 */
export interface SharedState {
  readonly kind: 'redis' | 'database';
  readonly sessions: SessionRecords;
  readonly loginAttempts: LoginAttempts;
  readonly loginThrottle: LoginThrottle;
  readonly rateLimiter: RateLimiter;
  readonly idempotency: IdempotencyStore;
  /** Resolves when the store answers (readiness); the database is checked elsewhere. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SharedStateOptions {
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
}

export async function createSharedState({ config, db, now, log }: SharedStateOptions): Promise<SharedState> {
  const onSweepError = (table: string) => (error: unknown) => log.error({ err: error }, `${table} sweep failed`);
  if (!config.redisUrl) {
    return {
      kind: 'database',
      sessions: databaseSessionRecords(db),
      loginAttempts: databaseLoginAttempts(db),
      loginThrottle: createLoginThrottle({ db, now, onSweepError: onSweepError('idp_login_failure') }),
      rateLimiter: databaseRateLimiter({ db, now, onSweepError: onSweepError('rate_limit_counter') }),
      idempotency: databaseIdempotencyStore({ db, now, onSweepError: onSweepError('idempotent_request') }),
      ping: async () => {},
      close: async () => {},
    };
  }
  const redis = await connectRedis({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, log });
  const call = guarded(log);
  return {
    kind: 'redis',
    sessions: redisSessionRecords(redis, db, call),
    loginAttempts: redisLoginAttempts(redis, call),
    loginThrottle: redisLoginThrottle(redis, call, now),
    rateLimiter: redisRateLimiter(redis, call, now),
    idempotency: redisIdempotencyStore(redis, call),
    async ping() {
      await redis.ping();
    },
    async close() {
      // While it is away there is nothing to flush: stop reconnecting instead of waiting.
      if (redis.status !== 'ready') return redis.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
