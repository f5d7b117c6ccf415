import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, databaseOptionsFrom } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { loadCatalogue } from './modules/titles/catalogue-source.ts';

/** One operator command: it gets the built app (jobs not scheduled) and its arguments, and prints. */
interface AdminCommand {
  usage: string;
  summary: string;
  run(app: FastifyInstance, args: string[]): Promise<void>;
}

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/**
 * The operator commands (issue 11 item 5). Add a command here: it runs against whatever
 * database the configuration names, with the whole app built as the server builds it, so it
 * uses the same services and rules as the API.
 */
const commands: Record<string, AdminCommand> = {
  jobs: {
    usage: 'jobs [--json]',
    summary: 'List the scheduled jobs with their schedule and last run',
    async run(app, args) {
      const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
      const jobs = await app.jobs.status();
      if (values.json) {
        print(JSON.stringify({ jobs }));
        return;
      }
      for (const job of jobs) {
        const last = job.lastRun;
        const lastText = last
          ? `${last.outcome}${job.running ? ' (running)' : ''} at ${last.startedAt}${last.durationMs === null ? '' : ` in ${last.durationMs} ms`} on ${last.instance}${last.error ? ` — ${last.error}` : ''}`
          : 'never run';
        print(`${job.name.padEnd(24)} ${job.schedule.padEnd(28)} next ${job.nextRunAt}  last: ${lastText}`);
      }
    },
  },
  'run-job': {
    usage: 'run-job <name>',
    summary: 'Run one job now (claimed like a scheduled run: refused while it runs elsewhere)',
    async run(app, args) {
      const [name] = args;
      if (!name) throw new ConfigError(`Usage: npm run admin -- run-job <name>\nJobs: ${app.jobs.jobs.map((job) => job.name).join(', ')}`);
      const run = await app.jobs.runNow(name);
      print(JSON.stringify(run));
      if (run.outcome !== 'succeeded') process.exitCode = 1;
    },
  },
};

function usage(): string {
  return ['Usage: npm run admin -- <command>', ...Object.values(commands).map((command) => `  ${command.usage.padEnd(20)} ${command.summary}`)].join('\n');
}

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) throw new ConfigError(usage());
  const config = { ...loadConfig(), webDist: undefined, logLevel: 'warn', jobs: false };
  const catalogue = loadCatalogue(config.titlesFile);
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const app = await buildApp({ config, database, catalogue });
    await app.ready();
    try {
      await command.run(app, args);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || (error instanceof Error && error.name === 'AppError');
  console.error(known ? (error as Error).message : `Admin command failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
