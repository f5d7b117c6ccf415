import { buildApp } from './app.ts';
import { AdminInputError, adminCommands, adminUsage } from './admin/commands.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, databaseOptionsFrom } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { loadCatalogue } from './modules/titles/catalogue-source.ts';

/** `npm run admin -- <command>`: the operator commands of admin/commands.ts, against the configured database. */
async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? adminCommands[name] : undefined;
  if (!command) throw new AdminInputError(`${name ? `Unknown command ${name}.\n` : ''}${adminUsage()}`);
  const config = { ...loadConfig(), webDist: undefined, logLevel: 'warn', jobs: false };
  const catalogue = loadCatalogue(config.titlesFile);
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const now = () => new Date();
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

main().catch((error: unknown) => {
  const known = error instanceof AdminInputError || error instanceof ConfigError;
  console.error(known ? (error as Error).message : `Admin command failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
