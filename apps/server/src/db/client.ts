import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
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
  | { kind: 'postgres'; url: string }
  /** dataDir undefined keeps the database in memory (tests). */
  | { kind: 'pglite'; dataDir: string | undefined };

export function databaseOptionsFrom(config: { databaseUrl: string | undefined; dataDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: path.resolve(config.dataDir, 'pgdata') };
}

// Arbitrary constant shared by every instance: the advisory lock key for migrations.
const MIGRATION_LOCK_KEY = 4_711_2026;

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') return createPostgres(options.url);
  return createPglite(options.dataDir);
}

async function createPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
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

async function createPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool discards it and the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
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
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
  };
}
