import { systemClock } from '@minside/domain';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.ts';
import { gracefulClose } from '../lib/graceful-close.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';
import { loadActiveCatalogue } from '../modules/titles/index.ts';
import { startTelemetry } from '../telemetry.ts';

// The SPA build sits at apps/web/dist: ../../web/dist from the bundle (apps/server/dist/main.js),
// ../../../web/dist from this source file (apps/server/src/bin/server.ts, run through tsx).
function defaultWebDist(): string | undefined {
  for (const relative of ['../../web/dist', '../../../web/dist']) {
    const candidate = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function main(): Promise<void> {
  // Before the app is built, so its requests and queries are traced (OTLP only when configured).
  const telemetry = await startTelemetry();
  const config = loadConfig();
  config.webDist ??= defaultWebDist();
  const database = await createDatabase(databaseOptionsFrom(config));
  await migrate(database);
  // The newest version an operator stored (`admin catalogue import`), else TITLES_FILE or the built-in data (ADR 019).
  const { catalogue, origin: catalogueOrigin } = await loadActiveCatalogue(database.db, config.titlesFile);
  let seeded: { usersCreated: number } | undefined;
  if (config.seedDemoData) {
    seeded = await seedDemoData(database, { password: config.demoPassword, now: systemClock });
  }
  const app = await buildApp({ config, database, catalogue, now: systemClock });
  // Stop without resetting anyone: answer 503 at the door until it is quiet, then stop
  // listening, then let every accepted request finish (lib/graceful-close.ts).
  const closeApp = gracefulClose(app);

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A stuck request must not keep the process from ever stopping.
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await closeApp();
      await database.close();
      await telemetry?.shutdown();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // After listen, so a failing start never leaves a claimed run behind; app.close() (SIGTERM) waits for a run in progress.
  if (config.jobs) app.jobs.start();
  app.log.info(
    {
      storage: database.kind,
      web: config.webDist ?? 'none',
      maintenance: config.maintenance,
      jobs: config.jobs,
      identity: config.oidcIssuer ?? 'embedded at /idp',
      catalogue: catalogueOrigin,
      demoUsersSeeded: seeded?.usersCreated ?? 0,
    },
    `Min Side is serving at http://localhost:${config.port}`,
  );
}

main().catch((error: unknown) => {
  // Before the logger exists: one readable line, then a non-zero exit so supervisors notice.
  const message = error instanceof ConfigError ? error.message : `Failed to start: ${(error as Error)?.stack ?? String(error)}`;
  console.error(message);
  process.exit(1);
});
