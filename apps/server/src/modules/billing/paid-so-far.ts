import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { qualified } from '../../db/qualified.ts';
import { billingDocument, creditSetOff, invoice, payment } from '../../db/schema.ts';

// The status in the aggregate, not in the where clause: the invoice's own few payments by its
// index. With `status = 'CAPTURED'` beside it, a planner without statistics (a new table) ANDed in
// the status index and read every captured payment for each one (bench/bank.ts: the import slowed
// with every payment it made).
const capturedOf = (no: SQL | number) => sql`(select coalesce(sum(p.amount_ore) filter (where p.status = 'CAPTURED'), 0) from ${payment} p where p.aria_invoice_no = ${no})`;
/** Credit notes set off against the invoice numbered `no` (a complaint credited "på neste faktura"). */
export const setOffOreOf = (no: SQL | number) => sql`(select coalesce(sum(c.amount_ore), 0) from ${creditSetOff} c where c.aria_invoice_no = ${no})`;

/**
 * What is settled on the invoice numbered `no` (an SQL expression or a number): its captured payments
 * (a netbank part-payment, a draw, a Vipps or card payment) and the credit notes set off against it
 * (a complaint credited on the next invoice). What is still open is the invoice's amount less this.
 * The one definition every reader of "what is open" uses: the pages, the charges, the bank's claims
 * and the import.
 */
export const settledOreOf = (no: SQL | number) => sql<number>`(${capturedOf(no)} + ${setOffOreOf(no)})`;

export async function paidSoFar(db: Db, ariaInvoiceNo: number): Promise<number> {
  const { rows } = (await db.execute(sql`select ${settledOreOf(ariaInvoiceNo)}::bigint as ore`)) as unknown as { rows: { ore: string | number }[] };
  return Number(rows[0]?.ore ?? 0);
}

/** The credit set off against the invoice: the part of it that was never due as money. */
export async function setOffSoFar(db: Pick<Db, 'execute'>, ariaInvoiceNo: number): Promise<number> {
  const { rows } = (await db.execute(sql`select ${setOffOreOf(ariaInvoiceNo)}::bigint as ore`)) as unknown as { rows: { ore: string | number }[] };
  return Number(rows[0]?.ore ?? 0);
}

/**
 * The credit set off against the invoice, per credit note, with the invoice that note credited (a
 * complaint's, documents/set-off.ts): what setOffSoFar sums, for a reader that must tell them apart.
 */
export function setOffsAgainst(reader: Pick<Db, 'select'>, ariaInvoiceNo: number): Promise<{ creditNoteNumber: number; ariaInvoiceNo: number; amountOre: number }[]> {
  return reader
    .select({ creditNoteNumber: creditSetOff.creditNoteNumber, ariaInvoiceNo: billingDocument.ariaInvoiceNo, amountOre: sql<number>`sum(${creditSetOff.amountOre})::int`.mapWith(Number) })
    .from(creditSetOff)
    .innerJoin(billingDocument, eq(billingDocument.number, creditSetOff.creditNoteNumber))
    .where(eq(creditSetOff.ariaInvoiceNo, ariaInvoiceNo))
    .groupBy(creditSetOff.creditNoteNumber, billingDocument.ariaInvoiceNo)
    .orderBy(creditSetOff.creditNoteNumber);
}

/** Only the captured payments: what came in as money (a credit set off against the invoice is no payment to give back). */
export async function capturedSoFar(db: Db, ariaInvoiceNo: number): Promise<number> {
  const { rows } = (await db.execute(sql`select ${capturedOf(ariaInvoiceNo)}::bigint as ore`)) as unknown as { rows: { ore: string | number }[] };
  return Number(rows[0]?.ore ?? 0);
}

/** Captured payments as a column of an invoice query (the list shows a part-paid invoice as such). */
export const paidOreColumn = sql<number>`${capturedOf(qualified(invoice.ariaInvoiceNo))}::int`;

/** Credit set off against the invoice, as a column of an invoice query ("Fratrukket kreditnota"). */
export const creditedOreColumn = sql<number>`${setOffOreOf(qualified(invoice.ariaInvoiceNo))}::int`;
