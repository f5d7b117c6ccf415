import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { systemClock, type Clock } from '@minside/domain';
import { defaultCatalogue, type Catalogue } from '@minside/titles';
import { buildApp } from '../src/app.ts';
import { testConfig, type Config } from '../src/config.ts';
import { createDatabase, type Database, type DatabaseOptions } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { pgliteTemplate, postgresTemplate } from './database-support.ts';

export const DEMO_PASSWORD = 'demo1234';

/**
 * The databases every server test runs on: embedded PGlite always, and a real PostgreSQL
 * server too when TEST_DATABASE_URL is set (CI sets it). Use with `describe.each`.
 */
export const testDatabases: { name: 'pglite' | 'postgres' }[] = [{ name: 'pglite' }, ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres' as const }] : [])];

export interface ScratchDatabase {
  options: DatabaseOptions;
  /** Drops what was created for the test. */
  dispose(): Promise<void>;
}

/**
 * A fresh database: in-memory PGlite, or a new database on the PostgreSQL server. Empty, or
 * with `migrated` a copy of the run's migrated database when there is one (database-support.ts).
 */
export async function createScratchDatabase(kind: 'pglite' | 'postgres', { migrated = false } = {}): Promise<ScratchDatabase> {
  if (kind === 'pglite') {
    const loadDataDir = migrated ? await pgliteTemplate() : undefined;
    return { options: { kind: 'pglite', dataDir: undefined, ...(loadDataDir ? { loadDataDir } : {}) }, dispose: async () => {} };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `minside_test_${randomBytes(6).toString('hex')}`;
  const template = migrated ? postgresTemplate() : undefined;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    options: { kind: 'postgres', url: url.toString() },
    async dispose() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** A migrated database and the app built on it, as `bin/server.ts` builds it, without listening. */
export async function buildTestApp(kind: 'pglite' | 'postgres', options: { config?: Partial<Config>; catalogue?: Catalogue; seed?: boolean; now?: Clock } = {}): Promise<TestApp> {
  const scratch = await createScratchDatabase(kind, { migrated: true });
  const database = await createDatabase(scratch.options);
  await migrate(database);
  // The seed and the app read one clock, so seeded dates and the app's "today" always agree.
  const now = options.now ?? systemClock;
  if (options.seed) await seedDemoData(database, { password: DEMO_PASSWORD, now });
  const config = testConfig(options.config);
  const app = await buildApp({ config, database, catalogue: options.catalogue ?? defaultCatalogue, now });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await scratch.dispose();
    },
  };
}
