import { lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.ts';
import { rateLimitCounter } from '../../db/schema.ts';
import { occasionalSweep } from '../occasional-sweep.ts';
import type { RedisCall } from './redis.ts';

interface RateLimit {
  /** At most this many hits per window. */
  limit: number;
  windowMs: number;
}

interface RateLimitResult {
  allowed: boolean;
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the current window ends (a refused caller may try again then). */
  resetAt: Date;
}

/**
 * Counts hits per key in fixed windows (aligned to the epoch, so every instance agrees where a
 * window starts). A refused hit counts too: hammering does not open the next slot earlier.
 */
export interface RateLimiter {
  hit(key: string, rule: RateLimit): Promise<RateLimitResult>;
}

function windowOf(at: Date, windowMs: number): { start: number; end: number } {
  const start = Math.floor(at.getTime() / windowMs) * windowMs;
  return { start, end: start + windowMs };
}

/** Counters as rows of `rate_limit_counter`, one upsert per hit: atomic across instances. */
export function databaseRateLimiter(options: { db: Db; now: () => Date; onSweepError?: (error: unknown) => void }): RateLimiter {
  const { db, now } = options;
  const sweep = occasionalSweep({
    intervalMs: 60_000,
    sweep: (at) => db.delete(rateLimitCounter).where(lt(rateLimitCounter.expiresAt, at)),
    ...(options.onSweepError ? { onError: options.onSweepError } : {}),
  });
  return {
    async hit(key, rule) {
      const at = now();
      const { start, end } = windowOf(at, rule.windowMs);
      const [row] = await db
        .insert(rateLimitCounter)
        .values({ key, windowStart: new Date(start), hits: 1, expiresAt: new Date(end) })
        .onConflictDoUpdate({ target: [rateLimitCounter.key, rateLimitCounter.windowStart], set: { hits: sql`${rateLimitCounter.hits} + 1` } })
        .returning({ hits: rateLimitCounter.hits });
      await sweep(at);
      const hits = row?.hits ?? Number.POSITIVE_INFINITY;
      return { allowed: hits <= rule.limit, hits, resetAt: new Date(end) };
    },
  };
}

/** INCR and PEXPIRE in one MULTI: the key dies with its window. */
export function redisRateLimiter(redis: Redis, call: RedisCall, now: () => Date): RateLimiter {
  return {
    async hit(key, rule) {
      const at = now();
      const { start, end } = windowOf(at, rule.windowMs);
      const counter = `rate:${key}:${start}`;
      const replies = await call(() =>
        redis
          .multi()
          .incr(counter)
          .pexpire(counter, Math.max(1, end - at.getTime()))
          .exec(),
      );
      const [error, value] = replies?.[0] ?? [new Error('MULTI was discarded'), null];
      if (error) throw error;
      const hits = Number(value);
      return { allowed: hits <= rule.limit, hits, resetAt: new Date(end) };
    },
  };
}
