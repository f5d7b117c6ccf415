import { describe, expect, it } from 'vitest';
import type { Invoice } from '../billing/billing.ts';
import { homeAgenda, type AgendaSubscription, type HomeOverview } from './home-overview.ts';

// Issue 25.10: a draw the bank did not make is the subscriber's to pay, on the home page as in the invoice list.

const today = '2026-12-10';
const subscription: AgendaSubscription = {
  ariaPlanID: 'ADR-KOMPLETT-M',
  planProductType: 'COMBO',
  eligibleForSharing: true,
  instStatusCode: 1,
  subsRetrieveSubscriptionAddInfo: { subscriptionInfo1: null },
  priceOre: 64_900,
  billingPeriod: 'MONTH',
  introductoryPrice: null,
  currentPeriodEnd: '2027-01-08',
  cancelledAt: null,
  pendingChange: null,
  sharedFrom: null,
  paymentMethod: 'AVTALEGIRO',
};

const drawn: Invoice = {
  ariaInvoiceNo: 80000001,
  ariaAccountNo: 4242,
  titleCode: 'ADR',
  kid: '100000800000019',
  amountOre: 64_900,
  status: 'OVERDUE',
  description: 'Komplett, 8. desember 2026 – 7. januar 2027',
  periodFrom: '2026-12-08',
  periodTo: '2027-01-07',
  dueOn: '2026-12-06',
  bankAccountNumber: '1503.12.40007',
  paidAt: null,
  settledBy: null,
  payable: true,
  paidOre: 0,
  creditedOre: 0,
  openOre: 64_900,
  avtaleGiroDrawOn: '2026-12-07',
  avtaleGiroDrawOre: 64_900,
  collection: 'AVTALEGIRO_FAILED',
  scheduledDrawOn: null,
};

const overview = (invoice: Invoice): HomeOverview => ({
  delivery: null,
  payment: { method: 'AVTALEGIRO', avtaleGiroStatus: 'ACTIVE', openInvoices: [invoice], failedChargeInvoiceNos: [] },
  pendingInvitations: 0,
});

describe('homeAgenda and AvtaleGiro', () => {
  it('a draw the bank did not make needs the subscriber, as a failed payment', () => {
    const agenda = homeAgenda(subscription, overview(drawn), today);
    expect(agenda.attention).toEqual([{ kind: 'failedCharge', invoice: drawn }]);
    // Not also "trekkes automatisk": the next payment is the period after, not this invoice.
    expect(agenda.nextPayment).not.toMatchObject({ invoice: drawn });
  });

  it('a draw still waiting for the bank is no alarm', () => {
    const waiting: Invoice = { ...drawn, collection: 'AVTALEGIRO_AWAITING_BANK' };
    const agenda = homeAgenda(subscription, overview(waiting), today);
    expect(agenda.attention).toEqual([]);
    expect(agenda.nextPayment).toMatchObject({ kind: 'scheduledDraw', on: '2026-12-07' });
  });
});
