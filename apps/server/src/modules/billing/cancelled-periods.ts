import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { billingErrorCodes, instStatusCodes, osloToday, type CreditedInvoice } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { billingDocument, invoice, payment, subscription, subscriptionWithdrawal } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { setOffOreOf } from './paid-so-far.ts';
import type { InvoiceCrediting } from './documents/credit.ts';
import { moneyInOf, refundRouteOf } from './documents/refund-route.ts';

/**
 * A subscription that will not renew (cancelled, ended) does not owe the invoices of periods it
 * will not have: the renewal job issues the next period's invoice RENEWAL_LEAD_DAYS before the
 * current one ends, and a cancellation after that leaves it open — a stored card or Vipps
 * agreement would be charged on its due date, an AvtaleGiro claim drawn, a giro left to go overdue.
 * Every such invoice is credited in full through the one crediting function (ADR 026): unpaid, it
 * is settled by the credit note (the next AvtaleGiro claim file withdraws a claim already sent);
 * paid by Vipps or card, it is refunded at the provider and credited on its REFUNDED. The period's
 * renewal claim is let go with the credit, so an undone cancellation is invoiced again.
 *
 * Asked right after a cancellation commits (the lifecycle service), and by the renewal job each
 * run for what that could not finish (a provider that did not answer, a crash in between).
 */

/** The statuses that do not renew at the period end: cancelled or ended, running out or run out. */
export const endingStatusCodes: readonly number[] = [instStatusCodes.PENDING_CANCELLATION, instStatusCodes.CANCELLED, instStatusCodes.PENDING_TERMINATION, instStatusCodes.TERMINATED];

/** The credit note's reason: what the subscriber reads under "Årsak". */
const reasonFor = (statusCode: number) =>
  statusCode === instStatusCodes.PENDING_CANCELLATION || statusCode === instStatusCodes.CANCELLED ? 'Abonnementet er sagt opp.' : 'Abonnementet er avsluttet.';

/**
 * Refusals of the crediting function that a person has to finish (money back from the bank, a
 * part-payment, a claim the bank no longer lets go of): not asked again by the job.
 */
const needsAPerson: ReadonlySet<string> = new Set([
  billingErrorCodes.refundNeedsBank,
  billingErrorCodes.invoicePartlyPaid,
  billingErrorCodes.invoicePartlyCredited,
  billingErrorCodes.invoiceDrawnByAvtaleGiro,
]);

/**
 * The invoice `i` (of subscription `i.subscription_id`) may be credited in full by the crediting
 * function without a person: an amount, no credit note on it yet (none of its own, none of a
 * complaint's), not one a withdrawal credits (ADR 030 keeps its own record), and either unpaid
 * with no money in from the bank, or paid by a Vipps or card payment of what was due (or refunded by
 * a credit that stopped before its note). What is left out is for the customer centre, as ADR 026
 * says. A coarse prefilter, so the sweep finds the subscriptions by index: whether the money goes
 * back at the provider (one payment, not two) is the crediting function's own rule
 * (documents/refund-route.ts), which it applies when it credits and the confirmation asks before
 * it promises (invoicesToCreditOnCancel).
 */
const creditableInvoice: SQL = sql`i.amount_ore > 0
  and not exists (select 1 from ${billingDocument} d where d.aria_invoice_no = i.aria_invoice_no and d.kind = 'CREDIT_NOTE')
  and not exists (select 1 from ${subscriptionWithdrawal} w where w.subscription_id = i.subscription_id and w.refunds @> jsonb_build_array(jsonb_build_object('ariaInvoiceNo', i.aria_invoice_no)))
  and case when i.paid_at is null
    then not exists (select 1 from ${payment} p where p.aria_invoice_no = i.aria_invoice_no and p.status = 'CAPTURED')
    else coalesce(i.settled_by, '') <> 'CREDIT' and exists (select 1 from ${payment} p where p.aria_invoice_no = i.aria_invoice_no and p.provider <> 'bank' and p.amount_ore = i.amount_ore - ${setOffOreOf(sql`i.aria_invoice_no`)}
      and (p.status = 'CAPTURED' or (p.status = 'REFUNDED' and p.error_code = 'INVOICE_CREDITED')))
  end`;

/** Ending subscriptions the sweep reads at a time. */
const SWEEP_PAGE_SIZE = 500;

export interface InvoiceAfterAccess {
  ariaInvoiceNo: number;
  amountOre: number;
  /** Paid already (by Vipps or card): it is refunded, not cancelled. */
  paid: boolean;
}

/**
 * The invoices of the subscription for periods from the day its access ends (`accessEnds`, the
 * period end) that the crediting function may credit (creditableInvoice), oldest first. Read by
 * invoice_account_idx.
 */
async function invoicesAfterAccess(reader: Db | Tx, owner: { id: string; ariaAccountNo: number }, accessEnds: string) {
  const { rows } = (await reader.execute(sql`
    select i.aria_invoice_no::bigint as no, i.amount_ore, i.paid_at from ${invoice} i
    where i.aria_account_no = ${owner.ariaAccountNo} and i.subscription_id = ${owner.id} and i.period_from >= ${accessEnds} and ${creditableInvoice}
    order by i.aria_invoice_no`)) as unknown as { rows: { no: string | number; amount_ore: number; paid_at: Date | string | null }[] };
  return rows.map((row) => ({ ariaInvoiceNo: Number(row.no), amountOre: Number(row.amount_ore), paidAt: row.paid_at === null ? null : new Date(row.paid_at) }));
}

/**
 * What the cancellation's confirmation can promise, read in its transaction: the invoices the crediting
 * function will credit without a person, by its own rules (documents/refund-route.ts) — a paid one
 * refunded at the provider, an unpaid one cancelled. Not one paid twice or in the bank, nor one an
 * AvtaleGiro claim the bank will draw whatever we do: a person pays those back, and nothing is promised.
 */
export async function invoicesToCreditOnCancel(tx: Tx, owner: { id: string; ariaAccountNo: number }, accessEnds: string, today: string): Promise<InvoiceAfterAccess[]> {
  const promised: InvoiceAfterAccess[] = [];
  for (const row of await invoicesAfterAccess(tx, owner, accessEnds)) {
    const credited = row.paidAt ? (await refundRouteOf(tx, row)).by === 'provider' : (await moneyInOf(tx, row.ariaInvoiceNo, today)) === undefined;
    if (credited) promised.push({ ariaInvoiceNo: row.ariaInvoiceNo, amountOre: row.amountOre, paid: row.paidAt !== null });
  }
  return promised;
}

export interface CancelledPeriodCrediting {
  /** Credits what the subscription no longer owes (nothing when it renews after all). Never throws: what fails is asked again by the job. */
  creditFor(subscriptionId: string): Promise<CreditedInvoice[]>;
  /** The renewal job's pass: every subscription that does not renew with such an invoice left, a page at a time (`onPage` after each). */
  sweep(options?: { onPage?: () => void | Promise<void> }): Promise<{ subscriptions: number; credited: number }>;
}

export function createCancelledPeriodCrediting(deps: { db: Db; crediting: InvoiceCrediting; now: () => Date; log: FastifyBaseLogger }): CancelledPeriodCrediting {
  const { db, crediting, now, log } = deps;

  async function creditFor(subscriptionId: string): Promise<CreditedInvoice[]> {
    const outcomes: CreditedInvoice[] = [];
    try {
      const [row] = await db
        .select({ id: subscription.id, ariaAccountNo: subscription.ariaAccountNo, instStatusCode: subscription.instStatusCode, currentPeriodEnd: subscription.currentPeriodEnd })
        .from(subscription)
        .where(eq(subscription.id, subscriptionId));
      // Undone meanwhile (or never cancelled): the invoice is owed, and stays.
      if (!row || !endingStatusCodes.includes(row.instStatusCode)) return outcomes;
      const reason = reasonFor(row.instStatusCode);
      for (const found of await invoicesAfterAccess(db, row, row.currentPeriodEnd)) {
        try {
          const credited = await crediting.creditInvoice(found.ariaInvoiceNo, reason, { releasePeriod: true });
          outcomes.push({ ariaInvoiceNo: found.ariaInvoiceNo, outcome: credited.refunded ? 'refunded' : 'credited' });
        } catch (error) {
          const code = error instanceof AppError ? error.code : null;
          if (code !== null && needsAPerson.has(code)) {
            // Money the bank has or will have (an AvtaleGiro draw too late to withdraw, a netbank payment): the customer centre pays it back.
            log.error(
              { subscriptionId, ariaInvoiceNo: found.ariaInvoiceNo, code, today: osloToday(now()) },
              'an invoice for a period after a cancellation needs a person: refund it from the bank and credit it',
            );
            continue;
          }
          // The provider did not answer REFUNDED, a charge is still on its way: the renewal job asks again.
          log.warn({ err: error, subscriptionId, ariaInvoiceNo: found.ariaInvoiceNo, code }, 'an invoice for a period after a cancellation is not credited yet; the renewal job asks again');
          outcomes.push({ ariaInvoiceNo: found.ariaInvoiceNo, outcome: 'pending' });
        }
      }
    } catch (error) {
      log.error({ err: error, subscriptionId }, 'crediting the invoices after a cancellation failed; the renewal job asks again');
    }
    return outcomes;
  }

  return {
    creditFor,
    async sweep(options = {}) {
      let subscriptions = 0;
      let credited = 0;
      // The ending subscriptions (a status read of the subscription table, once a day), each with an index probe of its
      // invoices; in key order a page at a time, so what is held does not grow with the subscriptions.
      for (let after = ''; ;) {
        const { rows } = (await db.execute(sql`
          select s.id from ${subscription} s
          where s.inst_status_code in (${sql.join(
            endingStatusCodes.map((code) => sql`${code}`),
            sql`, `,
          )}) and s.shared_from_subscription_id is null and s.id > ${after}
            and exists (select 1 from ${invoice} i where i.aria_account_no = s.aria_account_no and i.subscription_id = s.id and i.period_from >= s.current_period_end and ${creditableInvoice})
          order by s.id limit ${SWEEP_PAGE_SIZE}`)) as unknown as { rows: { id: string }[] };
        if (rows.length === 0) break;
        after = (rows.at(-1) as { id: string }).id;
        subscriptions += rows.length;
        for (const { id } of rows) credited += (await creditFor(id)).filter((outcome) => outcome.outcome !== 'pending').length;
        await options.onPage?.();
      }
      return { subscriptions, credited };
    },
  };
}
