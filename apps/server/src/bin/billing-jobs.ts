import { systemClock } from '@minside/domain';
import { parseArgs } from 'node:util';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { loadActiveCatalogue } from '../modules/titles/index.ts';

const usage = 'Usage: npm run billing:jobs -- renewals | reconcile | paylink --invoice <ariaInvoiceNo> [--days 30]';

/**
 * `npm run billing:jobs -- renewals|reconcile`: the billing jobs once, against whatever
 * database the configuration names (a scheduler runs the same; issue 11). `paylink --invoice N`
 * prints a pay-link path for one invoice. Prints a JSON report on stdout.
 */
async function run(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { invoice: { type: 'string' }, days: { type: 'string' } } });
  const [job] = positionals;
  if (job !== 'renewals' && job !== 'reconcile' && job !== 'paylink') throw new ConfigError(usage);
  const config = { ...loadConfig(), webDist: undefined, logLevel: 'warn' };
  if (config.vipps && 'embeddedSimulator' in config.vipps && job !== 'paylink') {
    // A simulator of its own would know none of the server's payments, and its webhook registration would replace the server's.
    throw new ConfigError(
      "The Vipps MobilePay simulator lives inside the running server (npm start), which runs these jobs on its own schedule. Run them against Vipps MobilePay's test environment (PAYMENT_PROVIDER=vipps with VIPPS_BASE_URL=https://apitest.vipps.no and test keys), or with PAYMENT_PROVIDER=test.",
    );
  }
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const { catalogue } = await loadActiveCatalogue(database.db, config.titlesFile);
    const app = await buildApp({ config, database, catalogue, now: systemClock });
    await app.ready();
    try {
      let report: unknown;
      if (job === 'renewals') report = await app.billingJobs.runRenewals();
      else if (job === 'reconcile') report = await app.billingJobs.runReconciliation();
      else {
        const invoiceNo = Number(values.invoice);
        if (!Number.isSafeInteger(invoiceNo) || invoiceNo <= 0) throw new ConfigError(usage);
        report = await app.billing.createPaylink(invoiceNo, values.days ? Number(values.days) : undefined);
      }
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `Billing job failed: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
