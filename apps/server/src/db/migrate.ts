import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Database, Schema } from './client.ts';

/**
 * The committed SQL migrations. In the source tree they sit beside this file; the server
 * bundle copies them next to dist/main.js, which is where import.meta.url points then.
 */
function migrationsFolder(): string {
  for (const candidate of ['./migrations', './db/migrations']) {
    const folder = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(folder)) return folder;
  }
  throw new Error('SQL migrations folder not found next to the server code');
}

class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies every pending migration, or throws: a server never starts on a half-migrated schema. */
export async function migrate(database: Database): Promise<void> {
  const folder = migrationsFolder();
  try {
    await database.withExclusiveLock(async () => {
      if (database.kind === 'pglite') {
        await migratePglite(database.db as unknown as PgliteDatabase<Schema>, { migrationsFolder: folder });
      } else {
        await migratePg(database.db as unknown as NodePgDatabase<Schema>, { migrationsFolder: folder });
      }
    });
  } catch (error) {
    throw new MigrationError(`Database migration failed: ${(error as Error).message}`, { cause: error });
  }
}
