import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { addDays, instStatusCodes, osloToday, renewsAtPeriodEnd, type BilledPeriod } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { plan, subscription, subscriptionPeriod } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { PaymentProvider } from '../../integrations/payment/provider.ts';
import type { PaymentEngine } from './engine.ts';
import { createRenewalCollection } from './renewal-collection.ts';
import { qualified } from '../../db/qualified.ts';
import type { BillingService } from './service.ts';
import { type CancelledPeriodCrediting } from './cancelled-periods.ts';
import { registerRenewalMails } from './renewal-mails.ts';
import { createRenewalIssue, renewable } from './renewal-issue.ts';
import { createRenewalPages } from './renewal-pages.ts';
import { createRenewalPayment } from './renewal-payment.ts';

/**
 * The billing jobs (issue 11 schedules them; `npm run billing:jobs` runs them by hand):
 * - renewals: issue the next period's invoice RENEWAL_LEAD_DAYS before the period ends
 *   (one per period: `subscription_period`'s primary key), roll the period over when it
 *   ends (a trial's 1 kr month converting to ACTIVE in the same step), and collect due invoices — charge a stored card / Vipps agreement, leave giro
 *   invoices waiting (their e-mail carries a pay-link); AvtaleGiro invoices go to the bank in
 *   the claim file and are paid only when its OCR file says so (modules/bank, issue 21); first,
 *   the invoices of periods a cancelled subscription will not have are credited (cancelled-periods.ts);
 * - reconciliation: settle PENDING payments at the provider.
 * Every step is safe to run twice or on two instances at once.
 *
 * Its jobs are in files of their own, composed here: how an invoice gets paid (renewal-payment.ts),
 * one period's invoice (renewal-issue.ts), a page of them and the roll-over (renewal-pages.ts,
 * renewal-batch.ts), collecting (renewal-collection.ts) and what the payer is told (renewal-mails.ts).
 */

export const RENEWAL_LEAD_DAYS = 14;

export interface BillingJobDeps {
  db: Db;
  engine: PaymentEngine;
  billing: BillingService;
  provider: PaymentProvider;
  mailer: Mailer;
  catalogue: Catalogue;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The portal origin of a title, for links in e-mails. */
  portalOrigin: (titleCode: string) => string;
  /** Credits the invoices of periods after a cancelled subscription's access ends (ADR 026). */
  cancelledPeriods: CancelledPeriodCrediting;
}

export interface RenewalReport {
  /** Invoices of periods after a cancelled subscription's access ends, credited by this run. */
  invoicesCredited: number;
  invoicesIssued: number;
  periodsRolled: number;
  charged: number;
}

/** The steps of a renewal run, each reported when a page of it has committed. */
type RenewalStep = 'credit' | 'issue' | 'roll' | 'collect';

export interface RenewalRunOptions {
  /**
   * Called after each page a step has committed: a benchmark times the steps by it, a test stops a
   * run there (a crash between pages, then a run again bills no period twice).
   */
  onBatch?: (step: RenewalStep) => void | Promise<void>;
  /** Subscriptions a page holds (RENEWAL_PAGE_SIZE): a test makes several pages of a few hundred. */
  pageSize?: number;
}

/** Subscriptions a renewal page holds: one transaction's worth (its invoices, documents and e-mails). */
const RENEWAL_PAGE_SIZE = 500;

export function createBillingJobs(deps: BillingJobDeps) {
  const { db, engine, provider, now, log, cancelledPeriods } = deps;
  const { chargeableAgreement, mailInvoiceToPay, payUrl, paymentOf } = createRenewalPayment(deps);
  const { collect } = createRenewalCollection({ ...deps, chargeableAgreement, mailInvoiceToPay });
  registerRenewalMails({ ...deps, mailInvoiceToPay });
  const { issueIn } = createRenewalIssue({ ...deps, mailInvoiceToPay });
  const { issuePage, rollPage } = createRenewalPages({ ...deps, issueIn, payUrl });

  return {
    /**
     * Bills the period of the subscription starting `periodFrom` now, in the caller's transaction —
     * a reactivation's first period (ADR 006) — exactly as the renewal run bills every other one; the
     * run then finds the period claimed and bills it no second time. Money moves later, by `collect`
     * (card, Vipps), the claim file (AvtaleGiro) or the payer (the invoice e-mail). Null when the
     * subscription does not renew or the period has its invoice already.
     */
    async billPeriod(tx: Tx, subscriptionId: string, periodFrom: string): Promise<BilledPeriod | null> {
      const issued = await issueIn(tx, subscriptionId, periodFrom, osloToday(now()));
      if (!issued) return null;
      return { ariaInvoiceNo: issued.ariaInvoiceNo, amountOre: issued.openOre, periodFrom, periodTo: issued.periodTo, dueOn: issued.dueOn, payment: await paymentOf(tx, issued) };
    },

    async runRenewals(options: RenewalRunOptions = {}): Promise<RenewalReport> {
      const today = osloToday(now());
      const onBatch = options.onBatch ?? (() => {});
      const report: RenewalReport = { invoicesCredited: 0, invoicesIssued: 0, periodsRolled: 0, charged: 0 };
      // First what cancellations left open (a provider that did not answer, a crash after the commit): before anything is charged.
      report.invoicesCredited = (
        await cancelledPeriods.sweep({ onPage: () => onBatch('credit') }).catch((error: unknown) => {
          log.error({ err: error }, 'crediting the invoices of cancelled periods failed; tried again on the next run');
          return { credited: 0 };
        })
      ).credited;
      // The plans, once a run: a page's prices are decided from them (the plan table is a catalogue of a few dozen rows).
      const plans = new Map((await db.select().from(plan)).map((row) => [row.ariaPlanId, row]));
      const horizon = addDays(today, RENEWAL_LEAD_DAYS);
      // The candidates a page at a time, in key order: memory holds one page however many subscriptions there are,
      // and a run stopped halfway (a crash, a deploy) is simply run again: every write below is once per period.
      for (let after = ''; ;) {
        const page = await db
          .select()
          .from(subscription)
          .where(
            and(
              // The rows renewsAtPeriodEnd may take: ACTIVE, and TRIAL (the 1 kr month converts when it ends).
              inArray(subscription.instStatusCode, [instStatusCodes.ACTIVE, instStatusCodes.TRIAL]),
              isNull(subscription.sharedFromSubscriptionId),
              gt(subscription.priceOre, 0),
              lte(subscription.currentPeriodEnd, horizon),
              gt(subscription.id, after),
              // With work left: a period begun (rolled over today), or one not billed yet. The periods billed on
              // earlier nights (most of those ending inside the lead) are passed over by one index probe each.
              or(
                lte(subscription.currentPeriodEnd, today),
                sql`not exists (select 1 from ${subscriptionPeriod} p where p.subscription_id = ${qualified(subscription.id)} and p.period_from = ${qualified(subscription.currentPeriodEnd)})`,
              ),
            ),
          )
          .orderBy(asc(subscription.id))
          .limit(options.pageSize ?? RENEWAL_PAGE_SIZE);
        if (page.length === 0) break;
        after = (page.at(-1) as typeof subscription.$inferSelect).id;
        const current: (typeof subscription.$inferSelect)[] = [];
        for (const candidate of page) {
          if (!renewsAtPeriodEnd(renewable(candidate))) continue;
          if (candidate.instStatusCode === instStatusCodes.TRIAL && candidate.currentPeriodEnd < today) {
            // A trial whose end passed unbilled (before trials converted at all, or while no run came)
            // converts from today: the subscriber is never billed back for the months in between.
            try {
              const moved = await db
                .update(subscription)
                .set({ currentPeriodEnd: today })
                .where(and(eq(subscription.id, candidate.id), eq(subscription.currentPeriodEnd, candidate.currentPeriodEnd), eq(subscription.instStatusCode, instStatusCodes.TRIAL)))
                .returning({ id: subscription.id });
              if (moved.length > 0) current.push({ ...candidate, currentPeriodEnd: today });
            } catch (error) {
              log.error({ err: error, subscriptionId: candidate.id }, 'renewal of a subscription failed');
            }
          } else current.push(candidate);
        }
        // The current period's invoice (RENEWAL_LEAD_DAYS ahead), then the periods that have begun rolled over,
        // then the next period's invoice of those whose new period ends inside the lead as well.
        const first = await issuePage(
          current.map((row) => ({ row, periodFrom: row.currentPeriodEnd })),
          today,
          plans,
        );
        report.invoicesIssued += first.issued;
        await onBatch('issue');
        const begun = current.filter((row) => row.currentPeriodEnd <= today && !first.failed.has(row.id));
        if (begun.length === 0) continue;
        const rolled = await rollPage(begun, plans);
        report.periodsRolled += rolled.length;
        await onBatch('roll');
        const next = rolled.filter(({ next }) => next <= horizon).map(({ row, next }) => ({ row, periodFrom: next }));
        if (next.length === 0) continue;
        report.invoicesIssued += (await issuePage(next, today, plans)).issued;
        await onBatch('issue');
      }
      const collected = await collect(today, onBatch);
      report.charged = collected.charged;
      return report;
    },

    async runReconciliation(): Promise<{ examined: number; settled: number }> {
      // The provider's own upkeep first (Vipps MobilePay: its webhook registration, if start-up could not make it); look-ups go on without it.
      await provider.maintain?.().catch((error: unknown) => log.error({ err: error }, 'payment provider upkeep failed; tried again on the next reconciliation'));
      return engine.reconcile();
    },
  };
}

export type BillingJobs = ReturnType<typeof createBillingJobs>;
