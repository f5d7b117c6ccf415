import { and, eq, inArray } from 'drizzle-orm';
import { billingErrorCodes, billingErrorMessages, formatKroner, osloToday } from '@minside/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../../db/client.ts';
import { billingDocument, creditSetOff, invoice, payment, subscriptionPeriod } from '../../../db/schema.ts';
import { AppError } from '../../../lib/app-error.ts';
import { setOffSoFar } from '../paid-so-far.ts';
import { notFound } from '../../../plugins/errors.ts';
import type { PaymentEngine } from '../engine.ts';
import { issueCreditNote } from './issue.ts';
import { enqueueCreditNoteMail, type DocumentMailDeps } from './receipts.ts';
import { CREDITED, creditedSoFar, moneyInOf, refundRoute } from './refund-route.ts';

/**
 * Crediting a whole invoice (issue 23), the customer centre's action behind `POST
 * /api/operator/invoice/{no}/credit` and `admin invoice credit`: a complaint, a cancellation, a
 * goodwill gesture. What happens to the money follows from how the invoice stands:
 * - unpaid, nothing received: the invoice is cancelled — settled by the credit, it is no longer
 *   payable or claimed, and the subscriber is told they need not pay it;
 * - paid by Vipps or card: the payment is refunded at the provider, and only when the provider
 *   says REFUNDED is the credit note issued ("money moves only on the word of a provider"); a
 *   complaint's credit set off against it waits for the next invoice again, as for an unpaid one;
 * - settled by a complaint's credit set off against it alone: cancelled like an unpaid one, and the
 *   credit waits for the next invoice again (or goes to the customer centre when none comes);
 * - paid in the bank (OCR giro, AvtaleGiro) or part-paid: refused with a code — money goes back
 *   from the bank by a person, and the credit is booked there.
 * Which unpaid invoice has money in that a person pays back, and which paid one goes back at the
 * provider and which by a person, is documents/refund-route.ts's rule, read here and by whoever must
 * say it beforehand (the withdrawal's and the cancellation's confirmations, ADR 036).
 * Either way the credit note is numbered in the invoices' series, refers to the invoice, and is
 * e-mailed with a link to Min Side.
 */
interface CreditOptions {
  /**
   * The invoice's period is not had after all (the subscription was cancelled before it began):
   * its renewal claim (`subscription_period`) is let go in the transaction that issues the note, so
   * a cancellation undone later gets the period invoiced again by the renewal job. A credit for any
   * other reason (a complaint, goodwill) keeps the claim: the period is still had, and not billed twice.
   */
  releasePeriod?: boolean;
  /**
   * The subscription will not be invoiced again (a withdrawal, ADR 030): a complaint's credit set off
   * against the invoice is released to the account as always, but handed to the customer centre to
   * pay back through the bank (`handedOverAt`): no invoice takes it, and the note promises none (ADR 036).
   */
  subscriptionEnds?: boolean;
  /**
   * When the released credit is handed over (`handedOverAt`; with `subscriptionEnds`): the withdrawal's
   * own moment, so the credits it handed over are found by it again whichever run credited the invoice
   * (ADR 036). Now by default.
   */
  handOverAt?: Date;
}

/** A complaint's credit that was set off against the credited invoice and is now the subscriber's to have back. */
export interface ReleasedCredit {
  creditNoteNumber: number;
  /** The invoice the complaint's credit note credited. */
  ariaInvoiceNo: number;
  amountOre: number;
}

export interface InvoiceCrediting {
  creditInvoice(ariaInvoiceNo: number, reason: string, options?: CreditOptions): Promise<{ creditNoteNumber: number; refunded: boolean; released: ReleasedCredit[] }>;
}

/** What a credit note says of a complaint's credit it released: waiting for the next invoice, or, when none comes, paid back by a person. */
function releasedText(subscriptionEnds: boolean, amountOre?: number): string {
  const amount = amountOre === undefined ? 'Beløpet du har til gode fra en kreditnota' : `${formatKroner(amountOre, { withOre: true })} som du har til gode fra en kreditnota`;
  return subscriptionEnds
    ? `${amount}, kan ikke trekkes fra en ny faktura fordi abonnementet er avsluttet. Kundeservice tar kontakt med deg og betaler beløpet tilbake.`
    : `${amount}, trekkes fra neste faktura.`;
}

export function createInvoiceCrediting(deps: DocumentMailDeps & { db: Db; engine: PaymentEngine; catalogue: Catalogue; now: () => Date; log: FastifyBaseLogger }): InvoiceCrediting {
  const { db, engine, catalogue, now, log } = deps;
  const refusal = (code: keyof typeof billingErrorCodes, status = 409) => new AppError(status, billingErrorCodes[code], billingErrorMessages[code]);

  async function refuseCredited(reader: Pick<Db, 'select'>, ariaInvoiceNo: number): Promise<void> {
    const credited = await creditedSoFar(reader, ariaInvoiceNo);
    if (credited.whole) throw refusal('invoiceAlreadyCredited');
    // The whole invoice again would credit those papers twice (and their credit waits for the next invoice).
    if (credited.partly) throw refusal('invoicePartlyCredited');
  }

  /**
   * Lets go of the complaints' credits set off against the invoice: they wait on the subscription
   * again. When the subscription ends they are handed to the customer centre to pay back instead, in
   * this transaction, so no invoice sets them off again — not even one of the same subscription
   * bought again, which would pay them out twice (ADR 036).
   */
  async function releaseSetOff(tx: Tx, ariaInvoiceNo: number, subscriptionEnds: boolean, handOverAt: Date | undefined): Promise<ReleasedCredit[]> {
    const released = await tx
      .update(creditSetOff)
      .set({ ariaInvoiceNo: null, setOffAt: null, handedOverAt: subscriptionEnds ? (handOverAt ?? now()) : null })
      .where(eq(creditSetOff.ariaInvoiceNo, ariaInvoiceNo))
      .returning({ creditNoteNumber: creditSetOff.creditNoteNumber, amountOre: creditSetOff.amountOre });
    if (released.length === 0) return [];
    const notes = await tx
      .select({ number: billingDocument.number, ariaInvoiceNo: billingDocument.ariaInvoiceNo })
      .from(billingDocument)
      .where(inArray(billingDocument.number, [...new Set(released.map((row) => row.creditNoteNumber))]));
    const invoiceOf = new Map(notes.map((note) => [note.number, note.ariaInvoiceNo]));
    const byNote = new Map<number, ReleasedCredit>();
    for (const row of released) {
      const entry = byNote.get(row.creditNoteNumber) ?? { creditNoteNumber: row.creditNoteNumber, ariaInvoiceNo: invoiceOf.get(row.creditNoteNumber) ?? ariaInvoiceNo, amountOre: 0 };
      entry.amountOre += row.amountOre;
      byNote.set(row.creditNoteNumber, entry);
    }
    return [...byNote.values()];
  }

  /** The renewal claim of the invoice's period, let go with the credit (CreditOptions.releasePeriod). */
  async function releasePeriodOf(tx: Tx, target: typeof invoice.$inferSelect): Promise<void> {
    if (target.subscriptionId === null) return;
    await tx
      .delete(subscriptionPeriod)
      .where(and(eq(subscriptionPeriod.subscriptionId, target.subscriptionId), eq(subscriptionPeriod.periodFrom, target.periodFrom), eq(subscriptionPeriod.ariaInvoiceNo, target.ariaInvoiceNo)));
  }

  return {
    async creditInvoice(ariaInvoiceNo, reason, { releasePeriod = false, subscriptionEnds = false, handOverAt } = {}) {
      const [target] = await db.select().from(invoice).where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
      if (!target) throw notFound();
      await refuseCredited(db, ariaInvoiceNo);
      // A renewal charge the provider holds for its due date (Vipps MobilePay takes it days later) is
      // cancelled there first: credited while it waits, it would be taken and then refunded, at a fee.
      // Cancelling may find it taken after all: then it is a payment, refunded below.
      const waiting = await db
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING'), eq(payment.purpose, 'RENEWAL')));
      for (const charge of waiting) if (charge.providerReference) await engine.cancel(charge);
      // One whose answer is still unknown (no reference yet, or the cancel got no answer): asked again
      // later, once reconciliation knows whether the money moved.
      if (
        waiting.length > 0 &&
        (
          await db
            .select({ id: payment.id })
            .from(payment)
            .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING'), eq(payment.purpose, 'RENEWAL')))
        ).length > 0
      ) {
        throw refusal('invoiceBeingCharged');
      }
      const captured = await db
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'CAPTURED')));

      // Settled by a complaint's credit set off against it alone (ADR 026): no money came in, so it is
      // cancelled like an unpaid one, and the credit is let go (to the next invoice, or to the customer
      // centre when the subscription ends). Not a cancelled invoice: that one has its note, refused above.
      const bySetOff = (row: typeof invoice.$inferSelect, setOffOre: number) => row.settledBy === 'CREDIT' && setOffOre > 0 && setOffOre >= row.amountOre;
      if (captured.length === 0 && (target.paidAt === null || bySetOff(target, await setOffSoFar(db, ariaInvoiceNo)))) {
        const { creditNoteNumber, released } = await db.transaction(async (tx) => {
          // Under the invoice's lock, everything asked again: a payment, a bank part-payment or another
          // credit that came in since the reads above is seen here, and nothing is cancelled over it.
          const [locked] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo)).for('update');
          if (!locked) throw refusal('invoiceAlreadyPaid');
          const paidByCredit = bySetOff(locked, await setOffSoFar(tx, ariaInvoiceNo));
          if (locked.paidAt && !paidByCredit) throw refusal('invoiceAlreadyPaid');
          await refuseCredited(tx, ariaInvoiceNo);
          // Money in on it, or an AvtaleGiro draw the bank no longer lets go of: a person pays that back (refund-route.ts).
          const moneyIn = await moneyInOf(tx, ariaInvoiceNo, osloToday(now()));
          if (moneyIn) throw refusal(moneyIn.code);
          // A complaint's credit set off against this invoice is not used up by cancelling it: it waits for the next one again
          // (or, when the subscription ends, for the customer centre to pay it back).
          const released = await releaseSetOff(tx, ariaInvoiceNo, subscriptionEnds, handOverAt);
          const releasedOre = released.reduce((sum, credit) => sum + credit.amountOre, 0);
          const settlement = paidByCredit
            ? `Fakturaen er kreditert i sin helhet. ${releasedText(subscriptionEnds, releasedOre)}`
            : `Fakturaen er kreditert i sin helhet. Du skal ikke betale den.${released.length > 0 ? ` ${releasedText(subscriptionEnds)}` : ''}`;
          const number = await issueCreditNote(tx, catalogue, { ariaInvoiceNo, amountOre: target.amountOre, reason, settlement, source: `cancel:${ariaInvoiceNo}`, at: now() });
          await tx
            .update(invoice)
            .set({ paidAt: locked.paidAt ?? now(), settledBy: 'CREDIT' })
            .where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
          if (releasePeriod) await releasePeriodOf(tx, target);
          await enqueueCreditNoteMail(tx, deps, { number, ariaInvoiceNo, amountOre: target.amountOre, settlement });
          return { creditNoteNumber: number, released };
        });
        return { creditNoteNumber, refunded: false, released };
      }

      // A refund made by an earlier try that stopped before its credit note: the note is issued now.
      const [refundedBefore] = await db
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'REFUNDED'), eq(payment.errorCode, CREDITED)));
      // Paid in full means what was due as money: the amount less a complaint's credit set off against
      // it. That credit is not paid back with the payment: it waits for the next invoice again.
      const setOffOre = await setOffSoFar(db, ariaInvoiceNo);
      // Credited in part was refused above (refuseCredited): what is left is how the money came in.
      const route = refundRoute({ amountOre: target.amountOre, paidAt: target.paidAt, captured, refundedBefore, setOffOre, partlyCredited: false });
      if (route.by === 'person') throw refusal(route.code);
      const paid = route.payment;
      if (!route.refundedBefore) {
        const refunded = await engine.refund(paid, CREDITED).catch((error: unknown) => {
          // The operator hears REFUND_FAILED and may try again (the refund has its own key); the cause is for us.
          log.error({ err: error, ariaInvoiceNo, paymentId: paid.id }, 'refund for a credit note failed at the provider');
          return undefined;
        });
        if (refunded?.status !== 'REFUNDED') throw refusal('refundFailed', 502);
      }
      const paidBack = route.method === 'VIPPS' ? 'til deg med Vipps' : 'til kortet du betalte med';
      const { creditNoteNumber, released } = await db.transaction(async (tx) => {
        const released = setOffOre > 0 ? await releaseSetOff(tx, ariaInvoiceNo, subscriptionEnds, handOverAt) : [];
        const settlement =
          released.length > 0
            ? `${formatKroner(paid.amountOre, { withOre: true })} er betalt tilbake ${paidBack}. ${releasedText(subscriptionEnds, setOffOre)}`
            : `Beløpet er betalt tilbake ${paidBack}.`;
        const number = await issueCreditNote(tx, catalogue, { ariaInvoiceNo, amountOre: target.amountOre, reason, settlement, source: `refund:${paid.id}`, at: now() });
        if (releasePeriod) await releasePeriodOf(tx, target);
        await enqueueCreditNoteMail(tx, deps, { number, ariaInvoiceNo, amountOre: target.amountOre, settlement });
        return { creditNoteNumber: number, released };
      });
      return { creditNoteNumber, refunded: true, released };
    },
  };
}
