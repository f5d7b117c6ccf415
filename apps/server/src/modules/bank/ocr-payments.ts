import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { OCR_TRANSACTION_TYPES, type OcrTransaction } from '@minside/bank-files';
import { osloNoonOf, readKid } from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { avtaleGiroClaim, invoice, payment, subscription } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { enqueuePaymentReceipt, paidSoFar } from '../billing/index.ts';
import { signedAmountOf, type Assignment, type Outcome, type Positioned, type UnmatchedReason } from './import-record.ts';

export interface OcrPaymentDeps {
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
  portalOrigin: (titleCode: string) => string;
  titleOf: (assignment: Assignment) => PublicationConfig | undefined;
}

/**
 * One OCR Giro transaction from the bank (issue 21), in the import's transaction: a payment by KID
 * settles the invoice it names (a receipt by e-mail), a reversal takes a bank payment back, and
 * anything that names no open invoice of the title it was paid to waits for a person with its reason.
 */
export function createOcrPayments({ catalogue, mailer, now, portalOrigin, titleOf }: OcrPaymentDeps) {
  /** The invoice a KID names, locked; null with the reason when it names none of this title's. */
  async function invoiceForKid(tx: Tx, title: PublicationConfig, kid: string, amountOre: number, drawnOn: string): Promise<{ row: typeof invoice.$inferSelect } | { reason: UnmatchedReason }> {
    const named = readKid(kid, title.bank);
    let row: typeof invoice.$inferSelect | undefined;
    if (named?.kind === 'invoice') {
      [row] = await tx
        .select()
        .from(invoice)
        .where(and(eq(invoice.ariaInvoiceNo, named.serial), eq(invoice.kid, kid)))
        .for('update');
    } else if (named?.kind === 'mandate') {
      // An AvtaleGiro draw on a mandate's customer KID is for the claim of that due date and amount —
      // paid or not, withdrawn or not: a draw for an invoice already paid another way (or whose
      // withdrawal came too late) is a closed invoice for a person, and a reversed draw must find the
      // invoice it paid. Without an exact match, the oldest claim still out.
      const [claim] = await tx
        .select({ no: avtaleGiroClaim.ariaInvoiceNo })
        .from(avtaleGiroClaim)
        .innerJoin(invoice, eq(invoice.ariaInvoiceNo, avtaleGiroClaim.ariaInvoiceNo))
        .where(eq(avtaleGiroClaim.kid, kid))
        .orderBy(
          sql`(${avtaleGiroClaim.dueOn} = ${drawnOn} and ${avtaleGiroClaim.amountOre} = ${amountOre}) desc`,
          sql`${avtaleGiroClaim.cancelledIn} is null desc`,
          sql`${invoice.paidAt} is null desc`,
          sql`${avtaleGiroClaim.amountOre} = ${amountOre} desc`,
          asc(avtaleGiroClaim.dueOn),
        )
        .limit(1);
      if (claim) [row] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, claim.no)).for('update');
    } else {
      // KIDs from before the title's scheme (issue 21) are looked up as they were printed: only an unambiguous one counts.
      const found = await tx.select().from(invoice).where(eq(invoice.kid, kid)).limit(2).for('update');
      if (found.length === 1) row = found[0];
    }
    if (!row) return { reason: 'UNKNOWN_KID' };
    const [owner] = await tx
      .select({ titleCode: subscription.titleCode })
      .from(subscription)
      .where(eq(subscription.id, row.subscriptionId ?? ''));
    if (owner && owner.titleCode !== title.titleCode) return { reason: 'WRONG_ACCOUNT' };
    return { row };
  }

  async function applyOcr(tx: Tx, fileId: string, item: Positioned<OcrTransaction>): Promise<Outcome> {
    const { transaction: t, assignment } = item;
    const title = titleOf(assignment);
    const signed = signedAmountOf(t);
    const reversal = signed < 0;
    const open = (reason: UnmatchedReason, ariaInvoiceNo: number | null = null): Outcome => ({
      outcome: 'UNMATCHED',
      reason,
      openAmountOre: signed,
      ariaInvoiceNo,
      paymentId: null,
      settled: false,
      titleCode: title?.titleCode ?? null,
    });
    if (!title) return open('WRONG_ACCOUNT');
    if (!t.kid) return open('UNKNOWN_KID');
    // No invoice is that large; the payment table holds øre up to 2^31 − 1 (21.4 million kroner).
    if (t.amount > 2_147_483_647) return open('AMOUNT_TOO_LARGE');
    const found = await invoiceForKid(tx, title, t.kid, t.amount, t.bankDate ?? t.netsDate);
    if ('reason' in found) return open(found.reason);
    const target = found.row;
    const paidOn = t.bankDate ?? t.netsDate;

    if (reversal) {
      // The bank takes back a payment it gave us: the newest bank payment of that amount on the invoice.
      const [original] = await tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, target.ariaInvoiceNo), eq(payment.provider, 'bank'), eq(payment.status, 'CAPTURED'), eq(payment.amountOre, t.amount)))
        .orderBy(sql`${payment.createdAt} desc`)
        .limit(1)
        .for('update');
      if (!original) return open('REVERSAL_WITHOUT_PAYMENT', target.ariaInvoiceNo);
      await tx
        .update(payment)
        .set({ status: 'REFUNDED', errorCode: 'BANK_REVERSAL', updatedAt: now(), details: sql`${payment.details} || ${JSON.stringify({ reversedIn: fileId, reversedSeq: item.seq })}::jsonb` })
        .where(eq(payment.id, original.id));
      if (target.paidAt && (await paidSoFar(tx, target.ariaInvoiceNo)) < target.amountOre && target.settledBy !== 'CREDIT') {
        await tx.update(invoice).set({ paidAt: null, settledBy: null }).where(eq(invoice.ariaInvoiceNo, target.ariaInvoiceNo));
      }
      return { outcome: 'REVERSED', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId: original.id, settled: false, titleCode: title.titleCode };
    }

    if (target.paidAt) return open('INVOICE_CLOSED', target.ariaInvoiceNo);
    const at = now();
    const paymentId = randomUUID();
    const method = t.transactionType === OCR_TRANSACTION_TYPES.AVTALEGIRO ? 'AVTALEGIRO' : 'BANKGIRO';
    await tx.insert(payment).values({
      id: paymentId,
      idempotencyKey: `bank:${fileId}:${item.seq}`,
      purpose: 'INVOICE',
      method,
      amountOre: t.amount,
      status: 'CAPTURED',
      userId: null,
      ariaAccountNo: target.ariaAccountNo,
      subscriptionId: target.subscriptionId,
      ariaInvoiceNo: target.ariaInvoiceNo,
      provider: 'bank',
      providerReference: `${fileId}:${item.seq}`,
      returnUrl: '/fakturaoversikt',
      details: { transactionType: t.transactionType, bankDate: t.bankDate, netsDate: t.netsDate, debitAccount: t.debitAccount, archiveReference: t.archiveReference },
      createdAt: at,
      updatedAt: at,
      settledAt: osloNoonOf(paidOn),
    });
    await enqueuePaymentReceipt(tx, { mailer, catalogue, portalOrigin }, paymentId);
    const paid = await paidSoFar(tx, target.ariaInvoiceNo);
    if (paid < target.amountOre) return { outcome: 'PARTIAL', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: false, titleCode: title.titleCode };
    await tx
      .update(invoice)
      .set({ paidAt: osloNoonOf(paidOn), settledBy: method })
      .where(eq(invoice.ariaInvoiceNo, target.ariaInvoiceNo));
    const excess = paid - target.amountOre;
    return excess > 0
      ? { outcome: 'OVERPAID', reason: 'OVERPAYMENT', openAmountOre: excess, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: true, titleCode: title.titleCode }
      : { outcome: 'SETTLED', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: true, titleCode: title.titleCode };
  }

  return applyOcr;
}
