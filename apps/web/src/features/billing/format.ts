import { formatKroner, formatLongDate, osloToday, type InvoiceSettlement, type InvoiceStatus, type PaymentStatus } from '@minside/domain';

// The house formats (packages/domain format.ts), here for the billing pages that import them from this file.
export { formatInstant, formatKroner, formatLongDate, formatPeriod, formatShortDate } from '@minside/domain';

/** How a paid invoice was settled, after "Betalt {dato}"; CREDIT, STREX and unknown say only when. */
const settledWith: Partial<Record<InvoiceSettlement, string>> = {
  BANKGIRO: 'i nettbank',
  AVTALEGIRO: 'med AvtaleGiro',
  VIPPS: 'med Vipps',
  'SWEDBANK-PPG': 'med kort',
};

/**
 * How and when a paid invoice was paid: "Betalt 3. mars 2026 i nettbank" (the Oslo day of
 * `paidAt`; a bank payment's `paidAt` is noon Oslo of the bank's payment date). Null when it is
 * not paid, or paid without a recorded time (the status badge alone says Betalt then).
 */
export function paidText(invoice: { status: InvoiceStatus; paidAt?: string | null; settledBy?: InvoiceSettlement | null; creditedOre?: number }): string | null {
  if (invoice.status !== 'PAID' || !invoice.paidAt) return null;
  const at = new Date(invoice.paidAt);
  if (Number.isNaN(at.getTime())) return null;
  const how = invoice.settledBy ? settledWith[invoice.settledBy] : undefined;
  const day = formatLongDate(osloToday(at));
  // Settled by a credit note: a complaint's credit set off against it (paid with what the subscriber
  // had to their credit), or a cancelled invoice or a 100 % discount (nothing was paid).
  if (invoice.settledBy === 'CREDIT') return (invoice.creditedOre ?? 0) > 0 ? `Betalt med kreditnota ${day}` : `Kreditert ${day}`;
  return how ? `Betalt ${day} ${how}` : `Betalt ${day}`;
}

/**
 * What is under way on an open invoice, a line each: the bank's AvtaleGiro draw ("Trekkes med
 * AvtaleGiro 5. desember 2026"), a credit note set off against it ("Fratrukket kreditnota 25 kr – 624 kr å
 * betale") and a part-payment ("Delbetalt 200 kr – 449 kr gjenstår").
 * Empty when nothing is under way.
 */
export function openText(invoice: { status: InvoiceStatus; paidOre: number; creditedOre?: number; openOre: number; avtaleGiroDrawOn: string | null }): string[] {
  if (invoice.status === 'PAID') return [];
  const parts: string[] = [];
  // A credit note set off against it (a complaint credited on this invoice): less is due, not part-paid.
  const credited = invoice.creditedOre ?? 0;
  if (credited > 0) parts.push(invoice.paidOre > 0 ? `Fratrukket kreditnota ${formatKroner(credited)}` : `Fratrukket kreditnota ${formatKroner(credited)} – ${formatKroner(invoice.openOre)} å betale`);
  // Past its due date the claim waits for the bank's answer (a draw on a holiday comes the next banking day).
  if (invoice.avtaleGiroDrawOn)
    parts.push(
      invoice.status === 'OVERDUE'
        ? `Trekk med AvtaleGiro ${formatLongDate(invoice.avtaleGiroDrawOn)} – venter på svar fra banken`
        : `Trekkes med AvtaleGiro ${formatLongDate(invoice.avtaleGiroDrawOn)}`,
    );
  if (invoice.paidOre > 0) parts.push(`Delbetalt ${formatKroner(invoice.paidOre)} – ${formatKroner(invoice.openOre)} gjenstår`);
  return parts;
}

/**
 * What the return page does with a payment's state:
 * - waiting: the provider has not answered yet (looked up again shortly);
 * - succeeded: a receipt;
 * - cancelled: the user stopped it, nothing was charged: a retry;
 * - failed: the provider refused or timed out: a retry or another method;
 * - refunded: it was charged and paid back (the invoice was already paid).
 */
export type PaymentOutcome = 'waiting' | 'succeeded' | 'cancelled' | 'failed' | 'refunded';

export function paymentOutcome(status: PaymentStatus): PaymentOutcome {
  switch (status) {
    case 'PENDING':
      return 'waiting';
    case 'CAPTURED':
      return 'succeeded';
    case 'CANCELLED':
      return 'cancelled';
    case 'FAILED':
    case 'TIMEOUT':
      return 'failed';
    case 'REFUNDED':
      return 'refunded';
  }
}

/** The payment reference the provider sent the browser back with, if it looks like one. */
export function returnedPaymentId(search: URLSearchParams): string | null {
  const id = search.get('paymentId');
  return id && /^[\w-]{1,64}$/.test(id) ? id : null;
}
