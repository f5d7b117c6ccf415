import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client.ts';
import { hotRead } from '../../db/hot-read.ts';
import { appUser, userSession } from '../../db/schema.ts';
import type { RedisCall } from './redis.ts';

/** A session ends after 30 minutes without a request, and 12 hours after login whatever happens. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/**
 * In the database, activity is written at most this often: one UPDATE per API read was the
 * hot path's biggest cost. The stored time is then up to this much behind the real last
 * request, so a session may end up to a minute early, never late (docs/decisions/018).
 */
export const SESSION_ACTIVITY_WRITE_MS = 60 * 1000;

type UserRow = typeof appUser.$inferSelect;

interface SessionRecord {
  userId: string;
  idToken: string;
  /**
   * The login that opened the session: the issuer's key and the user's subject there
   * (`user_login`). Unlinking that login ends the session (ADR 028). Null for sessions from
   * before it was recorded.
   */
  issuer: string | null;
  subject: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What a live session gives the request: its user, the ID token and the issuer that opened it. */
interface TouchedSession {
  user: UserRow;
  idToken: string;
  issuer: string | null;
}

/** Where sessions live, by the SHA-256 of their id: the database (default) or Redis. */
export interface SessionRecords {
  /**
   * The live session's user and ID token, counting this request as activity; a session past
   * its idle or absolute limit is removed and gives null.
   */
  touch(idHash: string, at: Date): Promise<TouchedSession | null>;
  /** Stores a new session; `replaces` (the browser's earlier session) ends in the same step. */
  create(idHash: string, record: SessionRecord, replaces?: string): Promise<void>;
  remove(idHash: string, userId: string): Promise<void>;
  /** Ends every session of a user (erasure): no instance lets that cookie in again. */
  removeAllOf(userId: string): Promise<void>;
  /**
   * Ends the user's sessions that one login opened (it was unlinked), except `except`: the
   * session of the person who unlinked it stays (ADR 028).
   */
  removeOpenedBy(userId: string, issuer: string, subject: string, except?: string): Promise<void>;
}

/** The one rule both stores apply, with the caller's clock. */
function sessionEnded(at: number, expiresAt: number, lastSeenAt: number): boolean {
  return at >= expiresAt || at - lastSeenAt >= SESSION_IDLE_MS;
}

/** Sessions as rows of `user_session`: shared by every instance through the database. */
export function databaseSessionRecords(db: Db): SessionRecords {
  // Every signed-in request reads its session: the statements are built once and named, so no
  // SQL is built per request and PostgreSQL parses and plans them once per connection, and the
  // read skips drizzle's row mapper (db/hot-read.ts). Of the session only what the rules and the
  // request need; the user whole (request.user).
  const sessionById = hotRead(
    db,
    'session_by_id',
    db
      .select({ idToken: userSession.idToken, issuer: userSession.issuer, lastSeenAt: userSession.lastSeenAt, expiresAt: userSession.expiresAt, user: appUser })
      .from(userSession)
      .innerJoin(appUser, eq(appUser.id, userSession.userId))
      .where(eq(userSession.idHash, sql.placeholder('idHash'))),
  );
  const endSession = db
    .delete(userSession)
    .where(eq(userSession.idHash, sql.placeholder('idHash')))
    .prepare('session_end');
  const seenAt = db
    .update(userSession)
    .set({ lastSeenAt: sql`${sql.placeholder('at')}` })
    .where(eq(userSession.idHash, sql.placeholder('idHash')))
    .prepare('session_seen');

  return {
    async touch(idHash, at) {
      const [row] = await sessionById({ idHash });
      if (!row) return null;
      const time = at.getTime();
      if (sessionEnded(time, row.expiresAt.getTime(), row.lastSeenAt.getTime())) {
        await endSession.execute({ idHash });
        return null;
      }
      if (time - row.lastSeenAt.getTime() >= SESSION_ACTIVITY_WRITE_MS) {
        // As the column's own mapping would send it (a placeholder in SQL is sent as given).
        await seenAt.execute({ idHash, at: at.toISOString() });
      }
      return { user: row.user, idToken: row.idToken, issuer: row.issuer };
    },

    async create(idHash, record, replaces) {
      if (replaces) await db.delete(userSession).where(eq(userSession.idHash, replaces));
      await db.insert(userSession).values({ idHash, ...record, lastSeenAt: record.createdAt });
      // Housekeeping: sessions past their absolute end go when someone logs in.
      await db.delete(userSession).where(lt(userSession.expiresAt, record.createdAt));
    },

    async remove(idHash, userId) {
      await db.delete(userSession).where(and(eq(userSession.idHash, idHash), eq(userSession.userId, userId)));
    },

    async removeAllOf(userId) {
      await db.delete(userSession).where(eq(userSession.userId, userId));
    },

    async removeOpenedBy(userId, issuer, subject, except) {
      await db
        .delete(userSession)
        .where(and(eq(userSession.userId, userId), eq(userSession.issuer, issuer), eq(userSession.subject, subject), except === undefined ? undefined : ne(userSession.idHash, except)));
    },
  };
}

/**
 * Checks and refreshes a session in one round trip. The stored times are checked with the
 * caller's clock (so the rule is the database's, to the millisecond), and the key's TTL
 * (idle limit, or what is left of the absolute one) removes it even when nobody asks again.
 */
const touchScript = `
local f = redis.call('HMGET', KEYS[1], 'userId', 'idToken', 'expiresAt', 'lastSeenAt', 'issuer')
if not f[1] then return nil end
local now = tonumber(ARGV[1])
local idle = tonumber(ARGV[2])
local expiresAt = tonumber(f[3])
local lastSeen = tonumber(f[4])
if now >= expiresAt or now - lastSeen >= idle then
  redis.call('DEL', KEYS[1])
  return nil
end
if now > lastSeen then redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], math.min(idle, expiresAt - now))
return {f[1], f[2], f[5] or ''}
`;

const sessionKey = (idHash: string) => `session:${idHash}`;
const userSessionsKey = (userId: string) => `user-sessions:${userId}`;

/**
 * Sessions in Redis: a hash per session (user id, ID token, created, absolute end, last
 * activity) that is the cache of the session lookup, plus a set per user so erasure can end
 * them all. The user row itself still comes from the database.
 */
export function redisSessionRecords(redis: Redis, db: Db, call: RedisCall): SessionRecords {
  // Read on every signed-in request: built once and named, as the database store's session read.
  const userById = db
    .select()
    .from(appUser)
    .where(eq(appUser.id, sql.placeholder('userId')))
    .prepare('session_user');
  const records: SessionRecords = {
    async touch(idHash, at) {
      const found = (await call(() => redis.eval(touchScript, 1, sessionKey(idHash), String(at.getTime()), String(SESSION_IDLE_MS)))) as [string, string, string] | null;
      if (!found) return null;
      const [userId, idToken, issuer] = found;
      const [user] = await userById.execute({ userId });
      if (!user) {
        await records.remove(idHash, userId);
        return null;
      }
      // A session from before the issuer was recorded has none ('' from the script).
      return { user, idToken, issuer: issuer === '' ? null : issuer };
    },

    async create(idHash, record, replaces) {
      const at = record.createdAt.getTime();
      const expiresAt = record.expiresAt.getTime();
      const transaction = redis.multi();
      if (replaces) transaction.del(sessionKey(replaces));
      transaction
        .hset(sessionKey(idHash), {
          userId: record.userId,
          idToken: record.idToken,
          // Absent fields are how a hash says null (sessions from before carry neither).
          ...(record.issuer === null ? {} : { issuer: record.issuer }),
          ...(record.subject === null ? {} : { subject: record.subject }),
          createdAt: at,
          expiresAt,
          lastSeenAt: at,
        })
        .pexpire(sessionKey(idHash), Math.min(SESSION_IDLE_MS, expiresAt - at))
        .sadd(userSessionsKey(record.userId), idHash)
        .pexpire(userSessionsKey(record.userId), SESSION_ABSOLUTE_MS);
      await call(() => transaction.exec());
    },

    async remove(idHash, userId) {
      await call(() => redis.multi().del(sessionKey(idHash)).srem(userSessionsKey(userId), idHash).exec());
    },

    async removeAllOf(userId) {
      const ids = await call(() => redis.smembers(userSessionsKey(userId)));
      await call(() => redis.del(userSessionsKey(userId), ...ids.map(sessionKey)));
    },

    async removeOpenedBy(userId, issuer, subject, except) {
      const ids = (await call(() => redis.smembers(userSessionsKey(userId)))).filter((id) => id !== except);
      if (ids.length === 0) return;
      const logins = await call(async () => {
        const transaction = redis.multi();
        for (const id of ids) transaction.hmget(sessionKey(id), 'issuer', 'subject');
        return ((await transaction.exec()) ?? []).map(([error, fields]) => {
          if (error) throw error;
          return fields as [string | null, string | null];
        });
      });
      // The issuer and subject never change in a session, so what was read still holds when it is removed.
      const opened = ids.filter((_, index) => logins[index]?.[0] === issuer && logins[index][1] === subject);
      if (opened.length === 0) return;
      await call(() =>
        redis
          .multi()
          .del(...opened.map(sessionKey))
          .srem(userSessionsKey(userId), ...opened)
          .exec(),
      );
    },
  };
  return records;
}
