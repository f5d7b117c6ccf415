import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { qualified } from '../../../db/qualified.ts';
import { billingDocument, creditSetOff, deliveryComplaint, deliveryComplaintDay, invoice } from '../../../db/schema.ts';
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
const SET_OFF_SETTLEMENT = 'Beløpet trekkes fra neste faktura.';

interface ComplaintCreditInput {
  subscriptionId: string;
  /** "RK-100001": the complaint's case number, in the reason and the source. */
  caseNumber: string;
  caseNo: number;
  days: readonly string[];
  /** The title's value of one paper (`pausedIssueCreditOre`). */
  perIssueOre: number;
  at: Date;
}

interface CoveringInvoice {
  ariaInvoiceNo: number;
  days: string[];
  creditableOre: number;
}

/**
 * The paid invoices that paid for `days`, each with the days it covers and what is left of it to
 * credit (its amount less every credit note on it). The period's own invoice — a renewal's or an
 * order's, which starts with the period — not a plan change's top-up that covers its last part.
 * An unpaid one pays for nothing yet: its days are not credited. `lock` takes the invoices' row
 * locks, so a complaint and a customer centre's credit of the same invoice wait for each other.
 */
async function invoicesCovering(reader: Reader | Tx, subscriptionId: string, days: readonly string[], lock = false): Promise<CoveringInvoice[]> {
  const covering = new Map<number, CoveringInvoice>();
  for (const day of days) {
    const query = reader
      .select({ ariaInvoiceNo: invoice.ariaInvoiceNo })
      .from(invoice)
      .where(and(eq(invoice.subscriptionId, subscriptionId), lte(invoice.periodFrom, day), gte(invoice.periodTo, day)))
      .orderBy(asc(invoice.periodFrom), desc(invoice.createdAt))
      .limit(1);
    const [found] = lock ? await query.for('update') : await query;
    if (!found) continue;
    const [state] = await reader
      .select({
        paidAt: invoice.paidAt,
        settledBy: invoice.settledBy,
        creditableOre: sql<number>`(${invoice.amountOre} - coalesce((select sum(d.amount_ore) from ${billingDocument} d where d.aria_invoice_no = ${qualified(invoice.ariaInvoiceNo)} and d.kind = 'CREDIT_NOTE'), 0))::int`,
      })
      .from(invoice)
      .where(eq(invoice.ariaInvoiceNo, found.ariaInvoiceNo));
    if (!state?.paidAt || state.settledBy === 'CREDIT' || state.creditableOre <= 0) continue;
    const entry = covering.get(found.ariaInvoiceNo) ?? { ariaInvoiceNo: found.ariaInvoiceNo, creditableOre: state.creditableOre, days: [] };
    entry.days.push(day);
    covering.set(found.ariaInvoiceNo, entry);
  }
  return [...covering.values()];
}

/** The days of `days` credited already by an earlier complaint of the subscription, whatever its code: a paper is credited once. */
async function creditedBefore(reader: Reader, subscriptionId: string, days: readonly string[], exceptCaseNo: number): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const rows = await reader
    .select({ day: deliveryComplaintDay.issueDate })
    .from(deliveryComplaintDay)
    .innerJoin(deliveryComplaint, eq(deliveryComplaint.caseNo, deliveryComplaintDay.caseNo))
    .where(
      and(
        eq(deliveryComplaintDay.subscriptionId, subscriptionId),
        inArray(deliveryComplaintDay.issueDate, [...days]),
        eq(deliveryComplaint.remedy, 'CREDIT'),
        ne(deliveryComplaint.caseNo, exceptCaseNo),
      ),
    );
  return new Set(rows.map((row) => row.day));
}

/** Whether a complaint about `days` can be credited: a paper has a value, and a paid invoice paid for one of the days not credited yet. */
async function complaintCreditable(reader: Reader, subscriptionId: string, days: readonly string[], perIssueOre: number): Promise<boolean> {
  if (perIssueOre <= 0 || days.length === 0) return false;
  const credited = await creditedBefore(reader, subscriptionId, days, -1);
  return (
    (
      await invoicesCovering(
        reader,
        subscriptionId,
        days.filter((day) => !credited.has(day)),
      )
    ).length > 0
  );
}

/**
 * Credits a complaint's papers, in the complaint's transaction (its days already written): one
 * credit note per paid invoice that paid for days not credited before, never more than is left of
 * it, each waiting to be set off against the next invoice, and e-mailed. Returns the notes and the
 * total; none when nothing is left to credit.
 */
async function creditComplaint(tx: Tx, deps: DocumentMailDeps, input: ComplaintCreditInput): Promise<{ creditNoteNumbers: number[]; amountOre: number }> {
  const creditNoteNumbers: number[] = [];
  let total = 0;
  if (input.perIssueOre <= 0) return { creditNoteNumbers, amountOre: 0 };
  // The invoices' locks first: a complaint of the same days under another code, at the same moment,
  // has committed its days by the time the lock is ours, and is seen as credited below.
  const covering = await invoicesCovering(tx, input.subscriptionId, input.days, true);
  const credited = await creditedBefore(tx, input.subscriptionId, input.days, input.caseNo);
  for (const covered of covering) {
    const days = covered.days.filter((day) => !credited.has(day));
    if (days.length === 0) continue;
    const amountOre = Math.min(covered.creditableOre, days.length * input.perIssueOre);
    const reason = `Reklamasjon ${input.caseNumber}: ${days.length === 1 ? 'én avis som ikke kom som den skulle' : `${days.length} aviser som ikke kom som de skulle`}`;
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
    // One handed to the customer centre to pay back (the subscription ended, ADR 036) waits for no invoice.
    .where(and(eq(creditSetOff.subscriptionId, subscriptionId), isNull(creditSetOff.ariaInvoiceNo), isNull(creditSetOff.handedOverAt)))
    .orderBy(asc(creditSetOff.createdAt), asc(creditSetOff.creditNoteNumber))
    .for('update');
  let setOff = 0;
  for (const credit of waiting) {
    const room = amountOre - setOff;
    if (room <= 0) break;
    const used = Math.min(room, credit.amountOre);
    await tx.update(creditSetOff).set({ amountOre: used, ariaInvoiceNo, setOffAt: at }).where(eq(creditSetOff.id, credit.id));
    if (used < credit.amountOre) {
      await tx
        .insert(creditSetOff)
        .values({ id: randomUUID(), creditNoteNumber: credit.creditNoteNumber, subscriptionId, amountOre: credit.amountOre - used, ariaInvoiceNo: null, createdAt: credit.createdAt });
    }
    setOff += used;
  }
  if (setOff > 0 && setOff >= amountOre) await tx.update(invoice).set({ paidAt: at, settledBy: 'CREDIT' }).where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
  return setOff;
}

/**
 * The subscription ends at once (a withdrawal, ADR 030): every credit still waiting on it is handed to
 * the customer centre to pay back through the bank, at `at`, in the caller's transaction. No invoice
 * takes it after this — not one of the same subscription bought again (ADR 036).
 */
export async function handOverWaitingCredit(tx: Tx, subscriptionId: string, at: Date): Promise<void> {
  await tx
    .update(creditSetOff)
    .set({ handedOverAt: at })
    .where(and(eq(creditSetOff.subscriptionId, subscriptionId), isNull(creditSetOff.ariaInvoiceNo), isNull(creditSetOff.handedOverAt)));
}

/** A complaint's credit handed to the customer centre, per credit note, with the invoice that note credited. */
export interface HandedOverCredit {
  creditNoteNumber: number;
  ariaInvoiceNo: number;
  amountOre: number;
}

/**
 * The credits of the subscription handed to the customer centre from `from` (a withdrawal's moment: the
 * waiting ones in its transaction, the ones released from its invoices when they are credited, stamped
 * with that moment) until `until` (the subscription's next withdrawal, if any). The rows are the durable
 * record of what is owed; a withdrawal's list of refunds is derived from them.
 */
export async function creditsHandedOver(reader: Reader | Tx, subscriptionId: string, from: Date, until: Date | null = null): Promise<HandedOverCredit[]> {
  return reader
    .select({ creditNoteNumber: creditSetOff.creditNoteNumber, ariaInvoiceNo: billingDocument.ariaInvoiceNo, amountOre: sql<number>`sum(${creditSetOff.amountOre})::int`.mapWith(Number) })
    .from(creditSetOff)
    .innerJoin(billingDocument, eq(billingDocument.number, creditSetOff.creditNoteNumber))
    .where(and(eq(creditSetOff.subscriptionId, subscriptionId), gte(creditSetOff.handedOverAt, from), until ? lt(creditSetOff.handedOverAt, until) : undefined))
    .groupBy(creditSetOff.creditNoteNumber, billingDocument.ariaInvoiceNo)
    .orderBy(asc(creditSetOff.creditNoteNumber));
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
