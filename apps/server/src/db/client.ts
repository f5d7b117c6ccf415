import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Logger, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The one database type the rest of the code sees, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Raw SQL for the few places the query builder does not fit (checks, tests, tools). */
  rows<Row>(query: SQL): Promise<Row[]>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Runs `fn` while holding a database-wide lock: one migrator at a time across instances. */
  withExclusiveLock<T>(fn: () => Promise<T>): Promise<T>;
}

export type DatabaseOptions =
  /**
   * queryTimeoutMs: how long a query may go without an answer before it fails (default
   * DEFAULT_QUERY_TIMEOUT_MS; 0 turns it off). It is the bound on a request's wait when the
   * network to the database hangs instead of failing.
   */
  | { kind: 'postgres'; url: string; queryTimeoutMs?: number; /** Sees every statement and its parameters (test/query-plans.test.ts explains them). */ logger?: Logger }
  /**
   * dataDir undefined keeps the database in memory (tests). loadDataDir (tests only, in
   * memory only): start from a dump of a data directory (`dumpDataDir`) instead of an empty
   * cluster, so each test app need not run initdb and every migration again.
   */
  | { kind: 'pglite'; dataDir: string | undefined; loadDataDir?: Blob };

export function databaseOptionsFrom(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseOptions {
  return config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: path.resolve(config.dataDir, 'pgdata') };
}

// Arbitrary constant shared by every instance: the advisory lock key for migrations.
const MIGRATION_LOCK_KEY = 4_711_2026;

/**
 * A query without any answer for this long means the connection is dead (a network partition,
 * a hung server): it fails, so a request answers 503 rather than hang. Generous, so no real
 * query of the portal comes near it; migrations (withExclusiveLock) run without it.
 */
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return createPostgres(options.url, options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS, options.logger);
  return createPglite(options.dataDir, options.loadDataDir);
}

async function createPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : loadDataDir ? new PGlite({ loadDataDir }) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    async rows<Row>(query: SQL) {
      return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
    },
    async ping() {
      if (closed) throw new Error('database is closed');
      await client.query('select 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
    // PGlite is a single connection in this process: its own queue already serialises.
    withExclusiveLock: (fn) => fn(),
  };
}

async function createPostgres(url: string, queryTimeoutMs: number, logger?: Logger): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A refused or reset connection fails at once; this bounds the wait when nothing answers.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Lets the kernel notice a peer that vanished without closing (a partition) on idle connections.
    keepAlive: true,
  });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool discards it and the next query reconnects.
  pool.on('error', () => {});
  let migrating = 0;
  pool.on('connect', (client) => guardClient(client, () => (migrating > 0 ? 0 : queryTimeoutMs)));
  const db = drizzlePg(pool, { schema, ...(logger ? { logger } : {}) }) as unknown as Db;
  let closed = false;
  return {
    kind: 'postgres',
    db,
    async rows<Row>(query: SQL) {
      return ((await db.execute(query)) as unknown as pg.QueryResult<Row & pg.QueryResultRow>).rows;
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
    async withExclusiveLock(fn) {
      // Its own connection, outside the pool and without a query timeout: waiting for another
      // instance's migration may rightly take long, and so may a migration on a big table.
      const client = new pg.Client({ connectionString: url, keepAlive: true });
      client.on('error', () => {});
      await client.connect();
      migrating += 1;
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await fn();
      } finally {
        migrating -= 1;
        // Ending the session releases the advisory lock too, should the unlock not get through.
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
  };
}

type QueryCallback = (error: Error | null, result?: unknown) => void;

/**
 * Makes one pooled connection safe to lose, whatever it is doing when the database goes away:
 * - a checked-out client whose socket dies emits 'error'; without a listener that would crash
 *   the process (the pool listens only while the client is idle);
 * - every query gets the query timeout, and a timed-out connection is ended, so the pool
 *   discards it instead of handing out a connection whose last query never came back;
 * - drizzle's transaction() sends BEGIN before its try/finally, so a failed BEGIN would never
 *   give the client back: after a few such failures the pool would be empty for good and the
 *   service would not come back with the database. The client is released (as broken) here.
 */
function guardClient(client: pg.PoolClient, timeoutMs: () => number): void {
  client.on('error', () => {});
  // pg's query() has many overloads; the guard passes every argument through unchanged but the config.
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const onFailure = (error: unknown) => {
    if (error instanceof Error && /Query read timeout/.test(error.message)) client.end().catch(() => {});
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [first, ...rest] = args;
    // Submittables (COPY streams, cursors) manage their own flow: no timeout.
    if (typeof first === 'object' && first !== null && typeof (first as { submit?: unknown }).submit === 'function') return query(...args);
    const config: pg.QueryConfig & { query_timeout?: number } = typeof first === 'string' ? { text: first } : { ...(first as pg.QueryConfig) };
    const timeout = timeoutMs();
    if (timeout > 0 && config.query_timeout === undefined) config.query_timeout = timeout;
    const last = rest.at(-1);
    if (typeof last === 'function') {
      const callback = last as QueryCallback;
      rest[rest.length - 1] = (error: Error | null, result?: unknown) => {
        if (error) onFailure(error);
        callback(error, result);
      };
      return query(config, ...rest);
    }
    return (query(config, ...rest) as Promise<unknown>).catch((error: unknown) => {
      onFailure(error);
      if (/^\s*begin\b/i.test(config.text)) client.release(error instanceof Error ? error : true);
      throw error;
    });
  };
}
