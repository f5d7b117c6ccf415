import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

/**
 * `npm run migrate` and the Kubernetes migration Job: applies the pending SQL migrations and
 * exits, so a release can migrate once, visibly, before its pods roll out. The server still
 * migrates at start (a no-op then), under the same advisory lock.
 */
async function migrateOnly(): Promise<void> {
  // Migrations move no money: production needs no payment provider for them (config.ts).
  const config = loadConfig(process.env, { purpose: 'migrate' });
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    // stderr keeps stdout free, as in the other command-line entries.
    console.warn(`Migrations applied to ${database.kind === 'postgres' ? 'PostgreSQL' : config.dataDir}.`);
  } finally {
    await database.close();
  }
}

migrateOnly().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
