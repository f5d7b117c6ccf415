import { type Invoice, type InvoiceSettlement } from '@minside/domain';
import type { invoice } from '../../db/schema.ts';
import { claimStillInTime, drawIsFixed, failedDrawColumn, liveClaimColumn, onActiveMandateColumn } from './claim-window.ts';
import { creditedOreColumn, paidOreColumn } from './paid-so-far.ts';

// How an invoice is shown (the list, the pay-link page, the home page, the admin CLI): its status,
// what is still open and how it gets paid, from the row and the money columns read with it. Apart
// from the service because it is a pure function of what was read, used by every reader of invoices.

export type InvoiceRow = typeof invoice.$inferSelect;

function invoiceStatus(row: Pick<InvoiceRow, 'paidAt' | 'dueOn'>, today: string): Invoice['status'] {
  if (row.paidAt) return 'PAID';
  return row.dueOn < today ? 'OVERDUE' : 'UNPAID';
}

/** What the bank and the providers have said of an invoice's money, read with it (invoiceMoney). */
export interface InvoiceMoney {
  paidOre: number;
  /** Credit notes set off against it. */
  creditedOre: number;
  /**
   * Its AvtaleGiro claim at the bank while the bank may draw it: the due date, and what it draws
   * (more than is open when a part-payment came too late to withdraw it).
   */
  claim: { dueOn: string; ore: number } | null;
  /** The bank's draw failed: not drawn in the days a draw can take, or taken back (claim-window.ts). */
  drawFailed: boolean;
  /** The subscription pays by AvtaleGiro on a mandate the bank has confirmed. */
  onActiveMandate: boolean;
}

/** The columns of InvoiceMoney as of `today`, for any query of invoices. */
export function invoiceMoney(today: string) {
  return { paidOre: paidOreColumn, creditedOre: creditedOreColumn, claim: liveClaimColumn(today), drawFailed: failedDrawColumn(today), onActiveMandate: onActiveMandateColumn };
}

/**
 * How the invoice gets paid (issue 25.6), from what the bank has said: a live claim is the bank's
 * to draw (waiting for its answer once the day has passed); a failed draw gives it back to the
 * payer; an unclaimed invoice on a confirmed mandate is the bank's while a claim still reaches it in time.
 */
function collectionOf(
  row: Pick<InvoiceRow, 'dueOn'>,
  status: Invoice['status'],
  money: Pick<InvoiceMoney, 'claim' | 'drawFailed' | 'onActiveMandate'>,
  today: string,
): { collection: Invoice['collection']; scheduledDrawOn: string | null } {
  if (status === 'PAID') return { collection: 'PAID', scheduledDrawOn: null };
  if (money.claim) return { collection: money.claim.dueOn < today ? 'AVTALEGIRO_AWAITING_BANK' : 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: money.claim.dueOn };
  if (money.drawFailed) return { collection: 'AVTALEGIRO_FAILED', scheduledDrawOn: null };
  if (money.onActiveMandate && claimStillInTime(row.dueOn, today)) return { collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: row.dueOn };
  return { collection: status === 'OVERDUE' ? 'OVERDUE' : 'DUE', scheduledDrawOn: null };
}

/** What is still to pay on an unpaid invoice: its amount less what came in and what credit notes took off. */
export function openOreOf(row: Pick<InvoiceRow, 'amountOre'>, money: Pick<InvoiceMoney, 'paidOre' | 'creditedOre'>): number {
  return Math.max(0, row.amountOre - money.creditedOre - money.paidOre);
}

export function toInvoiceDto(row: InvoiceRow, titleCode: string, today: string, money: InvoiceMoney): Invoice {
  const status = invoiceStatus(row, today);
  const openOre = status === 'PAID' ? 0 : openOreOf(row, money);
  // Once the bank's draw can no longer be withdrawn, paying another way would pay twice.
  const drawnByBank = money.claim !== null && status !== 'PAID' && drawIsFixed(money.claim.dueOn, today);
  return {
    ariaInvoiceNo: row.ariaInvoiceNo,
    ariaAccountNo: row.ariaAccountNo,
    titleCode,
    kid: row.kid,
    amountOre: row.amountOre,
    status,
    description: row.description,
    periodFrom: row.periodFrom,
    periodTo: row.periodTo,
    dueOn: row.dueOn,
    bankAccountNumber: row.bankAccountNumber,
    paidAt: row.paidAt?.toISOString() ?? null,
    settledBy: (row.settledBy as InvoiceSettlement | null) ?? null,
    payable: status !== 'PAID' && openOre > 0 && !drawnByBank,
    paidOre: status === 'PAID' ? Math.max(row.amountOre - money.creditedOre, money.paidOre) : money.paidOre,
    creditedOre: money.creditedOre,
    openOre,
    avtaleGiroDrawOn: status === 'PAID' ? null : (money.claim?.dueOn ?? null),
    avtaleGiroDrawOre: status === 'PAID' ? null : (money.claim?.ore ?? null),
    ...collectionOf(row, status, money, today),
  };
}
