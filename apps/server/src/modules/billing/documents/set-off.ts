import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { billingDocument, creditSetOff, invoice } from '../../../db/schema.ts';
import { issueCreditNote } from './issue.ts';
import { enqueueCreditNoteMail, type DocumentMailDeps } from './receipts.ts';

/**
 * Credit "på neste faktura" (issue 23): a delivery complaint whose remedy is CREDIT is credited with
 * a credit note on the invoice that paid for the missed papers, at once, and the amount is set off
 * against the subscription's next renewal invoice — what is due on that one is less by as much.
 * No money moves: nothing is refunded, and nothing is marked paid that a bank or provider has not
 * paid, except an invoice the credit covers in full. See ADR 026.
 */

type Reader = Pick<Db, 'select'>;

/** What the credit note says happens to the money. */
export const SET_OFF_SETTLEMENT = 'Beløpet trekkes fra neste faktura.';

export interface ComplaintCreditInput {
  subscriptionId: string;
  /** "RK-100001": the complaint's case number, in the reason and the source. */
  caseNumber: string;
  days: readonly string[];
  /** The title's value of one paper (`pausedIssueCreditOre`). */
  perIssueOre: number;
  at: Date;
}

/** The invoices that paid for `days`, each with the days it covers and what is left of it to credit. */
async function invoicesCovering(reader: Reader, subscriptionId: string, days: readonly string[]): Promise<{ ariaInvoiceNo: number; days: string[]; creditableOre: number }[]> {
  const covering = new Map<number, { ariaInvoiceNo: number; days: string[]; creditableOre: number }>();
  for (const day of days) {
    // The newest invoice for the period the day is in: a plan change's replacement over the first.
    const [found] = await reader
      .select({
        ariaInvoiceNo: invoice.ariaInvoiceNo,
        creditableOre: sql<number>`(${invoice.amountOre} - coalesce((select sum(d.amount_ore) from ${billingDocument} d where d.aria_invoice_no = ${invoice.ariaInvoiceNo} and d.kind = 'CREDIT_NOTE'), 0))::int`,
      })
      .from(invoice)
      .where(and(eq(invoice.subscriptionId, subscriptionId), lte(invoice.periodFrom, day), gte(invoice.periodTo, day)))
      .orderBy(desc(invoice.createdAt), desc(invoice.ariaInvoiceNo))
      .limit(1);
    if (!found || found.creditableOre <= 0) continue;
    const entry = covering.get(found.ariaInvoiceNo) ?? { ...found, days: [] };
    entry.days.push(day);
    covering.set(found.ariaInvoiceNo, entry);
  }
  return [...covering.values()];
}

/** Whether a complaint about `days` can be credited: a paper has a value and an invoice paid for one of the days. */
export async function complaintCreditable(reader: Reader, subscriptionId: string, days: readonly string[], perIssueOre: number): Promise<boolean> {
  if (perIssueOre <= 0 || days.length === 0) return false;
  return (await invoicesCovering(reader, subscriptionId, days)).length > 0;
}

/**
 * Credits a complaint's papers, in the complaint's transaction: one credit note per invoice that
 * paid for the days (never more than is left of it), each waiting to be set off against the next
 * invoice, and e-mailed. Returns the notes and the total; no notes when no invoice paid for the days.
 */
export async function creditComplaint(tx: Tx, deps: DocumentMailDeps, input: ComplaintCreditInput): Promise<{ creditNoteNumbers: number[]; amountOre: number }> {
  const creditNoteNumbers: number[] = [];
  let total = 0;
  if (input.perIssueOre <= 0) return { creditNoteNumbers, amountOre: 0 };
  for (const covered of await invoicesCovering(tx, input.subscriptionId, input.days)) {
    const amountOre = Math.min(covered.creditableOre, covered.days.length * input.perIssueOre);
    const reason = `Reklamasjon ${input.caseNumber}: ${covered.days.length === 1 ? 'én avis' : `${covered.days.length} aviser`} som ikke kom som den skulle`;
    const number = await issueCreditNote(tx, deps.catalogue, {
      ariaInvoiceNo: covered.ariaInvoiceNo,
      amountOre,
      reason,
      settlement: SET_OFF_SETTLEMENT,
      source: `complaint:${input.caseNumber}:${covered.ariaInvoiceNo}`,
      at: input.at,
    });
    await tx.insert(creditSetOff).values({ id: randomUUID(), creditNoteNumber: number, subscriptionId: input.subscriptionId, amountOre, ariaInvoiceNo: null, createdAt: input.at });
    await enqueueCreditNoteMail(tx, deps, { number, ariaInvoiceNo: covered.ariaInvoiceNo, amountOre, settlement: SET_OFF_SETTLEMENT });
    creditNoteNumbers.push(number);
    total += amountOre;
  }
  return { creditNoteNumbers, amountOre: total };
}

/**
 * Sets the subscription's waiting credit off against a renewal invoice just inserted (before its
 * document is written, so the document shows it), oldest credit first, at most the invoice's amount:
 * a credit larger than the invoice is split and the rest waits for the one after. An invoice the
 * credit covers in full is settled by it. The waiting rows are locked, so two invoices issued at once
 * never use the same credit.
 */
export async function setOffWaitingCredit(tx: Tx, subscriptionId: string, ariaInvoiceNo: number, amountOre: number, at: Date): Promise<number> {
  const waiting = await tx
    .select()
    .from(creditSetOff)
    .where(and(eq(creditSetOff.subscriptionId, subscriptionId), isNull(creditSetOff.ariaInvoiceNo)))
    .orderBy(asc(creditSetOff.createdAt), asc(creditSetOff.creditNoteNumber))
    .for('update');
  let setOff = 0;
  for (const credit of waiting) {
    const room = amountOre - setOff;
    if (room <= 0) break;
    const used = Math.min(room, credit.amountOre);
    await tx.update(creditSetOff).set({ amountOre: used, ariaInvoiceNo, setOffAt: at }).where(eq(creditSetOff.id, credit.id));
    if (used < credit.amountOre) {
      await tx.insert(creditSetOff).values({ id: randomUUID(), creditNoteNumber: credit.creditNoteNumber, subscriptionId, amountOre: credit.amountOre - used, ariaInvoiceNo: null, createdAt: credit.createdAt });
    }
    setOff += used;
  }
  if (setOff > 0 && setOff >= amountOre) await tx.update(invoice).set({ paidAt: at, settledBy: 'CREDIT' }).where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
  return setOff;
}

/** Complaint credits as the delivery area uses them: whether the form may offer CREDIT, and the credit itself. */
export interface ComplaintCrediting {
  creditable(subscriptionId: string, days: readonly string[], perIssueOre: number): Promise<boolean>;
  credit(tx: Tx, input: ComplaintCreditInput): Promise<{ creditNoteNumbers: number[]; amountOre: number }>;
}

export function createComplaintCrediting(deps: DocumentMailDeps & { db: Db }): ComplaintCrediting {
  return {
    creditable: (subscriptionId, days, perIssueOre) => complaintCreditable(deps.db, subscriptionId, days, perIssueOre),
    credit: (tx, input) => creditComplaint(tx, deps, input),
  };
}
