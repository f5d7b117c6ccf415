import { systemClock } from '@minside/domain';
import { parseArgs } from 'node:util';
import { createDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed.ts';
import { seedLarge, SeedLargeRefusal } from '../db/seed-large.ts';
import { hashPassword } from '../identity/provider/password.ts';

const usage = `npm run seed:large -- --subscribers <n> [--append] [--keep-indexes]

Generates <n> realistic subscribers (logins, accounts, subscriptions, addresses, invoices,
periods, change log, vacation stops) into the PostgreSQL database named by DATABASE_URL,
with COPY. Every generated login is abonnent<i>@scale.minside.test with the demo password
(DEMO_PASSWORD, default demo1234). Refuses a database that already has subscribers other
than the demo users, unless --append, which adds <n> more after the generated ones there.
--keep-indexes keeps indexes and foreign keys during the load (slower; for comparison).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { subscribers: { type: 'string' }, append: { type: 'boolean', default: false }, 'keep-indexes': { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.warn(usage);
    return;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new SeedLargeRefusal(`DATABASE_URL is not set: the large seed writes only to PostgreSQL (never to the embedded PGlite).\n\n${usage}`);
  const subscribers = Number(values.subscribers);
  if (!Number.isSafeInteger(subscribers) || subscribers < 1) throw new SeedLargeRefusal(`--subscribers must be a positive whole number.\n\n${usage}`);

  const started = performance.now();
  const database = await createDatabase({ kind: 'postgres', url });
  const password = process.env.DEMO_PASSWORD ?? 'demo1234';
  try {
    await migrate(database);
    // The plans the subscriptions name, and the demo users beside the generated ones.
    await seedDemoData(database, { password, now: systemClock });
  } finally {
    await database.close();
  }
  // One scrypt hash for every generated login: hashing a million would take hours.
  const passwordHash = await hashPassword(password);
  const result = await seedLarge({
    now: systemClock,
    url,
    subscribers,
    append: values.append,
    keepIndexes: values['keep-indexes'],
    passwordHash,
    log: (line) => console.warn(line),
  });
  const total = (performance.now() - started) / 1000;
  console.warn(
    `Seeded ${result.subscribers.toLocaleString('en')} subscribers (numbers ${result.firstIndex}–${result.firstIndex + result.subscribers - 1}) in ${total.toFixed(1)} s ` +
      `(rows ${result.seconds.copy.toFixed(1)} s, indexes and foreign keys ${result.seconds.indexes.toFixed(1)} s, vacuum and analyse ${result.seconds.analyze.toFixed(1)} s). ` +
      `Database size ${(result.databaseBytes / 1024 ** 3).toFixed(2)} GB.`,
  );
  console.warn(
    Object.entries(result.rows)
      .map(([table, count]) => `  ${table}: ${count.toLocaleString('en')}`)
      .join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof SeedLargeRefusal ? error.message : `Large seed failed: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
