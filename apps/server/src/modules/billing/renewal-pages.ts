import { asc, inArray, sql } from 'drizzle-orm';
import { addMonths, renewsAtPeriodEnd } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { creditSetOff, subscription, subscriptionDiscount } from '../../db/schema.ts';
import type { BillingJobDeps } from './jobs.ts';
import { claimPeriods, insertRenewalInvoices, invoicesMadeElsewhere, linkPeriods, planIdFor, priceFrom, rollPeriods, type PeriodToRoll, type PlannedPeriod, type PlanRow } from './renewal-batch.ts';
import { renewable, type RenewalIssue } from './renewal-issue.ts';

// The nightly run's pages (ADR 033): a page's invoices and a page's roll-over, each in one
// transaction of a few statements (renewal-batch.ts), the rows the page form cannot decide through
// issueIn; a page that fails is done again one subscription at a time, so one bad row holds up no
// other. Apart from jobs.ts, which walks the pages and reports.

export function createRenewalPages(
  deps: Pick<BillingJobDeps, 'db' | 'provider' | 'mailer' | 'catalogue' | 'now' | 'log'> & {
    issueIn: RenewalIssue['issueIn'];
    payUrl: (row: typeof subscription.$inferSelect, invoiceNo: number) => string;
  },
) {
  const { db, provider, mailer, catalogue, now, log, issueIn, payUrl } = deps;

  /** The renewal run's: the period's invoice in a transaction of its own. Returns its number, or null if none was issued. */
  async function issueFor(subscriptionId: string, periodFrom: string, today: string): Promise<number | null> {
    return (await db.transaction((tx) => issueIn(tx, subscriptionId, periodFrom, today)))?.ariaInvoiceNo ?? null;
  }

  /**
   * The renewal run's invoices for a page of periods, in one transaction: the common case (no
   * discount, no waiting credit) in a few statements for the whole page (renewal-batch.ts), the
   * rest through issueIn. Should the page fail, it is issued again one subscription at a time, so
   * one subscription's failure holds up no other; `failed` names those that failed then.
   */
  async function issuePage(periods: { row: typeof subscription.$inferSelect; periodFrom: string }[], today: string, plans: Map<string, PlanRow>): Promise<{ issued: number; failed: Set<string> }> {
    const failed = new Set<string>();
    if (periods.length === 0) return { issued: 0, failed };
    try {
      return { issued: await db.transaction((tx) => issueAll(tx, periods, today, plans)), failed };
    } catch (error) {
      log.warn({ err: error, subscriptions: periods.length }, 'a page of renewal invoices failed; issuing them one subscription at a time');
      let issued = 0;
      for (const { row, periodFrom } of periods) {
        try {
          if ((await issueFor(row.id, periodFrom, today)) !== null) issued += 1;
        } catch (rowError) {
          failed.add(row.id);
          log.error({ err: rowError, subscriptionId: row.id }, 'renewal of a subscription failed');
        }
      }
      return { issued, failed };
    }
  }

  async function issueAll(tx: Tx, periods: { row: typeof subscription.$inferSelect; periodFrom: string }[], today: string, plans: Map<string, PlanRow>): Promise<number> {
    const at = now();
    const ids = periods.map(({ row }) => row.id);
    // Read again under the row lock a cancellation takes, as issueIn does; in key order, so two runs at once lock alike.
    const locked = new Map((await tx.select().from(subscription).where(inArray(subscription.id, ids)).orderBy(asc(subscription.id)).for('share')).map((row) => [row.id, row]));
    // A discount or a credit waiting for "neste faktura" changes what is due: those few go through issueIn.
    const listed = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const { rows: special } = (await tx.execute(sql`
      select subscription_id as id from ${subscriptionDiscount} where subscription_id in (${listed}) and remaining_periods > 0
      union select subscription_id from ${creditSetOff} where subscription_id in (${listed}) and aria_invoice_no is null and handed_over_at is null`)) as unknown as { rows: { id: string }[] };
    const setOff = new Set(special.map((row) => row.id));
    let issued = 0;
    const plain: PlannedPeriod[] = [];
    for (const { row: read, periodFrom } of periods) {
      const row = locked.get(read.id);
      if (!row || !renewsAtPeriodEnd(renewable(row))) continue;
      const title = catalogue.findByTitleCode(row.titleCode);
      if (!title) {
        log.error({ subscriptionId: row.id, titleCode: row.titleCode }, 'no catalogue entry for the title: no invoice issued');
        continue;
      }
      const price = priceFrom(plans.get(planIdFor(row, periodFrom)), row, periodFrom);
      if (setOff.has(row.id) || price.amountOre <= 0) {
        if (await issueIn(tx, row.id, periodFrom, today)) issued += 1;
      } else plain.push({ row, title, periodFrom, price });
    }
    const claimed = await claimPeriods(tx, plain, at);
    const elsewhere = await invoicesMadeElsewhere(tx, claimed);
    const made = await insertRenewalInvoices(
      tx,
      { catalogue, providerName: provider.name, enqueue: (executor, mail) => mailer.enqueue(executor, mail), payUrl },
      claimed.filter(({ row }) => !elsewhere.has(row.id)),
      today,
      at,
    );
    const found = claimed.flatMap(({ row, periodFrom }) => {
      const no = elsewhere.get(row.id);
      return no === undefined ? [] : [{ subscriptionId: row.id, periodFrom, ariaInvoiceNo: no }];
    });
    await linkPeriods(tx, [...found, ...made]);
    return issued + made.length;
  }

  /** Rolls a page's begun periods over in one transaction; should it fail, one subscription at a time (a failure logged and skipped). */
  async function rollPage(rows: (typeof subscription.$inferSelect)[], plans: Map<string, PlanRow>): Promise<PeriodToRoll[]> {
    const periods = rows.map((row) => {
      const price = priceFrom(plans.get(planIdFor(row, row.currentPeriodEnd)), row, row.currentPeriodEnd);
      return { row, price, next: addMonths(row.currentPeriodEnd, price.months) };
    });
    try {
      return await db.transaction((tx) => rollPeriods(tx, periods, now()));
    } catch (error) {
      log.warn({ err: error, subscriptions: periods.length }, 'rolling a page of periods over failed; rolling them one subscription at a time');
      const rolled: PeriodToRoll[] = [];
      for (const period of periods) {
        try {
          rolled.push(...(await db.transaction((tx) => rollPeriods(tx, [period], now()))));
        } catch (rowError) {
          log.error({ err: rowError, subscriptionId: period.row.id }, 'renewal of a subscription failed');
        }
      }
      return rolled;
    }
  }

  return { issuePage, rollPage };
}
