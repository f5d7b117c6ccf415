import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.ts';
import { loginAttempt } from '../../db/schema.ts';
import type { RedisCall } from './redis.ts';

/** One login started by GET /api/loginToken, kept under the SHA-256 of its token (the OIDC state). */
interface LoginAttemptRecord {
  browserBindingHash: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  returnTo: string;
  titleCode: string;
  /** The issuer's key; null until the person picks one on the portal's login page (issue 24). */
  issuer: string | null;
  /** LINK: a signed-in user adds this login to their own; it completes only in that user's session. */
  purpose: 'LOGIN' | 'LINK';
  linkUserId: string | null;
  expiresAt: Date;
}

export interface LoginAttempts {
  save(stateHash: string, record: LoginAttemptRecord, at: Date): Promise<void>;
  /**
   * Claims the attempt, once and only for the browser that started it: null when it is
   * unknown, already claimed, or another browser's (which leaves it untouched). Expiry is the
   * caller's to judge, so an expired token can be told apart from a forged one.
   */
  claim(stateHash: string, browserBindingHash: string, at: Date): Promise<LoginAttemptRecord | null>;
  /**
   * Records the issuer the person picked, once, for the browser that started the login and
   * before it is claimed: null when any of that is not so. Expiry is the caller's to judge.
   */
  chooseIssuer(stateHash: string, browserBindingHash: string, issuer: string): Promise<LoginAttemptRecord | null>;
  /**
   * Where the login returns to, for the browser that started it, until it is claimed: null when it
   * is unknown, claimed, forgotten, or another browser's. Reads only.
   */
  returnToOf(stateHash: string, browserBindingHash: string): Promise<string | null>;
}

/** Rows a day past their expiry are of no use, even as evidence of a replay. */
const DATABASE_RETENTION_MS = 24 * 60 * 60 * 1000;

export function databaseLoginAttempts(db: Db): LoginAttempts {
  return {
    async save(stateHash, record, at) {
      await db.insert(loginAttempt).values({ stateHash, ...record, createdAt: at });
      await db.delete(loginAttempt).where(lt(loginAttempt.expiresAt, new Date(at.getTime() - DATABASE_RETENTION_MS)));
    },

    async claim(stateHash, browserBindingHash, at) {
      // One statement: a replayed state finds it used even when both arrive at once.
      const [row] = await db
        .update(loginAttempt)
        .set({ usedAt: at })
        .where(and(eq(loginAttempt.stateHash, stateHash), eq(loginAttempt.browserBindingHash, browserBindingHash), isNull(loginAttempt.usedAt)))
        .returning();
      return row ? attemptOf(row) : null;
    },

    async chooseIssuer(stateHash, browserBindingHash, issuer) {
      const [row] = await db
        .update(loginAttempt)
        .set({ issuer })
        .where(and(eq(loginAttempt.stateHash, stateHash), eq(loginAttempt.browserBindingHash, browserBindingHash), isNull(loginAttempt.usedAt), isNull(loginAttempt.issuer)))
        .returning();
      return row ? attemptOf(row) : null;
    },

    async returnToOf(stateHash, browserBindingHash) {
      const [row] = await db
        .select({ returnTo: loginAttempt.returnTo })
        .from(loginAttempt)
        .where(and(eq(loginAttempt.stateHash, stateHash), eq(loginAttempt.browserBindingHash, browserBindingHash), isNull(loginAttempt.usedAt)));
      return row?.returnTo ?? null;
    },
  };
}

function attemptOf(row: typeof loginAttempt.$inferSelect): LoginAttemptRecord {
  return { ...row, purpose: row.purpose === 'LINK' ? 'LINK' : 'LOGIN' };
}

/**
 * After its expiry a key stays this long, so a late callback hears "the login expired"
 * rather than "unknown login"; then Redis forgets it.
 */
const REDIS_GRACE_MS = 60 * 60 * 1000;

/** Reads and deletes in one step, only when the binding matches: single use across instances. */
const claimScript = `
local binding = redis.call('HGET', KEYS[1], 'browserBindingHash')
if not binding or binding ~= ARGV[1] then return nil end
local fields = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return fields
`;

/** Sets the issuer only when the binding matches and none is set yet (a claimed attempt is gone). */
const chooseScript = `
local binding = redis.call('HGET', KEYS[1], 'browserBindingHash')
if not binding or binding ~= ARGV[1] then return nil end
if redis.call('HGET', KEYS[1], 'issuer') ~= '' then return nil end
redis.call('HSET', KEYS[1], 'issuer', ARGV[2])
return redis.call('HGETALL', KEYS[1])
`;

const attemptKey = (stateHash: string) => `login:${stateHash}`;

function recordOf(flat: string[]): LoginAttemptRecord {
  const fields = new Map<string, string>();
  for (let index = 0; index + 1 < flat.length; index += 2) fields.set(flat[index] as string, flat[index + 1] as string);
  const text = (name: keyof LoginAttemptRecord) => fields.get(name) ?? '';
  return {
    browserBindingHash: text('browserBindingHash'),
    codeVerifier: text('codeVerifier'),
    nonce: text('nonce'),
    redirectUri: text('redirectUri'),
    returnTo: text('returnTo'),
    titleCode: text('titleCode'),
    issuer: text('issuer') || null,
    purpose: text('purpose') === 'LINK' ? 'LINK' : 'LOGIN',
    linkUserId: text('linkUserId') || null,
    expiresAt: new Date(Number(text('expiresAt'))),
  };
}

export function redisLoginAttempts(redis: Redis, call: RedisCall): LoginAttempts {
  return {
    async save(stateHash, record, at) {
      const key = attemptKey(stateHash);
      const ttl = record.expiresAt.getTime() - at.getTime() + REDIS_GRACE_MS;
      await call(() =>
        redis
          .multi()
          .hset(key, { ...record, issuer: record.issuer ?? '', linkUserId: record.linkUserId ?? '', expiresAt: record.expiresAt.getTime() })
          .pexpire(key, ttl)
          .exec(),
      );
    },

    async claim(stateHash, browserBindingHash) {
      const flat = (await call(() => redis.eval(claimScript, 1, attemptKey(stateHash), browserBindingHash))) as string[] | null;
      return flat ? recordOf(flat) : null;
    },

    async chooseIssuer(stateHash, browserBindingHash, issuer) {
      const flat = (await call(() => redis.eval(chooseScript, 1, attemptKey(stateHash), browserBindingHash, issuer))) as string[] | null;
      return flat ? recordOf(flat) : null;
    },

    async returnToOf(stateHash, browserBindingHash) {
      // A claimed attempt is gone from Redis: null, as the database's once claimed.
      const [binding, returnTo] = await call(() => redis.hmget(attemptKey(stateHash), 'browserBindingHash', 'returnTo'));
      return binding === browserBindingHash && returnTo ? returnTo : null;
    },
  };
}
