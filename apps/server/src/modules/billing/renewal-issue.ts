import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { addDays, addMonths, invoiceLineDescription, renewsAtPeriodEnd, type RenewableSubscription } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { billingDocument, discountCode, invoice, invoiceCredit, plan, subscription, subscriptionDiscount, subscriptionPeriod } from '../../db/schema.ts';
import { qualified } from '../../db/qualified.ts';
import { insertInvoice } from './issue-invoice.ts';
import type { BillingJobDeps } from './jobs.ts';
import { invoiceDueOn, planIdFor, priceFrom, type PeriodPrice } from './renewal-batch.ts';

// Issuing one period's invoice, one subscription at a time (`issueIn`): the renewal run's rows the
// page form leaves to it (a discount, a waiting credit, a zero amount), a failed page's rows, and a
// reactivation's first period (ADR 006). The one place a period's invoice is made row by row; the
// page form (renewal-batch.ts) writes exactly what this writes for the same row.

/** What the renewal rule (`renewsAtPeriodEnd`) reads of a stored subscription. */
export function renewable(row: typeof subscription.$inferSelect): RenewableSubscription {
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
export interface IssuedPeriod {
  row: typeof subscription.$inferSelect;
  ariaInvoiceNo: number;
  /** What is left to pay after a waiting credit was set off against it (0: a 100 % discount, or a credit covering it). */
  openOre: number;
  periodTo: string;
  dueOn: string;
}

export function createRenewalIssue(
  deps: Pick<BillingJobDeps, 'catalogue' | 'now' | 'log'> & { mailInvoiceToPay: (tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number) => Promise<void> },
) {
  const { catalogue, now, log, mailInvoiceToPay } = deps;

  async function priceFor(executor: Db | Tx, row: typeof subscription.$inferSelect, periodFrom: string): Promise<PeriodPrice> {
    const [found] = await executor
      .select()
      .from(plan)
      .where(eq(plan.ariaPlanId, planIdFor(row, periodFrom)));
    return priceFrom(found, row, periodFrom);
  }

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
    const [claimed] = await tx.insert(subscriptionPeriod).values({ subscriptionId, periodFrom, ariaInvoiceNo: null, createdAt: now() }).onConflictDoNothing().returning();
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
      await tx
        .update(subscriptionPeriod)
        .set({ ariaInvoiceNo: existing.no })
        .where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));
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
    const { ariaInvoiceNo: invoiceNo, setOffOre } = await insertInvoice(
      tx,
      catalogue,
      title.titleCode,
      {
        ariaAccountNo: row.ariaAccountNo,
        subscriptionId,
        amountOre,
        description: invoiceLineDescription({ planName: price.planName, periodFrom, periodTo, note: discountNote }),
        periodFrom,
        periodTo,
        dueOn,
        // Nothing to pay (a 100 % discount) is settled at once.
        ...(amountOre === 0 ? { paidAt: now(), settledBy: 'CREDIT' } : {}),
      },
      now(),
      { setOffWaitingCredit: amountOre > 0 },
    );
    if (discount && amountOre < price.amountOre) {
      // The discount as a credit line on the invoice: what the list price was and why less is due.
      await tx.insert(invoiceCredit).values({ id: randomUUID(), ariaInvoiceNo: invoiceNo, amountOre: price.amountOre - amountOre, reason: `Rabatt ${discount.code.code}`, createdAt: now() });
    }
    await tx
      .update(subscriptionPeriod)
      .set({ ariaInvoiceNo: invoiceNo })
      .where(and(eq(subscriptionPeriod.subscriptionId, subscriptionId), eq(subscriptionPeriod.periodFrom, periodFrom)));

    if (amountOre > 0) await mailInvoiceToPay(tx, row, invoiceNo);
    return { row, ariaInvoiceNo: invoiceNo, openOre: amountOre - setOffOre, periodTo, dueOn };
  }

  return { issueIn };
}

export type RenewalIssue = ReturnType<typeof createRenewalIssue>;
