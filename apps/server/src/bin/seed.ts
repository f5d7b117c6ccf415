import { systemClock } from '@minside/domain';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';

/** `npm run seed`: the demo subscribers into whatever database the configuration names. */
async function seed(): Promise<void> {
  const config = loadConfig();
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const result = await seedDemoData(database, { password: config.demoPassword, now: systemClock });
    // The one line this command exists to print (stderr keeps stdout free for piping).
    console.warn(
      `Demo data seeded into ${database.kind === 'postgres' ? 'PostgreSQL' : config.dataDir}: ` +
        `${result.identityAccountsCreated} login accounts and ${result.usersCreated} users created (existing rows are left as they are).`,
    );
  } finally {
    await database.close();
  }
}

seed().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Seeding failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
