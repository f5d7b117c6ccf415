import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadActiveCatalogue, loadCatalogueFile } from '../modules/titles/index.ts';
import { isDatabaseUnavailable, rootMessage } from '../lib/pg-errors.ts';
import { AdminInputError } from './args.ts';
import { adminCommands, adminUsage } from './commands.ts';
import { systemClock } from '@minside/domain';

/**
 * Runs one operator command (`argv` = command name and its arguments) against the configured
 * database, with the app built as the server builds it, and exits non-zero on bad input.
 */
export function runAdminCli(argv: string[]): void {
  run(argv).catch((error: unknown) => {
    const known = error instanceof AdminInputError || error instanceof ConfigError;
    if (known) console.error((error as Error).message);
    // The database went away (restarted, cut off): no bug to trace, and the commands are made to be run again.
    else if (isDatabaseUnavailable(error))
      console.error(`Admin command stopped: the database connection was lost (${rootMessage(error)}). What was committed stays; run the command again and it goes on from there.`);
    else console.error(`Admin command failed: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  });
}

async function run(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  const command = name ? adminCommands[name] : undefined;
  if (!command) throw new AdminInputError(`${name ? `Unknown command ${name}.\n` : ''}${adminUsage()}`);
  const loaded = loadConfig();
  // The operator's commands move no money; a Vipps MobilePay simulator of their own would know none of
  // the server's payments and would replace its webhook registration: none is started (payment calls answer 503).
  const embedded = loaded.vipps !== undefined && 'embeddedSimulator' in loaded.vipps;
  const config = { ...loaded, ...(embedded ? { paymentProvider: undefined, vipps: undefined } : {}), webDist: undefined, logLevel: 'warn', jobs: false };
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    // The catalogue the servers start with; a stored version they would refuse must not lock out the import that fixes it.
    const { catalogue } = await loadActiveCatalogue(database.db, config.titlesFile).catch((error: unknown) => {
      if (name !== 'catalogue' || !(error instanceof ConfigError)) throw error;
      console.error(`${error.message}\nUsing ${loadCatalogueFile(config.titlesFile).origin} for this command.`);
      return loadCatalogueFile(config.titlesFile);
    });
    const now = systemClock;
    const app = await buildApp({ config, database, catalogue, now });
    await app.ready();
    try {
      const code = await command.run(
        {
          app,
          db: database.db,
          config,
          catalogue,
          now,
          print: (line) => process.stdout.write(`${line}\n`),
          write: (text) => process.stdout.write(text),
        },
        args,
      );
      if (code) process.exitCode = code;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
