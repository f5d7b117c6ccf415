import { sql, type SQL } from 'drizzle-orm';
import { addDays } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { qualified } from '../../db/qualified.ts';
import { avtaleGiroClaim, invoice, payment, paymentAgreement, subscription } from '../../db/schema.ts';

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
 * Days after the due date in which the bank's draw may still come in: a due date on a weekend or
 * a holiday is drawn on the next banking day, and its OCR file arrives the day after. A claim not
 * drawn by then was not drawn (no cover, stopped by the payer): the invoice is the payer's again.
 */
const DRAW_WAIT_DAYS = 5;

/**
 * True when a claim due on `dueOn` can no longer be withdrawn in time: the next claim run may be
 * tomorrow's (today's may have run), and it withdraws only claims due `CANCEL_MIN_LEAD_DAYS` after
 * its own date. From then on the bank draws, and paying the invoice another way would pay it twice.
 */
export function drawIsFixed(dueOn: string, today: string): boolean {
  return dueOn < addDays(today, CANCEL_MIN_LEAD_DAYS + 1);
}

/**
 * A claim (`c`) the bank may still draw: not withdrawn, on a mandate the bank still has (a row set
 * aside for giro is still the bank's mandate; a deleted one is not), its draw not reversed, and
 * not past the days a draw can take.
 */
function inPlay(today: string): SQL {
  return sql`c.cancelled_in is null
    and c.due_on >= ${addDays(today, -DRAW_WAIT_DAYS)}
    and exists (select 1 from ${paymentAgreement} pa where pa.method = 'AVTALEGIRO' and pa.provider_agreement_id = c.kid and pa.status in ('ACTIVE', 'REPLACED'))
    and not exists (select 1 from ${payment} p where p.aria_invoice_no = c.aria_invoice_no and p.method = 'AVTALEGIRO' and p.error_code = 'BANK_REVERSAL')`;
}

/** The invoice's claim at the bank while it is in play, as a column for invoice queries: its due date and the amount the bank draws, in one look-up. */
export function liveClaimColumn(today: string) {
  return sql<{
    dueOn: string;
    ore: number;
  } | null>`(select json_build_object('dueOn', to_char(c.due_on, 'YYYY-MM-DD'), 'ore', c.amount_ore) from ${avtaleGiroClaim} c where c.aria_invoice_no = ${qualified(invoice.ariaInvoiceNo)} and ${inPlay(today)})`;
}

/**
 * Whether the bank's AvtaleGiro draw of the invoice failed, as a column for invoice queries: a claim
 * not withdrawn whose draw never came in the days a draw can take, or a draw the bank took back.
 * (A mandate the bank deleted is no failed draw: the subscription is back on giro, ADR 024.)
 */
export function failedDrawColumn(today: string) {
  return sql<boolean>`exists (select 1 from ${avtaleGiroClaim} c where c.aria_invoice_no = ${qualified(invoice.ariaInvoiceNo)} and c.cancelled_in is null
    and (c.due_on < ${addDays(today, -DRAW_WAIT_DAYS)}
      or exists (select 1 from ${payment} p where p.aria_invoice_no = c.aria_invoice_no and p.method = 'AVTALEGIRO' and p.error_code = 'BANK_REVERSAL')))`;
}

/** Whether the invoice's subscription pays by AvtaleGiro on a mandate the bank has confirmed: the claim run will claim it (claims.ts). */
export const onActiveMandateColumn = sql<boolean>`exists (select 1 from ${subscription} s join ${paymentAgreement} pa on pa.subscription_id = s.id
  where s.id = ${qualified(invoice.subscriptionId)} and s.payment_method = 'AVTALEGIRO' and pa.method = 'AVTALEGIRO' and pa.status = 'ACTIVE' and pa.provider_agreement_id is not null)`;

/**
 * Whether an unpaid invoice with no claim yet may still be claimed: the claim run claims invoices
 * due at least CLAIM_MIN_LEAD_DAYS after its day. On that last day today's run may or may not have
 * run; it counts as claimed, since telling the payer to pay what the bank then draws would pay twice.
 */
export function claimStillInTime(dueOn: string, today: string): boolean {
  return dueOn >= addDays(today, CLAIM_MIN_LEAD_DAYS);
}

/** The due date the bank will draw the invoice on, when that can no longer be stopped; null otherwise. */
export async function fixedAvtaleGiroDraw(db: Db, ariaInvoiceNo: number, today: string): Promise<string | null> {
  const result = (await db.execute(sql`select to_char(c.due_on, 'YYYY-MM-DD') as due_on from ${avtaleGiroClaim} c where c.aria_invoice_no = ${ariaInvoiceNo} and ${inPlay(today)}`)) as unknown as {
    rows: { due_on: string }[];
  };
  const dueOn = result.rows[0]?.due_on;
  return dueOn && drawIsFixed(dueOn, today) ? dueOn : null;
}
