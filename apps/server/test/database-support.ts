import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { createDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import './database-global-support.ts';

// What buildTestApp starts from: a copy of a database this run migrated once
// (database-global-support.ts makes the run's folder and PostgreSQL template). An empty PGlite
// costs an initdb and all migrations, seconds of CPU for each of the many test apps; a copy
// of the migrated cluster starts in a fraction of that. buildTestApp still runs `migrate` on
// the copy (finding nothing to do), as a server does at every start.

/** The run's templates; none when the server project runs without its global setup. */
function templates() {
  try {
    return inject('databaseTemplates');
  } catch {
    return undefined;
  }
}

/** The PostgreSQL template database of this run, when there is one. */
export function postgresTemplate(): string | undefined {
  return templates()?.postgres;
}

let pglite: Promise<Blob | undefined> | undefined;

/**
 * The dump of a migrated in-memory PGlite cluster, made once per run and clock (the date sweep
 * fakes the clock per run: FAKETIME), shared by the workers through a file. Undefined when
 * there is no run folder or making it failed: then each test app starts from an empty cluster
 * and shows any migration error itself.
 */
export function pgliteTemplate(): Promise<Blob | undefined> {
  pglite ??= (async () => {
    const dir = templates()?.dir;
    if (!dir || !existsSync(dir)) return undefined;
    const clock = createHash('sha256')
      .update(process.env.FAKETIME ?? 'real')
      .digest('hex')
      .slice(0, 12);
    try {
      return new Blob([await sharedFile(path.join(dir, `pglite-${clock}.tar`), dumpMigratedPglite)]);
    } catch {
      return undefined;
    }
  })();
  return pglite;
}

async function dumpMigratedPglite(): Promise<Uint8Array> {
  const database = await createDatabase({ kind: 'pglite', dataDir: undefined });
  try {
    await migrate(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    return new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
  } finally {
    await database.close();
  }
}

/**
 * The contents of `file`, made by `make` in the first worker to ask; a lock file holding its
 * process id keeps the others waiting instead of making it too. A lock whose process is gone is
 * taken over. (No clock in this: the date sweep fakes it.)
 */
async function sharedFile(file: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return readFileSync(file);
    let descriptor: number | undefined;
    try {
      descriptor = openSync(lock, 'wx');
    } catch {
      const owner = lockOwner(lock);
      if (owner !== undefined && !isAlive(owner)) rmSync(lock, { force: true });
      else if (owner !== undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    try {
      writeFileSync(descriptor, String(process.pid));
      closeSync(descriptor);
      const contents = await make();
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, contents);
      renameSync(partial, file);
      return contents;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

/** The process id in a lock; 0 while it is being written, undefined when it is gone. */
function lockOwner(lock: string): number | undefined {
  try {
    return Number(readFileSync(lock, 'utf8'));
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (pid === 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
