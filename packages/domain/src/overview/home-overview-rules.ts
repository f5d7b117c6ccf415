// What the home page tells about the overview (issue 25.10), as plain code without zod so the home
// page uses it without taking schemas along (docs/decisions/020). home-overview.ts re-exports it
// beside the overview's schema.
import { compareIsoDates } from '../core/dates.ts';
import type { Invoice } from '../billing/billing.ts';
import type { HomeOverview } from './home-overview.ts';
import { renewalDay } from '../subscription/paid-period.ts';
import { priceTerms, type PricedSubscription } from '../subscription/price-terms-rules.ts';
import { hasAccess, isPaying, userFacingState, type ClassifiableSubscription, type PaymentMethod } from '../subscription/subscription-rules.ts';

/** One line of the agenda. `attention` items need the subscriber; the rest are for information. */
export type AgendaItem =
  | { kind: 'overdueInvoice'; invoice: Invoice }
  | { kind: 'failedCharge'; invoice: Invoice }
  | { kind: 'avtaleGiroPending' }
  | { kind: 'pendingInvitations'; count: number }
  /** An unpaid invoice the bank draws by itself (AvtaleGiro): never presented as needing action. */
  | { kind: 'scheduledDraw'; invoice: Invoice; on: string }
  /** An unpaid invoice, not due yet, that the subscriber pays themselves. */
  | { kind: 'invoiceDue'; invoice: Invoice }
  /** No invoice out yet: the next period's price, when and how it is charged. */
  | { kind: 'nextCharge'; on: string; amountOre: number; method: PaymentMethod };

export interface HomeAgenda {
  attention: AgendaItem[];
  /** The next payment (one item), when there is one to tell. */
  nextPayment: AgendaItem | null;
}

export interface AgendaSubscription extends ClassifiableSubscription, PricedSubscription {
  currentPeriodEnd: string;
  cancelledAt: string | null;
  pendingChange: { on: string } | null;
  sharedFrom: unknown;
  paymentMethod: PaymentMethod;
}

/**
 * What the home page tells about the overview on `today`. An invoice is urgent only when it is
 * overdue or its charge failed; one the bank will draw with AvtaleGiro (a claim sent, or an
 * AvtaleGiro subscriber with a confirmed mandate and an invoice not yet due) "trekkes
 * automatisk" on its date, so the subscriber is never invited to pay twice.
 */
export function homeAgenda(subscription: AgendaSubscription, overview: HomeOverview, today: string): HomeAgenda {
  const attention: AgendaItem[] = [];
  let nextPayment: AgendaItem | null = null;
  const payment = overview.payment;
  if (payment) {
    const failed = new Set(payment.failedChargeInvoiceNos);
    const open = [...payment.openInvoices].sort((a, b) => compareIsoDates(a.dueOn, b.dueOn) || a.ariaInvoiceNo - b.ariaInvoiceNo);
    for (const invoice of open) {
      // A charge the provider refused, or a draw the bank did not make (AvtaleGiro): the subscriber has to pay it now.
      if (failed.has(invoice.ariaInvoiceNo) || invoice.collection === 'AVTALEGIRO_FAILED') attention.push({ kind: 'failedCharge', invoice });
      else if (invoice.status === 'OVERDUE' && invoice.avtaleGiroDrawOn === null) attention.push({ kind: 'overdueInvoice', invoice });
    }
    const upcoming = open.find(
      (invoice) => invoice.status !== 'PAID' && !failed.has(invoice.ariaInvoiceNo) && !attention.some((item) => 'invoice' in item && item.invoice.ariaInvoiceNo === invoice.ariaInvoiceNo),
    );
    if (payment.method === 'AVTALEGIRO' && payment.avtaleGiroStatus === 'PENDING') attention.push({ kind: 'avtaleGiroPending' });
    if (upcoming) {
      const drawOn = upcoming.avtaleGiroDrawOn ?? (payment.method === 'AVTALEGIRO' && payment.avtaleGiroStatus === 'ACTIVE' ? upcoming.dueOn : null);
      nextPayment = drawOn ? { kind: 'scheduledDraw', invoice: upcoming, on: drawOn } : { kind: 'invoiceDue', invoice: upcoming };
    } else if (renews(subscription, today)) {
      const terms = priceTerms(subscription, today);
      const on = renewalDay(subscription.currentPeriodEnd);
      // The period from the renewal day is priced as it will be then: the regular price once an offer has ended.
      const amountOre = terms.kind === 'introductory' && terms.regularFrom > on ? terms.introPriceOre : terms.priceOre;
      nextPayment = { kind: 'nextCharge', on, amountOre, method: payment.method };
    }
  }
  if (overview.pendingInvitations > 0) attention.push({ kind: 'pendingInvitations', count: overview.pendingInvitations });
  return { attention, nextPayment };
}

/** The subscription goes on into a new paid period: own, with access, not cancelled, and something to pay. */
function renews(subscription: AgendaSubscription, today: string): boolean {
  if (subscription.sharedFrom) return false;
  const state = userFacingState(subscription, today);
  if (state === 'cancelled' || state === 'expired' || state === 'pending') return false;
  if (!hasAccess(subscription) || subscription.priceOre <= 0) return false;
  // A trial is not paying today (SPEC §4), but it goes on at the regular price when the month ends.
  return isPaying(subscription) || subscription.introductoryPrice !== null;
}
