// What every API benchmark needs: the seeded database, signed-in sessions, the app listening,
// a bare node:http server answering the same bytes, and the load generator in a worker thread.
import http from 'node:http';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import { createDatabase, databaseOptionsFrom, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seedDemoData } from '../apps/server/src/db/seed.ts';
import { hashToken, randomToken, SESSION_ABSOLUTE_MS } from '../apps/server/src/plugins/session.ts';
import { closedLoop, type DriverJob, type DriverResult } from './driver.ts';

export type { DriverRequest, DriverResult } from './driver.ts';

/** `DATABASE_URL` (PostgreSQL) when given, else an in-memory PGlite; migrated and seeded with the demo users. */
export async function openSeededDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  const database = await createDatabase(url ? databaseOptionsFrom({ databaseUrl: url, dataDir: '' }) : { kind: 'pglite', dataDir: undefined });
  await migrate(database);
  await seedDemoData(database, { password: 'demo1234', now: systemClock });
  return database;
}

/**
 * A signed-in session for a demo user, as the login flow leaves it (the cookie holds a random
 * id, the database its hash). Returns the Cookie header.
 */
export async function signIn(database: Database, userId: string): Promise<string> {
  const token = randomToken();
  const at = new Date();
  await database.rows(sql`insert into user_session (id_hash, user_id, id_token, created_at, last_seen_at, expires_at)
    values (${hashToken(token)}, ${userId}, ${`bench-${randomUUID()}`}, ${at}, ${at}, ${new Date(at.getTime() + SESSION_ABSOLUTE_MS)})`);
  return `minside_session=${token}`;
}

/** The whole app as `bin/server.ts` builds it, listening on a free port. `LOG_LEVEL` as in production config (default silent here). */
export async function startApp(database: Database): Promise<{ app: FastifyInstance; port: number }> {
  const config = testConfig({ logLevel: process.env.LOG_LEVEL ?? 'silent' });
  const app = await buildApp({ config, database, catalogue: defaultCatalogue, now: systemClock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** Listens on a free loopback port and says which. */
async function listenOnFreePort(server: http.Server): Promise<{ server: http.Server; port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The network floor: node:http answering every request with the given body. */
export async function startBare(body: string): Promise<{ server: http.Server; port: number }> {
  const length = Buffer.byteLength(body);
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
    response.end(body);
  });
  return listenOnFreePort(server);
}

/**
 * The database floor: node:http that makes the reads a signed-in call cannot do without (the
 * session with its user by the cookie's hash, then the subscription joined to its owner's
 * account) on the same database and sends the same body. No framework, no validation, no
 * logging, no headers: what any implementation that reads the database on every request costs
 * on this machine, so the app's own overhead is the gap between this and the app.
 */
/** A client that takes a statement by name and prepares it once per connection (pg), or PGlite's. */
interface StatementClient {
  query<Row>(statement: { name: string; text: string; values: unknown[] } | string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

/**
 * The floor's reads as named prepared statements on PostgreSQL, as the app's session and
 * subscription reads are (drizzle's `.prepare(name)`): a floor that parsed and planned its SQL on
 * every request (110 µs more per request, measured) would be no floor. PGlite has one connection
 * and its own extended-protocol path: the same text and parameters.
 */
function preparedReader(database: Database): <Row>(name: string, text: string, values: unknown[]) => Promise<Row[]> {
  // Drizzle keeps its driver's client as `$client`: a pg Pool or a PGlite instance.
  const client = (database.db as unknown as { $client: StatementClient }).$client;
  return async <Row>(name: string, text: string, values: unknown[]) =>
    database.kind === 'postgres' ? (await client.query<Row>({ name, text, values })).rows : (await client.query<Row>(text, values)).rows;
}

/** The two reads of a signed-in home call, as the floors make them: the session with its user by the cookie's hash, then the subscription joined to its owner's account. */
function homeReads(database: Database, read: { sessionIdHash: string; ariaAccountNo: number; titleCode: string }): () => Promise<void> {
  const rows = preparedReader(database);
  return async () => {
    const [session] = await rows<{ user_id: string }>(
      'floor_session',
      'select s.user_id, s.expires_at, u.email, u.given_name, u.family_name from user_session s join app_user u on u.id = s.user_id where s.id_hash = $1',
      [read.sessionIdHash],
    );
    const subscriptions = await rows(
      'floor_subscription',
      'select sub.* from subscription sub join account a on a.aria_account_no = sub.aria_account_no where sub.aria_account_no = $1 and sub.title_code = $2 and a.user_id = $3',
      [read.ariaAccountNo, read.titleCode, session?.user_id ?? ''],
    );
    if (subscriptions.length === 0) throw new Error('the floor found no subscription');
  };
}

export async function startDatabaseFloor(database: Database, body: string, read: { sessionIdHash: string; ariaAccountNo: number; titleCode: string }): Promise<{ server: http.Server; port: number }> {
  const length = Buffer.byteLength(body);
  const readHome = homeReads(database, read);
  const server = http.createServer((_request, response) => {
    readHome().then(
      () => {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
        response.end(body);
      },
      () => response.writeHead(500).end(),
    );
  });
  return listenOnFreePort(server);
}

/**
 * The framework floor: the database floor's two reads in a bare Fastify route (no logger, no
 * hooks, no plugins, no schema), the same body. What the framework the app is built on costs
 * per request on top of the database floor; the app's own work is the gap between this and the app.
 */
export async function startFrameworkFloor(
  database: Database,
  body: string,
  read: { sessionIdHash: string; ariaAccountNo: number; titleCode: string },
): Promise<{ server: FastifyInstance; port: number }> {
  const readHome = homeReads(database, read);
  const server = Fastify({ logger: false });
  server.get('/api/subscription/:accountNo/:titleCode', async (_request, reply) => {
    await readHome();
    return reply.type('application/json; charset=utf-8').send(body);
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, port: (server.server.address() as AddressInfo).port };
}

/** Runs one load job off the main thread (bench/driver.ts) so the load generator does not share the server's event loop. */
export function drive(job: DriverJob): Promise<DriverResult> {
  if (job.kind === 'closed') return closedLoop(job);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./driver-worker.mjs', import.meta.url), { workerData: job });
    worker.once('message', (result: DriverResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load driver exited with ${code}`));
    });
  });
}

/** What the numbers were measured on: the machine is shared, so the load average goes into every report. */
export function machine() {
  const cpu = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return { nproc: os.availableParallelism(), cpu, loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))), node: process.version };
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
