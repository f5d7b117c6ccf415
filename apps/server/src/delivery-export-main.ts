import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { carrierFeedQuerySchema, toCsv } from '@minside/domain';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, databaseOptionsFrom } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { carrierFeed } from './modules/delivery/feed.ts';
import { loadCatalogue } from './modules/titles/catalogue-source.ts';

/**
 * `npm run delivery:export -- --title ADR --date 2026-12-01 [--out file.csv]`: the carrier feed
 * of one title and publication day as CSV (docs/delivery-feed.md), from whatever database the
 * configuration names. Stdout unless --out is given.
 */
async function exportFeed(): Promise<void> {
  const { values } = parseArgs({ options: { title: { type: 'string' }, date: { type: 'string' }, out: { type: 'string' } } });
  const query = carrierFeedQuerySchema.safeParse({ title: values.title, date: values.date });
  if (!query.success) {
    throw new ConfigError('Usage: npm run delivery:export -- --title ADR --date 2026-12-01 [--out feed.csv]');
  }
  const config = loadConfig();
  const catalogue = loadCatalogue(config.titlesFile);
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const rows = await carrierFeed({ db: database.db, catalogue, cutoffTime: config.deliveryCutoffTime }, query.data.title, query.data.date);
    const csv = toCsv(rows);
    if (values.out) {
      writeFileSync(values.out, csv);
      console.warn(`${rows.length} rows for ${query.data.title.toUpperCase()} on ${query.data.date} written to ${values.out}`);
    } else {
      process.stdout.write(csv);
    }
  } finally {
    await database.close();
  }
}

exportFeed().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Export failed: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
