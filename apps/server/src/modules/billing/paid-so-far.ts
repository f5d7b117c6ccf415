import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { invoice, payment } from '../../db/schema.ts';

/**
 * What has come in on an invoice so far: the sum of its captured payments (a netbank part-payment,
 * a draw, a Vipps or card payment). What is still open is the invoice's amount less this.
 */
export async function paidSoFar(db: Db, ariaInvoiceNo: number): Promise<number> {
  // The status in the aggregate, not in the where clause: the invoice's own few payments by its
  // index. With `status = 'CAPTURED'` beside it, a planner without statistics (a new table) ANDed
  // in the status index and read every captured payment for each one (bench/bank.ts: the import
  // slowed with every payment it made).
  const [sum] = await db
    .select({ ore: sql<string>`coalesce(sum(${payment.amountOre}) filter (where ${payment.status} = 'CAPTURED'), 0)` })
    .from(payment)
    .where(eq(payment.ariaInvoiceNo, ariaInvoiceNo));
  return Number(sum?.ore ?? 0);
}

/** The same sum as a column of an invoice query (the list shows a part-paid invoice as such). */
export const paidOreColumn = sql<number>`(select coalesce(sum(p.amount_ore) filter (where p.status = 'CAPTURED'), 0)::int from ${payment} p where p.aria_invoice_no = ${invoice.ariaInvoiceNo})`;
