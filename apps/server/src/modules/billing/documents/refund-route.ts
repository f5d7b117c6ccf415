import { and, eq } from 'drizzle-orm';
import type { billingErrorCodes } from '@minside/domain';
import type { Db } from '../../../db/client.ts';
import { billingDocument, invoice, payment } from '../../../db/schema.ts';
import { fixedAvtaleGiroDraw, liveClaimColumn } from '../claim-window.ts';
import { capturedSoFar, setOffSoFar } from '../paid-so-far.ts';
import type { PaymentRow } from '../payment-record.ts';

/**
 * How an invoice stands for crediting (documents/credit.ts): the credit notes it has so far, the money
 * that keeps an unpaid one from being cancelled, and how the money paid on it goes back — through the
 * provider, or by a person through the bank. One rule, read by `creditInvoice` when it cancels, refunds
 * or refuses, and by whoever must say beforehand what a credit will do (the withdrawal's confirmation,
 * ADR 036; the cancellation's, cancelled-periods.ts).
 */

/** The error code a payment refunded because its invoice was credited carries. */
export const CREDITED = 'INVOICE_CREDITED';

/** A credit note's source when it credits a whole invoice (credit.ts's own); a complaint's credits some papers of it. */
const creditsWhole = (source: string) => source.startsWith('cancel:') || source.startsWith('refund:');

/** The invoice's credit notes so far, by number and source. */
function creditNotesOf(reader: Pick<Db, 'select'>, ariaInvoiceNo: number): Promise<{ number: number; source: string }[]> {
  return reader
    .select({ number: billingDocument.number, source: billingDocument.source })
    .from(billingDocument)
    .where(and(eq(billingDocument.ariaInvoiceNo, ariaInvoiceNo), eq(billingDocument.kind, 'CREDIT_NOTE')));
}

/**
 * The credit note that credited the whole invoice, if one did: `refunded` when the payment went back at
 * the provider (`refund:`), not when the invoice was cancelled unpaid (`cancel:`).
 */
export async function wholeCreditNoteOf(reader: Pick<Db, 'select'>, ariaInvoiceNo: number): Promise<{ number: number; refunded: boolean } | undefined> {
  const whole = (await creditNotesOf(reader, ariaInvoiceNo)).find((note) => creditsWhole(note.source));
  return whole ? { number: whole.number, refunded: whole.source.startsWith('refund:') } : undefined;
}

/**
 * The invoice's credit notes so far: `whole` when it was cancelled or refunded (credit.ts's own),
 * `partly` when a complaint credited some of its papers (documents/set-off.ts).
 */
export async function creditedSoFar(reader: Pick<Db, 'select'>, ariaInvoiceNo: number): Promise<{ whole: boolean; partly: boolean }> {
  const notes = await creditNotesOf(reader, ariaInvoiceNo);
  const whole = notes.some((note) => creditsWhole(note.source));
  return { whole, partly: !whole && notes.length > 0 };
}

/** What is known of a paid invoice (or one with money in) for the refund rule. */
export interface PaidInvoiceFacts {
  amountOre: number;
  paidAt: Date | null;
  /** Its CAPTURED payments. */
  captured: readonly PaymentRow[];
  /** A payment refunded at the provider by an earlier credit of it that stopped before its note. */
  refundedBefore: PaymentRow | undefined;
  /** A complaint's credit set off against it: never due as money. */
  setOffOre: number;
  /** A complaint credited some of its papers (a credit note, none crediting it whole). */
  partlyCredited: boolean;
}

/** Why a person pays the money back through the bank: the refusal `creditInvoice` answers. */
type PersonRefundCode = Extract<keyof typeof billingErrorCodes, 'refundNeedsBank' | 'invoicePartlyPaid' | 'invoicePartlyCredited'>;

export type RefundRoute =
  /** Refunded at the provider: the one payment, with Vipps or to the card (or refunded there already: `refundedBefore`). */
  | { by: 'provider'; payment: PaymentRow; method: 'VIPPS' | 'CARD'; refundedBefore: boolean }
  /**
   * Paid back from the bank by the customer centre, and credited in the accounting system.
   * `inTheBank`: every payment on it came through the bank (provider `bank`), or none came here (paid
   * outside Min Side) — not one made with Vipps or a card that cannot be refunded there.
   */
  | { by: 'person'; code: PersonRefundCode; inTheBank: boolean };

/**
 * How the money paid on an invoice goes back. Only one payment refunded whole at Vipps or the card
 * can go back at the provider, and only when it paid what was due as money — the amount less a
 * complaint's credit set off against it. Anything else goes back by a person through the bank: paid
 * in the bank or outside Min Side (no payment here, or one of provider `bank`), paid in parts or not
 * what was due, or credited in part already by a complaint (the whole invoice again would credit
 * those papers twice).
 */
export function refundRoute(facts: PaidInvoiceFacts): RefundRoute {
  const person = (code: PersonRefundCode): RefundRoute => ({ by: 'person', code, inTheBank: facts.captured.every((row) => row.provider === 'bank') });
  if (facts.partlyCredited) return person('invoicePartlyCredited');
  const [paid, ...more] = facts.refundedBefore ? [facts.refundedBefore] : facts.captured;
  // Paid, but not through us (an earlier system's record, or the seed's history): nothing here to refund from.
  if (!paid && facts.paidAt) return person('refundNeedsBank');
  if (!paid || more.length > 0 || paid.amountOre !== facts.amountOre - facts.setOffOre) return person('invoicePartlyPaid');
  if (paid.provider === 'bank') return person('refundNeedsBank');
  return { by: 'provider', payment: paid, method: paid.method === 'VIPPS' ? 'VIPPS' : 'CARD', refundedBefore: facts.refundedBefore !== undefined };
}

/** The refund rule for the invoice as it stands now, read with `reader` (a transaction's, to see what it sees). */
export async function refundRouteOf(reader: Pick<Db, 'select' | 'execute'>, target: { ariaInvoiceNo: number; amountOre: number; paidAt: Date | null }): Promise<RefundRoute> {
  const payments = await reader.select().from(payment).where(eq(payment.ariaInvoiceNo, target.ariaInvoiceNo));
  return refundRoute({
    amountOre: target.amountOre,
    paidAt: target.paidAt,
    captured: payments.filter((row) => row.status === 'CAPTURED'),
    refundedBefore: payments.find((row) => row.status === 'REFUNDED' && row.errorCode === CREDITED),
    setOffOre: await setOffSoFar(reader, target.ariaInvoiceNo),
    partlyCredited: (await creditedSoFar(reader, target.ariaInvoiceNo)).partly,
  });
}

/**
 * Money on an unpaid invoice that keeps a credit from cancelling it: `creditInvoice` refuses with
 * `code`, and a person pays it back. Money came in on it (a netbank part-payment: `capturedOre`), or
 * the bank will draw it whatever we do (an AvtaleGiro claim too late to withdraw: `drawOre`, what the
 * claim draws). Undefined when nothing did and nothing will: the credit cancels it.
 */
export interface MoneyIn {
  code: Extract<keyof typeof billingErrorCodes, 'invoicePartlyPaid' | 'invoiceDrawnByAvtaleGiro'>;
  capturedOre: number;
  drawOre: number;
}

/** MoneyIn of the unpaid invoice as of `today`, read with `reader` (the crediting's transaction, under the invoice's lock). */
export async function moneyInOf(reader: Db, ariaInvoiceNo: number, today: string): Promise<MoneyIn | undefined> {
  const capturedOre = await capturedSoFar(reader, ariaInvoiceNo);
  const drawn = (await fixedAvtaleGiroDraw(reader, ariaInvoiceNo, today)) !== null;
  const [claim] = drawn
    ? await reader
        .select({ live: liveClaimColumn(today) })
        .from(invoice)
        .where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo))
    : [];
  const drawOre = Number(claim?.live?.ore ?? 0);
  if (capturedOre > 0) return { code: 'invoicePartlyPaid', capturedOre, drawOre };
  // An AvtaleGiro draw the bank no longer lets go of would take the money for a cancelled invoice.
  if (drawn) return { code: 'invoiceDrawnByAvtaleGiro', capturedOre, drawOre };
  return undefined;
}
