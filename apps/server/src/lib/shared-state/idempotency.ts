import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.ts';
import { idempotentRequest } from '../../db/schema.ts';
import { occasionalSweep } from '../occasional-sweep.ts';
import type { RedisCall } from './redis.ts';

/** How long a first answer is kept for replay: a retry comes within minutes, a reload of a tab within the day. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long a call may run before its key may be taken over. A call that has not answered by
 * then died with its process (database statements give up after 30 s, provider calls sooner),
 * and the retry must be able to run it instead of hearing "in progress" for a day.
 */
export const IDEMPOTENCY_LEASE_MS = 2 * 60 * 1000;

/** The answer a call gave, as sent: replayed byte for byte. */
interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

type IdempotencyClaim =
  /** The caller runs the call and then `complete`s or `release`s the claim. */
  | { kind: 'claimed' }
  /** The same call has answered: send this again. */
  | { kind: 'completed'; response: StoredResponse }
  /** The same key was used for another call (another body, params or query). */
  | { kind: 'mismatch' }
  /** The same call is running now (a double submit): it must not run twice. */
  | { kind: 'inProgress' };

/**
 * First answers of state-changing calls by `scope` (user, method, route, key), shared by every
 * instance like the rest of lib/shared-state (ADR 018, ADR 029).
 */
export interface IdempotencyStore {
  claim(scope: string, fingerprint: string): Promise<IdempotencyClaim>;
  complete(scope: string, response: StoredResponse): Promise<void>;
  /** Forgets a claim whose call should run again on retry (a 5xx, a rate limit). */
  release(scope: string): Promise<void>;
}

function answerOf(existing: { fingerprint: string; status: number | null; contentType: string | null; body: string | null }, fingerprint: string): IdempotencyClaim {
  if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (existing.status === null) return { kind: 'inProgress' };
  return { kind: 'completed', response: { status: existing.status, contentType: existing.contentType, body: existing.body ?? '' } };
}

/** Rows of `idempotent_request`: one INSERT … ON CONFLICT decides who runs the call, atomic across instances. */
export function databaseIdempotencyStore(options: { db: Db; now: () => Date; onSweepError?: (error: unknown) => void }): IdempotencyStore {
  const { db, now } = options;
  const sweep = occasionalSweep({
    intervalMs: 60_000,
    sweep: (at) => db.delete(idempotentRequest).where(lt(idempotentRequest.expiresAt, at)),
    ...(options.onSweepError ? { onError: options.onSweepError } : {}),
  });

  async function claim(scope: string, fingerprint: string, attempts = 2): Promise<IdempotencyClaim> {
    const at = now();
    const fresh = { fingerprint, status: null, contentType: null, body: null, startedAt: at, expiresAt: new Date(at.getTime() + IDEMPOTENCY_RETENTION_MS) };
    const [won] = await db
      .insert(idempotentRequest)
      .values({ scope, ...fresh })
      .onConflictDoUpdate({
        target: idempotentRequest.scope,
        set: fresh,
        // An expired row is free; so is a claim of the same call whose process died (lease over).
        setWhere: or(
          lt(idempotentRequest.expiresAt, at),
          and(isNull(idempotentRequest.status), eq(idempotentRequest.fingerprint, fingerprint), lt(idempotentRequest.startedAt, new Date(at.getTime() - IDEMPOTENCY_LEASE_MS))),
        ),
      })
      .returning({ scope: idempotentRequest.scope });
    await sweep(at);
    if (won) return { kind: 'claimed' };
    const [existing] = await db.select().from(idempotentRequest).where(eq(idempotentRequest.scope, scope));
    // Released or swept between the two statements: try again rather than guess.
    if (!existing) return attempts > 1 ? claim(scope, fingerprint, attempts - 1) : { kind: 'inProgress' };
    return answerOf(existing, fingerprint);
  }

  return {
    claim: (scope, fingerprint) => claim(scope, fingerprint),
    async complete(scope, response) {
      await db
        .update(idempotentRequest)
        .set({ status: response.status, contentType: response.contentType, body: response.body })
        .where(and(eq(idempotentRequest.scope, scope), isNull(idempotentRequest.status)));
    },
    async release(scope) {
      await db.delete(idempotentRequest).where(and(eq(idempotentRequest.scope, scope), isNull(idempotentRequest.status)));
    },
  };
}

interface RedisEntry {
  fingerprint: string;
  response?: StoredResponse;
}

function parseEntry(text: string): RedisEntry | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || typeof (value as RedisEntry).fingerprint !== 'string') return null;
    return value as RedisEntry;
  } catch {
    return null;
  }
}

/**
 * One key per scope. A claim is `SET NX` with the lease as its TTL, so a call whose process
 * died frees its key by itself; `complete` overwrites it with the answer for the retention.
 */
export function redisIdempotencyStore(redis: Redis, call: RedisCall): IdempotencyStore {
  const keyOf = (scope: string) => `idempotency:${scope}`;

  async function claim(scope: string, fingerprint: string, attempts = 2): Promise<IdempotencyClaim> {
    const key = keyOf(scope);
    const set = await call(() => redis.set(key, JSON.stringify({ fingerprint } satisfies RedisEntry), 'PX', IDEMPOTENCY_LEASE_MS, 'NX'));
    if (set === 'OK') return { kind: 'claimed' };
    const text = await call(() => redis.get(key));
    const entry = text === null ? null : parseEntry(text);
    if (!entry) return attempts > 1 ? claim(scope, fingerprint, attempts - 1) : { kind: 'inProgress' };
    return answerOf({ fingerprint: entry.fingerprint, status: entry.response?.status ?? null, contentType: entry.response?.contentType ?? null, body: entry.response?.body ?? null }, fingerprint);
  }

  return {
    claim: (scope, fingerprint) => claim(scope, fingerprint),
    async complete(scope, response) {
      const key = keyOf(scope);
      const text = await call(() => redis.get(key));
      const entry = text === null ? null : parseEntry(text);
      if (!entry || entry.response) return;
      await call(() => redis.set(key, JSON.stringify({ fingerprint: entry.fingerprint, response } satisfies RedisEntry), 'PX', IDEMPOTENCY_RETENTION_MS, 'XX'));
    },
    async release(scope) {
      await call(() => redis.del(keyOf(scope)));
    },
  };
}
