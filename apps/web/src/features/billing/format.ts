import { formatKroner, formatLongDate, type PaymentStatus } from '@minside/domain';

export { formatKroner, formatLongDate };

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-12-03" → "03.12.2026", the short form invoices use. */
export function formatShortDate(date: string): string {
  const match = isoDate.exec(date);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : date;
}

/** An invoice period: "03.11.2026–02.12.2026". */
export function formatPeriod(from: string, to: string): string {
  return `${formatShortDate(from)}–${formatShortDate(to)}`;
}

/** An instant shown in Oslo time: "21.11.2026 kl. 13.40". */
export function formatInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('nb-NO', {
    timeZone: 'Europe/Oslo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')} kl. ${part('hour')}.${part('minute')}`;
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
