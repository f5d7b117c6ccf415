import { and, asc, eq, gt, gte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { billingErrorCodes, formatLongDate, osloToday } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { invoice, subscriptionWithdrawal } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { creditsHandedOver, moneyInOf, refundRouteOf, setOffsAgainst, setOffSoFar, wholeCreditNoteOf, type HandedOverCredit, type InvoiceCrediting, type ReleasedCredit } from '../billing/index.ts';

/**
 * What a withdrawal gives back (ADR 030, ADR 036): the invoices of the agreement, the complaint credits
 * handed to the customer centre, and the settling of both through the invoice-crediting machinery
 * (ADR 026), by the request and again by the `withdrawal-refunds` job. withdrawal.ts decides and records
 * the withdrawal itself.
 */

type WithdrawalRow = typeof subscriptionWithdrawal.$inferSelect;
export type StoredRefund = WithdrawalRow['refunds'][number];

/** Refusals of the crediting machinery that a person has to finish (money back from the bank, a part-payment). */
const needsAPerson: ReadonlySet<string> = new Set([
  billingErrorCodes.refundNeedsBank,
  billingErrorCodes.invoicePartlyPaid,
  billingErrorCodes.invoicePartlyCredited,
  billingErrorCodes.invoiceDrawnByAvtaleGiro,
]);

/**
 * The code of a refund that is a complaint's credit, not an invoice's payment: still waiting when the
 * subscription was withdrawn, or set off against an invoice of the agreement and released when that
 * was credited, it has no next invoice to wait for, and the customer centre pays it back through the
 * bank (ADR 036). Derived from the `credit_set_off` rows the withdrawal handed over, never kept only here.
 */
export const CREDIT_PAID_BACK_BY_BANK = 'CREDIT_PAID_BACK_BY_BANK';

/**
 * The invoices of this agreement still to give back: issued for periods from the day it was made
 * (earlier ones belong to an earlier agreement), with the complaint's credit set off against each
 * (in all, and per credit note with the invoice the note credited). One credited in whole already
 * (cancelled, refunded: its note, or an older one settled by a credit with none set off) is left out;
 * one settled by a complaint's credit set off against it alone was paid, with that credit, and goes
 * back like any other (ADR 036).
 */
export async function invoicesOfAgreement(reader: Db | Tx, subscriptionId: string, agreedOn: string) {
  const rows = await reader
    .select()
    .from(invoice)
    .where(and(eq(invoice.subscriptionId, subscriptionId), gte(invoice.periodFrom, agreedOn)))
    .orderBy(asc(invoice.ariaInvoiceNo));
  const result: (typeof invoice.$inferSelect & { setOffOre: number; setOffs: Awaited<ReturnType<typeof setOffsAgainst>> })[] = [];
  for (const row of rows) {
    const setOffOre = await setOffSoFar(reader, row.ariaInvoiceNo);
    if ((row.settledBy === 'CREDIT' && setOffOre === 0) || (await wholeCreditNoteOf(reader, row.ariaInvoiceNo))) continue;
    result.push({ ...row, setOffOre, setOffs: setOffOre > 0 ? await setOffsAgainst(reader, row.ariaInvoiceNo) : [] });
  }
  return result;
}

/**
 * A complaint's credit whose note credited an invoice of this agreement (`invoices`) is not the customer
 * centre's to pay back apart: that invoice is a person's already (credited in part, ADR 026), and paying
 * it back in full gives back what the credit was for. The one rule for the list of refunds (withCredits)
 * and for what the confirmation says of a credit set off against an invoice (withdrawal.ts).
 */
export const paidBackWithItsInvoice = (credit: Pick<HandedOverCredit, 'ariaInvoiceNo'>, invoices: readonly { ariaInvoiceNo: number }[]) =>
  invoices.some((found) => found.ariaInvoiceNo === credit.ariaInvoiceNo);

export type AgreementInvoice = Awaited<ReturnType<typeof invoicesOfAgreement>>[number];

/** The money of the agreement's invoices, by the way it goes back. */
export interface MoneyBack {
  /**
   * Per unpaid invoice that money came in on, or that the bank will still draw: that money, which a
   * person pays back (the invoice's refund names it, not the invoice's whole amount).
   */
  cameInOre: ReadonlyMap<number, number>;
  /** Refunded at the provider (Vipps, the card), with a credit note when it is. */
  providerOre: number;
  /** Paid in the bank or outside Min Side (an OCR giro, a netbank part-payment, an earlier system): paid back by the customer centre. */
  bankOre: number;
  /** Paid with Vipps or a card but not refundable there (paid in parts or twice, credited in part by a complaint): paid back by the customer centre. */
  otherOre: number;
  /** AvtaleGiro draws the bank takes though the invoice is given back (too late to withdraw): paid back by the customer centre once taken. */
  drawOre: number;
}

/**
 * What the crediting machinery will do with the money of each invoice, by the rules it applies itself
 * (billing's refund-route.ts): the withdrawal's confirmation is written before it answers, and must
 * promise "samme betalingsmiddel" only for what goes back that way (ADR 036). Money is what was due as
 * money: a complaint's credit set off against an invoice, or one it settled alone, is said apart. An
 * unpaid invoice is cancelled, unless money came in on it or the bank will still draw it: that money a
 * person pays back (creditInvoice refuses it, and the withdrawal lists the invoice as 'manual').
 */
export async function moneyBackOf(reader: Db | Tx, invoices: readonly AgreementInvoice[], today: string): Promise<MoneyBack> {
  const cameInOre = new Map<number, number>();
  const result: MoneyBack = { cameInOre, providerOre: 0, bankOre: 0, otherOre: 0, drawOre: 0 };
  for (const found of invoices) {
    const moneyIn = found.paidAt === null ? await moneyInOf(reader, found.ariaInvoiceNo, today) : undefined;
    if (moneyIn) cameInOre.set(found.ariaInvoiceNo, moneyIn.capturedOre + moneyIn.drawOre);
    result.drawOre += moneyIn?.drawOre ?? 0;
    const moneyOre = found.paidAt === null ? (moneyIn?.capturedOre ?? 0) : found.amountOre - found.setOffOre;
    if (moneyOre <= 0) continue;
    // Money captured on an unpaid invoice goes the way of a paid one's in creditInvoice: the same rule answers.
    const route = await refundRouteOf(reader, found);
    if (route.by === 'provider') result.providerOre += moneyOre;
    else if (route.inTheBank) result.bankOre += moneyOre;
    else result.otherOre += moneyOre;
  }
  return result;
}

/**
 * The invoices' refunds with the credits the withdrawal handed to the customer centre (`credit_set_off`,
 * the durable record), one entry per invoice a complaint's note credited. A credit from a note on an
 * invoice of this agreement is not added (paidBackWithItsInvoice).
 */
export function withCredits(refunds: readonly StoredRefund[], credits: readonly HandedOverCredit[]): StoredRefund[] {
  const invoices = refunds.filter((refund) => refund.code !== CREDIT_PAID_BACK_BY_BANK);
  const result = [...invoices];
  for (const credit of credits) {
    if (paidBackWithItsInvoice(credit, invoices)) continue;
    const same = result.findIndex((refund) => refund.ariaInvoiceNo === credit.ariaInvoiceNo);
    const existing = same >= 0 ? result[same] : undefined;
    if (existing) result[same] = { ...existing, amountOre: existing.amountOre + credit.amountOre };
    else result.push({ ariaInvoiceNo: credit.ariaInvoiceNo, amountOre: credit.amountOre, outcome: 'manual', creditNoteNumber: credit.creditNoteNumber, code: CREDIT_PAID_BACK_BY_BANK });
  }
  return result;
}

export function createRefundSettlement({ db, crediting, log }: { db: Db; crediting: InvoiceCrediting; log: FastifyBaseLogger }) {
  /**
   * Asks the crediting machinery for each invoice still waiting, and records what it answered under the
   * withdrawal's row lock: a run beside this one (the request's and the job's) keeps what it wrote, and
   * the credits handed to the customer centre are read again from `credit_set_off`, so a run that died
   * after a credit note and before this write loses none of them.
   */
  async function settleRefunds(orderId: string): Promise<number> {
    const [row] = await db.select().from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, orderId));
    if (!row?.refundsOpen) return 0;
    const reason = `Angrerett: kjøpet ble angret ${formatLongDate(osloToday(row.withdrawnAt))}.`;
    const answered = new Map<number, StoredRefund>();
    const released: ReleasedCredit[] = [];
    let settled = 0;
    for (const refund of row.refunds) {
      if (refund.outcome !== 'pending' || refund.code === CREDIT_PAID_BACK_BY_BANK) continue;
      try {
        // The subscription has ended: a complaint's credit set off against the invoice has no next invoice to wait for.
        // Handed over at the withdrawal's moment, so it is found as this withdrawal's whichever run credits the invoice.
        const credited = await crediting.creditInvoice(refund.ariaInvoiceNo, reason, { subscriptionEnds: true, handOverAt: row.withdrawnAt });
        answered.set(refund.ariaInvoiceNo, { ...refund, outcome: credited.refunded ? 'refunded' : 'cancelled', creditNoteNumber: credited.creditNoteNumber, code: null });
        released.push(...credited.released);
        settled += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === billingErrorCodes.invoiceAlreadyCredited) {
          // Credited already (by the customer centre, or by a run of this that stopped before writing): nothing more is
          // owed here. Its note says whether the money went back at the provider.
          const note = await wholeCreditNoteOf(db, refund.ariaInvoiceNo);
          answered.set(refund.ariaInvoiceNo, { ...refund, outcome: note?.refunded ? 'refunded' : 'cancelled', creditNoteNumber: note?.number ?? null, code: error.code });
        } else if (needsAPerson.has(error.code)) answered.set(refund.ariaInvoiceNo, { ...refund, outcome: 'manual', code: error.code });
        // The provider did not answer REFUNDED (yet): asked again by the job. Nothing is recorded as refunded.
        else answered.set(refund.ariaInvoiceNo, { ...refund, code: error.code });
        if (error.code !== billingErrorCodes.invoiceAlreadyCredited && !needsAPerson.has(error.code))
          log.warn({ orderId, ariaInvoiceNo: refund.ariaInvoiceNo, code: error.code }, 'withdrawal refund not settled yet');
      }
    }
    if (released.length > 0) log.warn({ orderId, released }, 'withdrawal released a complaint credit: the customer centre pays it back through the bank');
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, orderId)).for('update');
      if (!locked) return;
      // What another run settled meanwhile stands; only what is still pending takes this run's answer.
      const invoices = locked.refunds.map((refund) => (refund.outcome === 'pending' ? (answered.get(refund.ariaInvoiceNo) ?? refund) : refund));
      // Up to the subscription's next withdrawal (bought again and withdrawn again): its credits are its own.
      const [next] = await tx
        .select({ withdrawnAt: subscriptionWithdrawal.withdrawnAt })
        .from(subscriptionWithdrawal)
        .where(and(eq(subscriptionWithdrawal.subscriptionId, locked.subscriptionId), gt(subscriptionWithdrawal.withdrawnAt, locked.withdrawnAt)))
        .orderBy(asc(subscriptionWithdrawal.withdrawnAt))
        .limit(1);
      const refunds = withCredits(invoices, await creditsHandedOver(tx, locked.subscriptionId, locked.withdrawnAt, next?.withdrawnAt ?? null));
      await tx
        .update(subscriptionWithdrawal)
        .set({ refunds, refundsOpen: refunds.some((refund) => refund.outcome === 'pending') })
        .where(eq(subscriptionWithdrawal.orderId, orderId));
    });
    return settled;
  }

  return { settleRefunds };
}
