import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { addDays, addMonths, instStatusCodes, invoiceLineDescription, osloToday, renewsAtPeriodEnd, type BilledPeriod, type RenewableSubscription } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, billingDocument, creditSetOff, discountCode, invoice, invoiceCredit, paymentAgreement, plan, subscription, subscriptionDiscount, subscriptionPeriod } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { PaymentProvider } from '../../integrations/payment/provider.ts';
import type { PaymentEngine } from './engine.ts';
import { insertInvoice } from './issue-invoice.ts';
import { createRenewalCollection } from './renewal-collection.ts';
import { qualified } from '../../db/qualified.ts';
import { creditedOreColumn } from './paid-so-far.ts';
import type { BillingService } from './service.ts';
import { type CancelledPeriodCrediting } from './cancelled-periods.ts';
import { howToPayFor, invoiceIssuedMail, registerRenewalMails } from './renewal-mails.ts';
import { claimPeriods, insertRenewalInvoices, invoiceDueOn, invoicesMadeElsewhere, linkPeriods, planIdFor, priceFrom, rollPeriods, type PeriodPrice, type PeriodToRoll, type PlannedPeriod, type PlanRow } from './renewal-batch.ts';

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


/** What the renewal rule (`renewsAtPeriodEnd`) reads of a stored subscription. */
function renewable(row: typeof subscription.$inferSelect): RenewableSubscription {
  return {
    ariaPlanID: row.ariaPlanId,
    planProductType: row.planProductType,
    eligibleForSharing: row.eligibleForSharing,
    instStatusCode: row.instStatusCode,
    subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: row.subscriptionInfo1 },
    priceOre: row.priceOre,
    sharedFrom: row.sharedFromSubscriptionId,
  };
}

/** A period's invoice as `issueIn` made it: for the owner's subscription as it was read under its lock. */
interface IssuedPeriod {
  row: typeof subscription.$inferSelect;
  ariaInvoiceNo: number;
  /** What is left to pay after a waiting credit was set off against it (0: a 100 % discount, or a credit covering it). */
  openOre: number;
  periodTo: string;
  dueOn: string;
}

export function createBillingJobs(deps: BillingJobDeps) {
  const { db, engine, billing, provider, mailer, catalogue, now, log, portalOrigin, cancelledPeriods } = deps;
  // Hoisted function declarations below: the collection step charges with them.
  const { collect } = createRenewalCollection({ ...deps, chargeableAgreement, mailInvoiceToPay });
  registerRenewalMails({ ...deps, mailInvoiceToPay });

  async function priceFor(executor: Db | Tx, row: typeof subscription.$inferSelect, periodFrom: string): Promise<PeriodPrice> {
    const [found] = await executor.select().from(plan).where(eq(plan.ariaPlanId, planIdFor(row, periodFrom)));
    return priceFrom(found, row, periodFrom);
  }

  /** The subscription's ACTIVE stored agreement for its method that this provider can charge (a card, a Vipps agreement), if any. */
  async function chargeableAgreement(executor: Db | Tx, subscriptionId: string, method: string) {
    const [agreement] = await executor
      .select()
      .from(paymentAgreement)
      // Only an agreement this provider made: another provider's card or agreement id means nothing to it.
      .where(and(eq(paymentAgreement.subscriptionId, subscriptionId), eq(paymentAgreement.status, 'ACTIVE'), eq(paymentAgreement.method, method === 'CARD' ? 'SWEDBANK-PPG' : method), eq(paymentAgreement.provider, provider.name)));
    return agreement;
  }

  /**
   * The invoice e-mail (KID, account, a pay-link) to the owner, once per invoice, whenever the
   * payer has to act or should know: giro and AvtaleGiro always; a card or Vipps subscription
   * when nothing stored can be charged (an order paid by a card the provider keeps no copy of,
   * an agreement stopped in the Vipps app). A charged invoice needs no e-mail: it is paid.
   */
  async function mailInvoiceToPay(tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number): Promise<void> {
    const title = catalogue.findByTitleCode(row.titleCode);
    const [found] = await tx.select({ issued: invoice, setOffOre: creditedOreColumn }).from(invoice).where(eq(invoice.ariaInvoiceNo, invoiceNo));
    const issued = found?.issued;
    if (!title || !found || !issued || issued.paidAt || issued.amountOre <= 0) return;
    const howToPay = howToPayFor(row.paymentMethod, {
      // AvtaleGiro draws only on a mandate the bank has confirmed; until then the invoice is the payer's to pay.
      mandate:
        row.paymentMethod === 'AVTALEGIRO' &&
        (await tx.select({ id: paymentAgreement.id }).from(paymentAgreement).where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE')))).length > 0,
      chargeable: (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') && Boolean(await chargeableAgreement(tx, row.id, row.paymentMethod)),
    });
    if (howToPay === null) return;
    const [owner] = await tx.select({ email: appUser.email, givenName: appUser.givenName }).from(account).innerJoin(appUser, eq(appUser.id, account.userId)).where(eq(account.ariaAccountNo, row.ariaAccountNo));
    if (!owner) return;
    await mailer.enqueue(tx, invoiceIssuedMail(title, issued, Number(found.setOffOre), howToPay, owner, payUrl(row, invoiceNo)));
  }

  const payUrl = (row: typeof subscription.$inferSelect, invoiceNo: number) => `${portalOrigin(row.titleCode)}${billing.paylinkPath(invoiceNo).path}`;

  /**
   * Issues the invoice for the period starting at `periodFrom`, once, in the caller's transaction:
   * the one place a period's invoice is made — the renewal run's, and a reactivation's first period
   * (ADR 006). Null when the subscription does not renew (`renewsAtPeriodEnd`: cancelled, ended, a
   * share, no price) or the period has its invoice already.
   */
  async function issueIn(tx: Tx, subscriptionId: string, periodFrom: string, today: string): Promise<IssuedPeriod | null> {
    // Read under the row lock a cancellation takes: one that committed since the run read its candidates
    // (and credited the period's invoice, letting go of its claim) gets no new one.
    const [row] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId)).for('share');
    if (!row || !renewsAtPeriodEnd(renewable(row))) return null;
    const title = catalogue.findByTitleCode(row.titleCode);
    if (!title) {
      log.error({ subscriptionId, titleCode: row.titleCode }, 'no catalogue entry for the title: no invoice issued');
      return null;
    }
    const price = await priceFor(tx, row, periodFrom);
    const periodTo = addDays(addMonths(periodFrom, price.months), -1);
    const [claimed] = await tx
      .insert(subscriptionPeriod)
      .values({ subscriptionId, periodFrom, ariaInvoiceNo: null, createdAt: now() })
      .onConflictDoNothing()
      .returning();
    if (!claimed) return null;
    // An invoice for this period made elsewhere (seed, an order) counts as the renewal — unless a
    // credit note took all of it back (a cancellation since undone): the period is billed again.
    const [existing] = await tx
      .select({ no: invoice.ariaInvoiceNo })
      .from(invoice)
      .where(
        and(
          // The account first: invoice_account_idx (account, period) finds it; by the subscription alone it is a scan of every invoice.
          eq(invoice.ariaAccountNo, row.ariaAccountNo),
          eq(invoice.periodFrom, periodFrom),
          eq(invoice.subscriptionId, subscriptionId),
          sql`not exists (select 1 from ${billingDocument} d where d.aria_invoice_no = ${qualified(invoice.ariaInvoiceNo)} and d.kind = 'CREDIT_NOTE' and (d.source like 'cancel:%' or d.source like 'refund:%'))`,
        ),
      );
    if (existing) {
      await tx.update(subscriptionPeriod).set({ ariaInvoiceNo: existing.no }).where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));
      return null;
    }
    let amountOre = price.amountOre;
    let discountNote: string | null = null;
    const [discount] = await tx
      .select({ applied: subscriptionDiscount, code: discountCode })
      .from(subscriptionDiscount)
      .innerJoin(discountCode, eq(discountCode.code, subscriptionDiscount.code))
      .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), gt(subscriptionDiscount.remainingPeriods, 0)))
      .for('update', { of: subscriptionDiscount });
    if (discount) {
      const off = discount.code.percentOff !== null ? Math.round((amountOre * discount.code.percentOff) / 100) : (discount.code.amountOffOre ?? 0);
      amountOre = Math.max(0, amountOre - off);
      discountNote = `rabatt ${discount.code.code}`;
      await tx
        .update(subscriptionDiscount)
        .set({ remainingPeriods: sql`${subscriptionDiscount.remainingPeriods} - 1` })
        .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), eq(subscriptionDiscount.code, discount.applied.code)));
    }
    const dueOn = invoiceDueOn(row.paymentMethod, periodFrom, today);
    const { ariaInvoiceNo: invoiceNo, setOffOre } = await insertInvoice(tx, catalogue, title.titleCode, {
      ariaAccountNo: row.ariaAccountNo,
      subscriptionId,
      amountOre,
      description: invoiceLineDescription({ planName: price.planName, periodFrom, periodTo, note: discountNote }),
      periodFrom,
      periodTo,
      dueOn,
      // Nothing to pay (a 100 % discount) is settled at once.
      ...(amountOre === 0 ? { paidAt: now(), settledBy: 'CREDIT' } : {}),
    }, now(), { setOffWaitingCredit: amountOre > 0 });
    if (discount && amountOre < price.amountOre) {
      // The discount as a credit line on the invoice: what the list price was and why less is due.
      await tx.insert(invoiceCredit).values({ id: randomUUID(), ariaInvoiceNo: invoiceNo, amountOre: price.amountOre - amountOre, reason: `Rabatt ${discount.code.code}`, createdAt: now() });
    }
    await tx.update(subscriptionPeriod).set({ ariaInvoiceNo: invoiceNo }).where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));

    if (amountOre > 0) await mailInvoiceToPay(tx, row, invoiceNo);
    return { row, ariaInvoiceNo: invoiceNo, openOre: amountOre - setOffOre, periodTo, dueOn };
  }

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
    const listed = sql.join(ids.map((id) => sql`${id}`), sql`, `);
    const { rows: special } = (await tx.execute(sql`
      select subscription_id as id from ${subscriptionDiscount} where subscription_id in (${listed}) and remaining_periods > 0
      union select subscription_id from ${creditSetOff} where subscription_id in (${listed}) and aria_invoice_no is null`)) as unknown as { rows: { id: string }[] };
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

  /**
   * How an issued invoice gets paid, as the subscriber is told: the stored card or Vipps agreement
   * `collect` charges, the bank's AvtaleGiro draw on a confirmed mandate (the claim run's own
   * condition), or the payer from the invoice e-mail; nothing when a discount or a credit covers it.
   */
  async function paymentOf(tx: Tx, issued: IssuedPeriod): Promise<BilledPeriod['payment']> {
    const { row } = issued;
    if (issued.openOre <= 0) return 'settled';
    if (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') {
      const agreement = await chargeableAgreement(tx, row.id, row.paymentMethod);
      if (agreement?.providerAgreementId) return row.paymentMethod === 'CARD' ? 'card' : 'vipps';
    } else if (row.paymentMethod === 'AVTALEGIRO') {
      const [mandate] = await tx
        .select({ id: paymentAgreement.id })
        .from(paymentAgreement)
        .where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE'), isNotNull(paymentAgreement.providerAgreementId)));
      if (mandate) return 'avtalegiro';
    }
    return 'invoice';
  }

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
      report.invoicesCredited = (await cancelledPeriods.sweep({ onPage: () => onBatch('credit') }).catch((error: unknown) => {
        log.error({ err: error }, 'crediting the invoices of cancelled periods failed; tried again on the next run');
        return { credited: 0 };
      })).credited;
      // The plans, once a run: a page's prices are decided from them (the plan table is a catalogue of a few dozen rows).
      const plans = new Map((await db.select().from(plan)).map((row) => [row.ariaPlanId, row]));
      const horizon = addDays(today, RENEWAL_LEAD_DAYS);
      // The candidates a page at a time, in key order: memory holds one page however many subscriptions there are,
      // and a run stopped halfway (a crash, a deploy) is simply run again: every write below is once per period.
      for (let after = ''; ; ) {
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
              or(lte(subscription.currentPeriodEnd, today), sql`not exists (select 1 from ${subscriptionPeriod} p where p.subscription_id = ${qualified(subscription.id)} and p.period_from = ${qualified(subscription.currentPeriodEnd)})`),
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
        const first = await issuePage(current.map((row) => ({ row, periodFrom: row.currentPeriodEnd })), today, plans);
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
