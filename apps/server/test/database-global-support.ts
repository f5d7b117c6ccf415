import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

// The server project's global setup: one migrated database per run for buildTestApp to copy
// (database-support.ts), instead of every test app migrating an empty one. PostgreSQL's is made
// here, once, as a template database (a copy is a file copy on the server). PGlite's is made by
// the first worker that needs one, under that worker's clock: in the date sweep that clock is
// faked, and the copy should come from a cluster made on the same (faked) day as a fresh one would.

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: { dir: string; postgres: string | undefined };
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'minside-test-templates-'));
  const serverUrl = process.env.TEST_DATABASE_URL;
  let postgres = serverUrl ? `minside_template_${randomBytes(6).toString('hex')}` : undefined;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  if (serverUrl && postgres) {
    const name = postgres;
    try {
      await admin(`create database ${name}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
      const database = await createDatabase({ kind: 'postgres', url: url.toString() });
      try {
        await migrate(database);
      } finally {
        await database.close();
      }
    } catch (error) {
      // No template, no shortcut: each test app then migrates its own database and the tests
      // fail one by one with the migration's error, while every other project still runs.
      console.error(`No PostgreSQL template database (${(error as Error).message}); each test app migrates its own.`);
      await admin(`drop database if exists ${name} with (force)`).catch(() => {});
      postgres = undefined;
    }
  }
  project.provide('databaseTemplates', { dir, postgres });
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgres) await admin(`drop database if exists ${postgres} with (force)`);
  };
}
