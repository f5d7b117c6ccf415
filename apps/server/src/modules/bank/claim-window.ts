import { and, eq, isNull, sql } from 'drizzle-orm';
import { addDays } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { avtaleGiroClaim, invoice } from '../../db/schema.ts';

/**
 * The AvtaleGiro claim's calendar (ADR 024), in one place for the claim run, the import and the
 * billing guards: when an invoice goes to the bank, until when it can be taken back, and from
 * when the bank's draw is certain — so nothing else may take the same money.
 */

/** Nets wants claims at least this many days before the due date… */
export const CLAIM_MIN_LEAD_DAYS = 4;
/** …and the portal sends them no earlier than this (renewal invoices are due 12 days after they are issued). */
export const CLAIM_MAX_LEAD_DAYS = 14;
/** A cancellation (type 93) must reach the bank at least this many days before the due date. */
export const CANCEL_MIN_LEAD_DAYS = 2;

/**
 * True when a claim due on `dueOn` can no longer be withdrawn in time: the next claim run may be
 * tomorrow's (today's may have run), and it withdraws only claims due `CANCEL_MIN_LEAD_DAYS` after
 * its own date. From then on the bank draws, and paying the invoice another way would pay it twice.
 */
export function drawIsFixed(dueOn: string, today: string): boolean {
  return dueOn < addDays(today, CANCEL_MIN_LEAD_DAYS + 1);
}

/** The due date of the invoice's claim at the bank, if one is out and not withdrawn (a column for invoice queries). */
export const liveClaimDueOn = sql<string | null>`(select to_char(c.due_on, 'YYYY-MM-DD') from ${avtaleGiroClaim} c where c.aria_invoice_no = ${invoice.ariaInvoiceNo} and c.cancelled_in is null)`;

/** The due date the bank will draw the invoice on, when that can no longer be stopped; null otherwise. */
export async function fixedAvtaleGiroDraw(tx: Tx, ariaInvoiceNo: number, today: string): Promise<string | null> {
  const [claim] = await tx
    .select({ dueOn: avtaleGiroClaim.dueOn })
    .from(avtaleGiroClaim)
    .where(and(eq(avtaleGiroClaim.ariaInvoiceNo, ariaInvoiceNo), isNull(avtaleGiroClaim.cancelledIn)));
  return claim && drawIsFixed(claim.dueOn, today) ? claim.dueOn : null;
}
