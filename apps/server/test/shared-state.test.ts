import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { appUser } from '../src/db/schema.ts';
import { LOGIN_FAILURE_LIMIT } from '../src/lib/shared-state/database-login-throttle.ts';
import { createSharedState, type SharedState } from '../src/lib/shared-state/index.ts';
import { SESSION_ABSOLUTE_MS, SESSION_ACTIVITY_WRITE_MS, SESSION_IDLE_MS } from '../src/lib/shared-state/sessions.ts';
import { createScratchDatabase, testDatabases, type ScratchDatabase } from './helper.ts';
import { createTestRedis, testRedisUrl, type TestRedis } from './redis-support.ts';

// Each store of lib/shared-state (ADR 018), in the database on every test database and in
// Redis: sessions (idle and absolute end, logout, erasure), login tokens (single use, bound to
// the browser), the password throttle and the generic rate limiter (atomic under parallel hits).

const MINUTE = 60_000;
const silentLog = pino({ level: 'silent' });

const cases: { name: 'pglite' | 'postgres'; storage: 'database' | 'redis' }[] = [
  ...testDatabases.map(({ name }) => ({ name, storage: 'database' as const })),
  ...(testRedisUrl ? [{ name: 'pglite' as const, storage: 'redis' as const }] : []),
];

describe.each(cases)('shared state ($name, $storage)', ({ name, storage }) => {
  let scratch: ScratchDatabase;
  let database: Database;
  let redis: TestRedis | undefined;
  let shared: SharedState;
  let clock = Date.parse('2026-11-21T12:00:00Z');
  const now = () => new Date(clock);
  const userId = `user-${randomUUID()}`;

  beforeAll(async () => {
    scratch = await createScratchDatabase(name);
    database = await createDatabase(scratch.options);
    await migrate(database);
    await database.db.insert(appUser).values({ id: userId, identitySub: `sub-${userId}`, email: 'delt@minside.test', givenName: 'Delt', familyName: 'Tilstand' });
    redis = storage === 'redis' ? createTestRedis() : undefined;
    shared = await createSharedState({ config: redis?.config ?? { redisUrl: undefined, redisKeyPrefix: 'minside:' }, db: database.db, now, log: silentLog });
  });
  afterAll(async () => {
    await shared.close();
    await redis?.dispose();
    await database.close();
    await scratch.dispose();
  });
  beforeEach(() => {
    clock = Date.parse('2026-11-21T12:00:00Z');
  });

  /** A session; without a login, one from before sessions recorded the login that opened them. */
  const newSession = async (lifetimeMs = SESSION_ABSOLUTE_MS, login: { issuer: string; subject: string } | null = null, owner = userId) => {
    const idHash = randomUUID();
    await shared.sessions.create(idHash, {
      userId: owner,
      idToken: 'id-token',
      issuer: login?.issuer ?? null,
      subject: login?.subject ?? null,
      createdAt: now(),
      expiresAt: new Date(clock + lifetimeMs),
    });
    return idHash;
  };

  it('is the store REDIS_URL asks for', () => {
    expect(shared.kind).toBe(storage);
  });

  describe('sessions', () => {
    it('ends after 30 idle minutes; activity keeps it alive; the ended one is removed', async () => {
      const idHash = await newSession();
      clock += SESSION_IDLE_MS - 1;
      expect(await shared.sessions.touch(idHash, now())).toMatchObject({ user: { id: userId, email: 'delt@minside.test' }, idToken: 'id-token' });
      clock += SESSION_IDLE_MS - 1;
      expect(await shared.sessions.touch(idHash, now())).not.toBeNull();
      clock += SESSION_IDLE_MS;
      expect(await shared.sessions.touch(idHash, now())).toBeNull();
      // Gone, not only refused: an earlier clock does not bring it back.
      clock -= SESSION_IDLE_MS;
      expect(await shared.sessions.touch(idHash, now())).toBeNull();
    });

    it('ends at the absolute limit however active', async () => {
      const idHash = await newSession();
      for (let at = 25 * MINUTE; at < SESSION_ABSOLUTE_MS; at += 25 * MINUTE) {
        clock = Date.parse('2026-11-21T12:00:00Z') + at;
        expect(await shared.sessions.touch(idHash, now()), `at ${at / MINUTE} min`).not.toBeNull();
      }
      clock = Date.parse('2026-11-21T12:00:00Z') + SESSION_ABSOLUTE_MS;
      expect(await shared.sessions.touch(idHash, now())).toBeNull();
    });

    it('logout removes it at once; a new login replaces the browser’s earlier session; erasure ends all', async () => {
      const first = await newSession();
      await shared.sessions.remove(first, userId);
      expect(await shared.sessions.touch(first, now())).toBeNull();

      const earlier = await newSession();
      const replacing = randomUUID();
      await shared.sessions.create(replacing, { userId, idToken: 't', issuer: 'account', subject: 's', createdAt: now(), expiresAt: new Date(clock + SESSION_ABSOLUTE_MS) }, earlier);
      expect(await shared.sessions.touch(earlier, now())).toBeNull();
      expect(await shared.sessions.touch(replacing, now())).not.toBeNull();

      const other = await newSession();
      await shared.sessions.removeAllOf(userId);
      expect(await shared.sessions.touch(replacing, now())).toBeNull();
      expect(await shared.sessions.touch(other, now())).toBeNull();
    });

    it('an unlinked login ends the sessions it opened, all but the one it was unlinked from; other logins’ and older sessions stay', async () => {
      const vipps = { issuer: 'vipps', subject: `vipps-${randomUUID()}` };
      const account = { issuer: 'account', subject: `account-${randomUUID()}` };
      const otherUserId = `user-${randomUUID()}`;
      await database.db.insert(appUser).values({ id: otherUserId, identitySub: `sub-${otherUserId}`, email: 'annen@minside.test', givenName: 'Annen', familyName: 'Bruker' });
      const onAnotherDevice = await newSession(SESSION_ABSOLUTE_MS, vipps);
      const current = await newSession(SESSION_ABSOLUTE_MS, vipps);
      const byAccount = await newSession(SESSION_ABSOLUTE_MS, account);
      const fromBefore = await newSession();
      const anotherVippsAccount = await newSession(SESSION_ABSOLUTE_MS, { issuer: 'vipps', subject: `vipps-${randomUUID()}` });
      // The same login's word does not reach another user's sessions (the store is asked per user).
      const otherUsers = await newSession(SESSION_ABSOLUTE_MS, vipps, otherUserId);
      expect(await shared.sessions.touch(current, now())).toMatchObject({ issuer: 'vipps' });
      expect(await shared.sessions.touch(fromBefore, now())).toMatchObject({ issuer: null });

      await shared.sessions.removeOpenedBy(userId, vipps.issuer, vipps.subject, current);
      expect(await shared.sessions.touch(onAnotherDevice, now())).toBeNull();
      expect(await shared.sessions.touch(current, now())).toMatchObject({ user: { id: userId }, issuer: 'vipps' });
      expect(await shared.sessions.touch(byAccount, now())).toMatchObject({ user: { id: userId }, issuer: 'account' });
      expect(await shared.sessions.touch(fromBefore, now())).toMatchObject({ user: { id: userId }, issuer: null });
      expect(await shared.sessions.touch(anotherVippsAccount, now())).not.toBeNull();
      expect(await shared.sessions.touch(otherUsers, now())).toMatchObject({ user: { id: otherUserId } });
      // Without an exception, every session that login opened ends.
      await shared.sessions.removeOpenedBy(userId, vipps.issuer, vipps.subject);
      expect(await shared.sessions.touch(current, now())).toBeNull();
      expect(await shared.sessions.touch(byAccount, now())).not.toBeNull();
    });

    if (storage === 'database') {
      it('writes activity at most once a minute, so a session may end up to a minute early, never late', async () => {
        const idHash = await newSession();
        const lastSeen = async () => (await database.rows<{ last_seen_at: Date | string }>(sql`select last_seen_at from user_session where id_hash = ${idHash}`))[0]?.last_seen_at;
        const created = new Date((await lastSeen()) ?? 0).getTime();
        clock += SESSION_ACTIVITY_WRITE_MS - 1;
        await shared.sessions.touch(idHash, now());
        expect(new Date((await lastSeen()) ?? 0).getTime()).toBe(created);
        clock += 1;
        await shared.sessions.touch(idHash, now());
        const written = clock;
        expect(new Date((await lastSeen()) ?? 0).getTime()).toBe(written);
        // Activity 59 s after the write is not written: the session then ends 30 min after the
        // write, 59 s before 30 min after the real last request: early, never late.
        clock += SESSION_ACTIVITY_WRITE_MS - 1_000;
        expect(await shared.sessions.touch(idHash, now())).not.toBeNull();
        clock = written + SESSION_IDLE_MS;
        expect(await shared.sessions.touch(idHash, now())).toBeNull();
      });
    }

    if (storage === 'redis') {
      it('keeps the key only as long as the session can live: the TTL is the idle limit or what is left of the absolute one', async () => {
        const idHash = await newSession();
        const ttl = await redis?.client.pttl(`${redis.config.redisKeyPrefix}session:${idHash}`);
        expect(ttl).toBeGreaterThan(SESSION_IDLE_MS - 5_000);
        expect(ttl).toBeLessThanOrEqual(SESSION_IDLE_MS);
        // A session with ten minutes left of its absolute limit lives ten minutes in Redis, not thirty.
        const late = await newSession(10 * MINUTE);
        const lateTtl = await redis?.client.pttl(`${redis.config.redisKeyPrefix}session:${late}`);
        expect(lateTtl).toBeLessThanOrEqual(10 * MINUTE);
        expect(lateTtl).toBeGreaterThan(10 * MINUTE - 5_000);
      });

      it('is gone from Redis when its time is up, without anyone asking (real time, short session)', async () => {
        // Redis expires keys by its own (real) clock, so this session is dated by the machine's.
        clock = systemClock().getTime();
        const idHash = await newSession(300);
        expect(await redis?.keys(`session:${idHash}`)).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await redis?.keys(`session:${idHash}`)).toHaveLength(0);
      });
    }
  });

  describe('login tokens', () => {
    const record = () => ({
      browserBindingHash: 'binding-a',
      codeVerifier: 'verifier',
      nonce: 'nonce',
      redirectUri: 'http://adresseavisen.localhost:3000/callback',
      returnTo: '/fakturaoversikt',
      titleCode: 'ADR',
      issuer: null,
      purpose: 'LOGIN' as const,
      linkUserId: null,
      expiresAt: new Date(clock + 30 * MINUTE),
    });

    it('take the issuer the person picks once, only from the browser that started them, and carry it to the claim', async () => {
      const state = randomUUID();
      await shared.loginAttempts.save(state, { ...record(), purpose: 'LINK', linkUserId: 'user-1' }, now());
      expect(await shared.loginAttempts.chooseIssuer(state, 'binding-b', 'vipps')).toBeNull();
      expect(await shared.loginAttempts.chooseIssuer(state, 'binding-a', 'vipps')).toMatchObject({ issuer: 'vipps', purpose: 'LINK', linkUserId: 'user-1' });
      // Picked once: a second pick (another tab, a replay) does not switch the issuer under a login in progress.
      expect(await shared.loginAttempts.chooseIssuer(state, 'binding-a', 'account')).toBeNull();
      expect(await shared.loginAttempts.claim(state, 'binding-a', now())).toMatchObject({ issuer: 'vipps', purpose: 'LINK', linkUserId: 'user-1' });
      // Claimed: too late to pick.
      expect(await shared.loginAttempts.chooseIssuer(state, 'binding-a', 'account')).toBeNull();
    });

    it('are claimed once, only by the browser that started them', async () => {
      const state = randomUUID();
      await shared.loginAttempts.save(state, record(), now());
      expect(await shared.loginAttempts.claim(state, 'binding-b', now())).toBeNull();
      expect(await shared.loginAttempts.claim(state, 'binding-a', now())).toMatchObject({ ...record(), expiresAt: record().expiresAt });
      expect(await shared.loginAttempts.claim(state, 'binding-a', now())).toBeNull();
      expect(await shared.loginAttempts.claim(randomUUID(), 'binding-a', now())).toBeNull();
    });

    it('tell where they return to, only to the browser that started them and only until claimed', async () => {
      const state = randomUUID();
      await shared.loginAttempts.save(state, record(), now());
      expect(await shared.loginAttempts.returnToOf(state, 'binding-b')).toBeNull();
      expect(await shared.loginAttempts.returnToOf(state, 'binding-a')).toBe('/fakturaoversikt');
      expect(await shared.loginAttempts.returnToOf(randomUUID(), 'binding-a')).toBeNull();
      await shared.loginAttempts.claim(state, 'binding-a', now());
      expect(await shared.loginAttempts.returnToOf(state, 'binding-a')).toBeNull();
    });

    it('are claimed once even when the same state arrives twice at the same moment', async () => {
      const state = randomUUID();
      await shared.loginAttempts.save(state, record(), now());
      const claims = await Promise.all(Array.from({ length: 8 }, () => shared.loginAttempts.claim(state, 'binding-a', now())));
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('keep their expiry, so a late callback can be told it expired', async () => {
      const state = randomUUID();
      await shared.loginAttempts.save(state, record(), now());
      clock += 31 * MINUTE;
      const claimed = await shared.loginAttempts.claim(state, 'binding-a', now());
      expect(claimed?.expiresAt.getTime()).toBeLessThan(clock);
    });
  });

  describe('login throttle', () => {
    it('lets ten failures per e-mail through within a minute, refuses the eleventh, counts parallel attempts', async () => {
      const email = `${randomUUID()}@minside.test`;
      for (let index = 0; index < LOGIN_FAILURE_LIMIT; index++) expect((await shared.loginThrottle.begin(email, `10.0.0.${index}`)).blocked).toBe(false);
      expect((await shared.loginThrottle.begin(email, '10.0.1.1')).blocked).toBe(true);
      // Sent at once, attempts still see each other: never more than the limit get through.
      const burst = `${randomUUID()}@minside.test`;
      const attempts = await Promise.all(Array.from({ length: LOGIN_FAILURE_LIMIT + 5 }, (_, index) => shared.loginThrottle.begin(burst, `10.0.2.${index}`)));
      expect(attempts.filter((attempt) => !attempt.blocked).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
      // A minute later the old failures no longer count.
      clock += MINUTE;
      expect((await shared.loginThrottle.begin(email, '10.0.1.1')).blocked).toBe(false);
    });

    it('counts per IP across e-mails, and a success forgets its attempt', async () => {
      const ip = `ip-${randomUUID()}`;
      for (let index = 0; index < LOGIN_FAILURE_LIMIT - 1; index++) expect((await shared.loginThrottle.begin(`${index}-${randomUUID()}@x.no`, ip)).blocked).toBe(false);
      const success = await shared.loginThrottle.begin(`right-${randomUUID()}@x.no`, ip);
      expect(success.blocked).toBe(false);
      await success.succeeded();
      // Nine failures count, the success does not: one more failure fits, then the IP is refused.
      expect((await shared.loginThrottle.begin(`${randomUUID()}@x.no`, ip)).blocked).toBe(false);
      expect((await shared.loginThrottle.begin(`${randomUUID()}@x.no`, ip)).blocked).toBe(true);
    });
  });

  describe('rate limiter', () => {
    it('allows the limit per window, atomically under parallel hits; the next window starts afresh', async () => {
      const key = `test:${randomUUID()}`;
      const rule = { limit: 5, windowMs: 60 * MINUTE };
      clock = Math.floor(clock / rule.windowMs) * rule.windowMs + 10 * MINUTE;
      const results = await Promise.all(Array.from({ length: 12 }, () => shared.rateLimiter.hit(key, rule)));
      expect(results.filter((result) => result.allowed)).toHaveLength(5);
      expect(results.map((result) => result.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
      expect(results[0]?.resetAt.getTime()).toBe(clock + 50 * MINUTE);
      expect((await shared.rateLimiter.hit(`test:${randomUUID()}`, rule)).allowed).toBe(true);
      clock += 50 * MINUTE;
      expect(await shared.rateLimiter.hit(key, rule)).toMatchObject({ allowed: true, hits: 1 });
    });
  });
});

describe.skipIf(!testRedisUrl)('Redis away', () => {
  it('answers 503 with the stable code and a Norwegian message, never 500; /readyz says not ready', async () => {
    const scratch = await createScratchDatabase('pglite');
    const database = await createDatabase(scratch.options);
    await migrate(database);
    // Nothing listens on port 1: every Redis call fails at once.
    const app = await buildApp({ config: testConfig({ redisUrl: 'redis://127.0.0.1:1', redisKeyPrefix: 'minside-test-down:' }), database, catalogue: defaultCatalogue, now: systemClock });
    try {
      const session = await app.inject({ method: 'GET', url: '/api/session', headers: { host: 'adresseavisen.localhost:3000', cookie: 'minside_session=some-session' } });
      expect(session.statusCode, session.body).toBe(503);
      expect(session.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.' });
      const token = await app.inject({ method: 'GET', url: '/api/loginToken', headers: { host: 'adresseavisen.localhost:3000' } });
      expect(token.statusCode, token.body).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
