import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createSharedState, type SharedState } from '../src/lib/shared-state/index.ts';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from '../src/lib/shared-state/idempotency.ts';
import { buildTestApp, createScratchDatabase, testDatabases, type ScratchDatabase, type TestApp } from './helper.ts';
import { createTestRedis, storageModes, testRedisUrl, type TestRedis } from './redis-support.ts';
import { countOf, expectRefused, signIn } from './support.ts';
import type { TestBrowser } from './browser.ts';

// The Idempotency-Key of every state-changing call from the web (plugins/idempotency.ts, ADR
// 029): the same key and request answer the first answer again without running the call; the
// same key for another request is refused. On each database, in the database and in Redis.

const PORTAL = 'http://adresseavisen.localhost:3000';
const api = (path: string) => `${PORTAL}/api${path}`;
// Tuesday 24 November 2026 in Oslo; ADR prints Monday–Saturday, so Monday 23rd had a paper.
const TUESDAY_MORNING = new Date('2026-11-24T10:00:00+01:00');
const complaint = { code: 'MISSING', days: ['2026-11-23'], remedy: 'EXTENSION' };

const appCases = testDatabases.flatMap(({ name }) => storageModes.map(({ storage }) => ({ name, storage })));

describe.each(appCases)('Idempotency-Key on API writes ($name, $storage)', ({ name, storage }) => {
  let test: TestApp;
  let redis: TestRedis | undefined;
  let papir: TestBrowser;
  const complaints = () => countOf(test, sql`select count(*) as n from delivery_complaint`);
  const fileComplaint = (browser: TestBrowser, key: string | undefined, body: unknown = complaint) =>
    browser.request('POST', api('/delivery/complaints?titleCode=ADR'), { json: body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });

  beforeAll(async () => {
    redis = storage === 'redis' ? createTestRedis() : undefined;
    test = await buildTestApp(name, { seed: true, now: () => TUESDAY_MORNING, ...(redis ? { config: redis.config } : {}) });
  });
  afterAll(async () => {
    await test.close();
    await redis?.dispose();
  });
  beforeEach(async () => {
    await test.database.rows(sql`delete from delivery_complaint_day`);
    await test.database.rows(sql`delete from delivery_complaint`);
    papir = await signIn(test, PORTAL, 'papir@minside.test');
  });

  it('files a complaint once for the same key twice and answers the first receipt again', async () => {
    const key = randomUUID();
    const first = await fileComplaint(papir, key);
    expect(first.status, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const retry = await fileComplaint(papir, key);
    expect(retry.status, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toMatch(/^application\/json/);
    expect(retry.json()).toEqual(first.json());
    expect(await complaints()).toBe(1);

    // Without the key the same request runs again, and the service's own rule refuses it.
    expectRefused(await fileComplaint(papir, undefined), 409, 'COMPLAINT_DUPLICATE');
    expect(await complaints()).toBe(1);
  });

  it('refuses the same key for another request and changes nothing', async () => {
    const key = randomUUID();
    expect((await fileComplaint(papir, key)).status).toBe(201);
    expectRefused(await fileComplaint(papir, key, { ...complaint, code: 'LATE' }), 409, 'IDEMPOTENCY_KEY_REUSED', 'Forespørselen er allerede brukt til noe annet. Last siden på nytt og prøv igjen.');
    expect(await complaints()).toBe(1);
  });

  it('runs a double submit once: the second hears the first answer or that it is still running', async () => {
    const key = randomUUID();
    const answers = await Promise.all([fileComplaint(papir, key), fileComplaint(papir, key)]);
    expect(await complaints()).toBe(1);
    const outcomes = answers.map((answer) => (answer.status === 201 ? 'receipt' : `${answer.status} ${answer.json<{ code: string }>().code}`)).sort();
    expect([
      ['receipt', 'receipt'],
      ['409 IDEMPOTENT_REQUEST_IN_PROGRESS', 'receipt'],
    ]).toContainEqual(outcomes);
  });

  it('keeps a key per user: another subscriber with the same key files their own complaint', async () => {
    const key = randomUUID();
    expect((await fileComplaint(papir, key)).status).toBe(201);
    const other = await signIn(test, PORTAL, 'ferie@minside.test');
    const filed = await fileComplaint(other, key);
    expect(filed.status, filed.body).toBe(201);
    expect(filed.headers['idempotent-replayed']).toBeUndefined();
    expect(await complaints()).toBe(2);
  });

  it('keeps no validation failure: the corrected request may use the key', async () => {
    const key = randomUUID();
    expectRefused(await fileComplaint(papir, key, { ...complaint, code: 'NOT_A_CODE' }), 400, 'VALIDATION_FAILED');
    expect((await fileComplaint(papir, key)).status).toBe(201);
    expect(await complaints()).toBe(1);
  });

  it('refuses a key that is not a token', async () => {
    expectRefused(await fileComplaint(papir, 'short'), 400, 'VALIDATION_FAILED');
    expectRefused(await fileComplaint(papir, 'x'.repeat(201)), 400, 'VALIDATION_FAILED');
    expect(await complaints()).toBe(0);
  });
});

const storeCases: { name: 'pglite' | 'postgres'; storage: 'database' | 'redis' }[] = [
  ...testDatabases.map(({ name }) => ({ name, storage: 'database' as const })),
  ...(testRedisUrl ? [{ name: 'pglite' as const, storage: 'redis' as const }] : []),
];

describe.each(storeCases)('the idempotency store ($name, $storage)', ({ name, storage }) => {
  let scratch: ScratchDatabase;
  let database: Database;
  let redis: TestRedis | undefined;
  let shared: SharedState;
  let clock = Date.parse('2026-11-21T12:00:00Z');
  const now = () => new Date(clock);
  const answer = { status: 201, contentType: 'application/json; charset=utf-8', body: '{"caseNumber":"RK-100001"}' };

  beforeAll(async () => {
    scratch = await createScratchDatabase(name);
    database = await createDatabase(scratch.options);
    await migrate(database);
    redis = storage === 'redis' ? createTestRedis() : undefined;
    shared = await createSharedState({ config: redis?.config ?? { redisUrl: undefined, redisKeyPrefix: 'minside:' }, db: database.db, now, log: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await shared.close();
    await redis?.dispose();
    await database.close();
    await scratch.dispose();
  });

  it('claims once, answers the stored response, and frees the key after the retention', async () => {
    const scope = `user:POST /api/x:${randomUUID()}`;
    expect(await shared.idempotency.claim(scope, 'a')).toEqual({ kind: 'claimed' });
    expect(await shared.idempotency.claim(scope, 'a')).toEqual({ kind: 'inProgress' });
    expect(await shared.idempotency.claim(scope, 'b')).toEqual({ kind: 'mismatch' });
    await shared.idempotency.complete(scope, answer);
    expect(await shared.idempotency.claim(scope, 'a')).toEqual({ kind: 'completed', response: answer });
    expect(await shared.idempotency.claim(scope, 'b')).toEqual({ kind: 'mismatch' });
    if (storage === 'database') {
      clock += IDEMPOTENCY_RETENTION_MS + 1;
      expect(await shared.idempotency.claim(scope, 'b')).toEqual({ kind: 'claimed' });
    } else {
      expect(await redis?.client.pttl(`${redis.config.redisKeyPrefix}idempotency:${scope}`)).toBeGreaterThan(IDEMPOTENCY_RETENTION_MS - 60_000);
    }
  });

  it('lets a retry take over a claim whose call died (lease over), and forgets a released one', async () => {
    const scope = `user:POST /api/x:${randomUUID()}`;
    expect(await shared.idempotency.claim(scope, 'a')).toEqual({ kind: 'claimed' });
    if (storage === 'database') {
      clock += IDEMPOTENCY_LEASE_MS + 1;
      expect(await shared.idempotency.claim(scope, 'a')).toEqual({ kind: 'claimed' });
    } else {
      const ttl = await redis?.client.pttl(`${redis.config.redisKeyPrefix}idempotency:${scope}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS);
    }
    await shared.idempotency.release(scope);
    expect(await shared.idempotency.claim(scope, 'b')).toEqual({ kind: 'claimed' });
  });
});
