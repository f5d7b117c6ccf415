import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotRead } from '../src/db/hot-read.ts';
import { account, appUser, subscription, userSession } from '../src/db/schema.ts';
import { buildTestApp, testDatabases, type TestApp } from './helper.ts';
import { signIn } from './support.ts';

/**
 * db/hot-read.ts reads rows without drizzle's row mapper: they must be exactly what drizzle's own
 * `execute()` gives for the same select, on both drivers, for every kind of column the hot reads
 * select (text, integer, bigint, boolean, jsonb, dates as strings, timestamps, nulls, a whole table
 * nested, columns of aliased and left-joined tables).
 */
describe.each(testDatabases)('hot reads ($name)', ({ name }) => {
  let test: TestApp;

  beforeAll(async () => {
    test = await buildTestApp(name, { seed: true });
    // A session, so the session read has a row with its timestamps.
    await signIn(test, 'http://adresseavisen.localhost:3000', 'papir@minside.test');
  }, 120_000);
  afterAll(async () => {
    await test?.close();
  });

  it('the session with its whole user, by a placeholder: what drizzle gives, Dates and nulls included', async () => {
    const { db } = test.database;
    const select = db
      .select({ idToken: userSession.idToken, issuer: userSession.issuer, lastSeenAt: userSession.lastSeenAt, expiresAt: userSession.expiresAt, user: appUser })
      .from(userSession)
      .innerJoin(appUser, eq(appUser.id, userSession.userId))
      .where(eq(userSession.idHash, sql.placeholder('idHash')));
    const sessions = await db.select({ idHash: userSession.idHash }).from(userSession);
    expect(sessions.length).toBeGreaterThan(0);
    const read = hotRead(db, 'test_session_by_id', select);
    const prepared = select.prepare('test_session_by_id_drizzle');
    for (const { idHash } of sessions) {
      const rows = await read({ idHash });
      expect(rows).toEqual(await prepared.execute({ idHash }));
      expect(rows[0]?.lastSeenAt).toBeInstanceOf(Date);
    }
    expect(await read({ idHash: 'no such session' })).toEqual([]);
  });

  it('every subscription with its owner through aliased left joins: what drizzle gives, for shares and own ones', async () => {
    const { db } = test.database;
    const owner = alias(subscription, 'owner_subscription');
    const ownerAccount = alias(account, 'owner_account');
    const ownerUser = alias(appUser, 'owner_user');
    const select = db
      .select({ subscription, ownerId: owner.id, ownerStatusCode: owner.instStatusCode, ownerPeriodEnd: owner.currentPeriodEnd, ownerGiven: ownerUser.givenName, accountNo: account.ariaAccountNo })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId))
      .leftJoin(ownerAccount, eq(ownerAccount.ariaAccountNo, owner.ariaAccountNo))
      .leftJoin(ownerUser, eq(ownerUser.id, ownerAccount.userId))
      .orderBy(subscription.id);
    const rows = await hotRead(db, 'test_all_subscriptions', select)({});
    expect(rows).toEqual(await select);
    // The seed has both kinds, so both paths of the left joins were compared.
    expect(rows.some((row) => row.ownerId !== null)).toBe(true);
    expect(rows.some((row) => row.ownerId === null)).toBe(true);
    expect(typeof rows[0]?.subscription.startedOn).toBe('string');
    expect(typeof rows[0]?.accountNo).toBe('number');
  });

  it('refuses a selection it would map differently from drizzle: an SQL expression, a left-joined table nested', () => {
    const { db } = test.database;
    expect(() => hotRead(db, 'test_expression', db.select({ count: sql<number>`count(*)` }).from(subscription))).toThrow(/columns and tables only/);
    const owner = alias(subscription, 'owner_subscription');
    const withOwner = db.select({ subscription, owner }).from(subscription).leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId));
    expect(() => hotRead(db, 'test_left_joined_table', withOwner)).toThrow(/left-joined table \(owner\.id\)/);
    const ownerColumns = db
      .select({ subscription, owner: { id: owner.id } })
      .from(subscription)
      .leftJoin(owner, eq(owner.id, subscription.sharedFromSubscriptionId));
    expect(() => hotRead(db, 'test_left_joined_columns', ownerColumns)).toThrow(/left-joined table/);
  });
});
