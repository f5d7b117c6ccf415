import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, ne, not, type SQL } from 'drizzle-orm';
import { addDays, osloToday } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { invoice, payment, subscription } from '../../db/schema.ts';
import { fixedAvtaleGiroDraw } from './claim-window.ts';
import { paidSoFar } from './paid-so-far.ts';
import { endingStatusCodes } from './cancelled-periods.ts';
import type { BillingJobDeps, RenewalRunOptions } from './jobs.ts';

/**
 * Dunning of a failed card / Vipps renewal charge: attempt 1 on the due date, attempt 2 at least
 * 3 days after it, attempt 3 at least 4 days after that; then the invoice waits like a giro (the
 * owner has had a pay-link since the first failure).
 */
const RENEWAL_RETRY_DAYS = [3, 4] as const;

/** Due invoices read a page at a time for charging. */
const COLLECT_PAGE_SIZE = 200;

/**
 * Subscriptions charged at once. Each holds at most a pooled connection or two (db/client.ts has
 * ten, shared with the web requests when the job runs in the server).
 */
const COLLECT_CONCURRENCY = 4;

type DueInvoice = { invoice: typeof invoice.$inferSelect; method: string; subscription: typeof subscription.$inferSelect };

/**
 * Collecting due renewal invoices (the renewal run's last step): a card or Vipps charge at the
 * provider with the dunning schedule, AvtaleGiro left to the bank's claim file, giro left waiting
 * with its pay-link. Money moves only on the provider's word (the engine settles).
 */
export function createRenewalCollection(
  deps: BillingJobDeps & {
    chargeableAgreement: (executor: Db | Tx, subscriptionId: string, method: string) => Promise<{ method: string; providerAgreementId: string | null } | undefined>;
    mailInvoiceToPay: (tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number) => Promise<void>;
  },
) {
  const { db, engine, provider, now, log, chargeableAgreement, mailInvoiceToPay } = deps;

  /**
   * Claims the next renewal charge of a due invoice, under the invoice's row lock: nothing while
   * the invoice is paid, while any payment of it is PENDING (the owner paying by hand right now,
   * or an earlier charge whose answer is still unknown), after a capture, after the last attempt,
   * or before the dunning schedule allows the next one. Each attempt has its own key.
   */
  async function claimRenewalCharge(row: typeof invoice.$inferSelect, method: string, today: string): Promise<{ id: string; key: string; amountOre: number } | null> {
    return db.transaction(async (tx) => {
      const [locked] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, row.ariaInvoiceNo)).for('update');
      if (!locked || locked.paidAt) return null;
      if ((await engine.openForInvoice(tx, row.ariaInvoiceNo)).length > 0) return null;
      // Claimed at the bank with AvtaleGiro before the method changed, and too late to withdraw: the bank draws it.
      if (await fixedAvtaleGiroDraw(tx, row.ariaInvoiceNo, today)) return null;
      const openOre = locked.amountOre - (await paidSoFar(tx, row.ariaInvoiceNo));
      if (openOre <= 0) return null;
      const attempts = await tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, row.ariaInvoiceNo), eq(payment.purpose, 'RENEWAL'), ne(payment.method, 'AVTALEGIRO')))
        .orderBy(desc(payment.createdAt));
      if (attempts.some((attempt) => attempt.status === 'CAPTURED')) return null;
      const last = attempts[0];
      if (last) {
        const wait = RENEWAL_RETRY_DAYS[attempts.length - 1];
        if (wait === undefined || addDays(osloToday(last.createdAt), wait) > today) return null;
      }
      const key = `renewal:${row.ariaInvoiceNo}:${attempts.length + 1}`;
      const at = now();
      const id = randomUUID();
      const [claimed] = await tx
        .insert(payment)
        .values({
          id,
          idempotencyKey: key,
          purpose: 'RENEWAL',
          method,
          amountOre: openOre,
          status: 'PENDING',
          userId: null,
          ariaAccountNo: locked.ariaAccountNo,
          subscriptionId: locked.subscriptionId,
          ariaInvoiceNo: locked.ariaInvoiceNo,
          provider: provider.name,
          returnUrl: '/fakturaoversikt',
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: payment.idempotencyKey })
        .returning({ id: payment.id });
      return claimed ? { id, key, amountOre: openOre } : null;
    });
  }

  /** A due invoice of a card or Vipps subscription `collect` charges (the same condition for the numbers and for each page's rows). */
  function chargeableDue(today: string): SQL {
    return and(
      isNull(invoice.paidAt),
      lte(invoice.dueOn, addDays(today, provider.chargeLeadDays ?? 0)),
      gt(invoice.amountOre, 0),
      inArray(subscription.paymentMethod, ['CARD', 'VIPPS']),
      // Never a period the subscription will not have: its invoice is credited (cancelled-periods.ts), and
      // one the crediting could not finish yet is not charged meanwhile.
      not(and(inArray(subscription.instStatusCode, [...endingStatusCodes]), gte(invoice.periodFrom, subscription.currentPeriodEnd)) as SQL),
    ) as SQL;
  }

  async function collect(today: string, onBatch: RenewalRunOptions['onBatch'] & {}): Promise<{ charged: number }> {
    // AvtaleGiro is not collected here: the bank draws on the claim file's due date and its OCR file is the only proof (modules/bank).
    // A provider that draws on a date of its own (Vipps MobilePay) is given the charge its lead time before the due date.
    // The due invoices' numbers in one read, their rows a page at a time: what is held is a number per due invoice.
    const numbers = (
      await db.select({ no: invoice.ariaInvoiceNo }).from(invoice).innerJoin(subscription, eq(subscription.id, invoice.subscriptionId)).where(chargeableDue(today)).orderBy(asc(invoice.ariaInvoiceNo))
    ).map((row) => row.no);
    let charged = 0;
    for (let start = 0; start < numbers.length; start += COLLECT_PAGE_SIZE) {
      // Read again: paid, credited or cancelled since the numbers were read, it is no longer due.
      const due = await db
        .select({ invoice, method: subscription.paymentMethod, subscription })
        .from(invoice)
        .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
        .where(and(inArray(invoice.ariaInvoiceNo, numbers.slice(start, start + COLLECT_PAGE_SIZE)), chargeableDue(today)))
        .orderBy(asc(invoice.ariaInvoiceNo));
      charged += await collectPage(due, today);
      await onBatch('collect');
    }
    return { charged };
  }

  /**
   * Charges a page of due invoices: the invoices of one subscription in turn (a Vipps agreement found
   * stopped sends the next one to giro), COLLECT_CONCURRENCY subscriptions at once. Each charge waits
   * on its commits and on the provider's answer (a network call in production); several in flight
   * keep the database and the provider busy instead of the run waiting on one at a time.
   */
  async function collectPage(due: DueInvoice[], today: string): Promise<number> {
    const bySubscription = new Map<string, DueInvoice[]>();
    for (const item of due) {
      const key = item.invoice.subscriptionId as string;
      bySubscription.set(key, [...(bySubscription.get(key) ?? []), item]);
    }
    const queue = [...bySubscription.values()];
    let charged = 0;
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) for (const item of next) if (await collectOne(item, today)) charged += 1;
    };
    await Promise.all(Array.from({ length: Math.min(COLLECT_CONCURRENCY, queue.length) }, worker));
    return charged;
  }

  /** One due invoice: charged (true), or left to wait (its e-mail when nothing can charge it), or nothing to do now. */
  async function collectOne({ invoice: row, method, subscription: owner }: DueInvoice, today: string): Promise<boolean> {
    const subscriptionId = row.subscriptionId as string;
    // The charge of a card or Vipps subscription is made its lead time before the due date; a card at once, on the due date.
    if (method !== 'VIPPS' && row.dueOn > today) return false;
    const agreement = await chargeableAgreement(db, subscriptionId, method);
    if (!agreement?.providerAgreementId) {
      // Nothing this provider can charge (a card from an earlier provider): the invoice waits like a giro, with its e-mail (once).
      if (row.dueOn <= today)
        await db
          .transaction((tx) => mailInvoiceToPay(tx, owner, row.ariaInvoiceNo))
          .catch((error: unknown) => log.error({ err: error, ariaInvoiceNo: row.ariaInvoiceNo }, 'could not mail an invoice nothing can charge'));
      return false;
    }
    try {
      // The row and its key first: a second run (or instance) finds it and does not charge again.
      const claim = await claimRenewalCharge(row, agreement.method, today);
      if (!claim) return false;
      // A Vipps agreement can be stopped in the app without our hearing of it (a lost webhook): asked
      // before each charge, a stopped one moves the subscription to giro and mails the invoice, and the claim is let go.
      if (agreement.method === 'VIPPS' && !(await engine.agreementChanged(agreement.providerAgreementId))) {
        await engine.giveUp(claim.id, 'AGREEMENT_ENDED');
        return false;
      }
      let result;
      try {
        result = await provider.chargeAgreement({
          agreementId: agreement.providerAgreementId,
          amountOre: claim.amountOre,
          idempotencyKey: claim.key,
          merchantReference: claim.id,
          description: `Faktura ${row.ariaInvoiceNo}`,
          dueOn: row.dueOn,
        });
      } catch (error) {
        // No answer is not "failed": the provider may have charged. The row stays PENDING and
        // reconciliation asks the provider by our reference; no new attempt starts meanwhile.
        log.warn({ err: error, ariaInvoiceNo: row.ariaInvoiceNo, paymentId: claim.id }, 'renewal charge got no answer; reconciliation will ask the provider');
        return false;
      }
      // The provider's reference is stored with the result, in the settling transaction.
      const settled = await engine.apply(claim.id, result);
      return settled?.status === 'CAPTURED';
    } catch (error) {
      log.error({ err: error, ariaInvoiceNo: row.ariaInvoiceNo }, 'collecting a due invoice failed');
    }
    return false;
  }

  return { collect };
}
