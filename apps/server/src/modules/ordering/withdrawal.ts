import { and, asc, desc, eq, gt, gte, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  addDays,
  billingErrorCodes,
  decideTransition,
  formatKroner,
  formatLongDate,
  osloToday,
  withdrawalDeadline,
  withdrawalErrorCodes,
  withdrawalMessages,
  withinWithdrawalPeriod,
  WITHDRAWAL_DAYS,
  type WithdrawalRefund,
  type WithdrawalResponse,
} from '@minside/domain';
import { norwegianPublicHolidays } from '@minside/domain/holidays';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, invoice, paymentAgreement, subscription, subscriptionChange, subscriptionOrder, subscriptionWithdrawal } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { creditsHandedOver, handOverWaitingCredit, setOffSoFar, wholeCreditNoteOf, type HandedOverCredit, type InvoiceCrediting, type PaymentEngine, type ReleasedCredit } from '../billing/index.ts';
import { lifecycleView } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { randomUUID } from 'node:crypto';

type SubscriptionRow = typeof subscription.$inferSelect;
type OrderRow = typeof subscriptionOrder.$inferSelect;
type WithdrawalRow = typeof subscriptionWithdrawal.$inferSelect;
type StoredRefund = WithdrawalRow['refunds'][number];

export interface WithdrawalDeps {
  db: Db;
  now: () => Date;
  engine: Pick<PaymentEngine, 'stopReplacedAgreements'>;
  crediting: InvoiceCrediting;
  mailer: Mailer;
  titles: TitleService;
  log: FastifyBaseLogger;
}

/** Refusals of the crediting machinery that a person has to finish (money back from the bank, a part-payment). */
const needsAPerson: ReadonlySet<string> = new Set([
  billingErrorCodes.refundNeedsBank,
  billingErrorCodes.invoicePartlyPaid,
  billingErrorCodes.invoicePartlyCredited,
  billingErrorCodes.invoiceDrawnByAvtaleGiro,
]);

/**
 * The code of a refund that is a complaint's credit, not an invoice's payment: still waiting when the
 * subscription was withdrawn, or set off against an invoice of the agreement and released when that
 * was credited, it has no next invoice to wait for, and the customer centre pays it back through the
 * bank (ADR 036). Derived from the `credit_set_off` rows the withdrawal handed over, never kept only here.
 */
const CREDIT_PAID_BACK_BY_BANK = 'CREDIT_PAID_BACK_BY_BANK';

const isHoliday = (day: string) => norwegianPublicHolidays(Number(day.slice(0, 4))).has(day);

/**
 * The right of withdrawal (angrerett, issue 25.8; docs/decisions/030-right-of-withdrawal.md).
 * A subscription bought here on the web may be withdrawn within 14 days of the day the order
 * was fulfilled (the agreement was made when the payment was taken and the subscription
 * began). Withdrawing ends the subscription at once, stops a stored Vipps agreement, and asks
 * the invoice-crediting machinery (ADR 026) to credit every invoice of the agreement: a paid
 * one is refunded at the provider and gets its credit note only on the provider's REFUNDED;
 * an unpaid one is cancelled. What the machinery could not settle yet is asked again by the
 * `withdrawal-refunds` job; what needs the bank goes to a person.
 */
export function createWithdrawalService({ db, now, engine, crediting, mailer, titles, log }: WithdrawalDeps) {
  const today = () => osloToday(now());

  async function ownSubscription(reader: Db | Tx, userId: string, ariaAccountNo: number, titleCode: string, lock: boolean): Promise<SubscriptionRow> {
    const [owned] = await reader
      .select({ id: subscription.id })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, userId), eq(subscription.ariaAccountNo, ariaAccountNo), eq(subscription.titleCode, titleCode.toUpperCase())));
    if (!owned) throw notFound();
    const query = reader.select().from(subscription).where(eq(subscription.id, owned.id));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw notFound();
    return row;
  }

  /** The agreement the subscription runs on now: its newest fulfilled order (a subscription reactivated or bought again has a newer one). */
  async function agreementOf(reader: Db | Tx, subscriptionId: string): Promise<OrderRow | undefined> {
    const [order] = await reader
      .select()
      .from(subscriptionOrder)
      .where(and(eq(subscriptionOrder.subscriptionId, subscriptionId), eq(subscriptionOrder.state, 'fulfilled'), isNotNull(subscriptionOrder.startedOn)))
      .orderBy(desc(subscriptionOrder.startedOn), desc(subscriptionOrder.updatedAt))
      .limit(1);
    return order;
  }

  /**
   * The invoices of this agreement still to give back: issued for periods from the day it was made
   * (earlier ones belong to an earlier agreement), with the complaint's credit set off against each.
   * One credited in whole already (cancelled, refunded: its note, or an older one settled by a credit
   * with none set off) is left out; one settled by a complaint's credit set off against it alone was
   * paid, with that credit, and goes back like any other (ADR 036).
   */
  async function invoicesOf(reader: Db | Tx, subscriptionId: string, agreedOn: string) {
    const rows = await reader
      .select()
      .from(invoice)
      .where(and(eq(invoice.subscriptionId, subscriptionId), gte(invoice.periodFrom, agreedOn)))
      .orderBy(asc(invoice.ariaInvoiceNo));
    const result: (typeof invoice.$inferSelect & { setOffOre: number })[] = [];
    for (const row of rows) {
      const setOffOre = await setOffSoFar(reader, row.ariaInvoiceNo);
      if ((row.settledBy === 'CREDIT' && setOffOre === 0) || (await wholeCreditNoteOf(reader, row.ariaInvoiceNo))) continue;
      result.push({ ...row, setOffOre });
    }
    return result;
  }

  const paidOf = (rows: { amountOre: number; paidAt: Date | null }[]) => rows.filter((row) => row.paidAt !== null).reduce((sum, row) => sum + row.amountOre, 0);

  /**
   * The invoices' refunds with the credits the withdrawal handed to the customer centre (`credit_set_off`,
   * the durable record), one entry per invoice a complaint's note credited. A credit from a note on an
   * invoice of this agreement is not added: that invoice is a person's already (credited in part, ADR
   * 026), and paying it back in full gives back what the credit was for.
   */
  function withCredits(refunds: readonly StoredRefund[], credits: readonly HandedOverCredit[]): StoredRefund[] {
    const invoices = refunds.filter((refund) => refund.code !== CREDIT_PAID_BACK_BY_BANK);
    const result = [...invoices];
    for (const credit of credits) {
      if (invoices.some((refund) => refund.ariaInvoiceNo === credit.ariaInvoiceNo)) continue;
      const same = result.findIndex((refund) => refund.ariaInvoiceNo === credit.ariaInvoiceNo);
      const existing = same >= 0 ? result[same] : undefined;
      if (existing) result[same] = { ...existing, amountOre: existing.amountOre + credit.amountOre };
      else result.push({ ariaInvoiceNo: credit.ariaInvoiceNo, amountOre: credit.amountOre, outcome: 'manual', creditNoteNumber: credit.creditNoteNumber, code: CREDIT_PAID_BACK_BY_BANK });
    }
    return result;
  }

  const toRefund = (stored: StoredRefund): WithdrawalRefund => ({
    ariaInvoiceNo: stored.ariaInvoiceNo,
    amountOre: stored.amountOre,
    outcome: stored.outcome,
    creditNoteNumber: stored.creditNoteNumber,
  });

  async function view(reader: Db | Tx, row: SubscriptionRow): Promise<WithdrawalResponse> {
    const order = row.sharedFromSubscriptionId === null ? await agreementOf(reader, row.id) : undefined;
    const base = { planName: row.planName, orderId: null, agreedOn: null, deadline: null, paidOre: 0, withdrawnAt: null, refunds: [], message: null };
    if (!order?.startedOn) return { ...base, state: 'notAvailable', message: withdrawalMessages.notAvailable };
    const [withdrawn] = await reader.select().from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, order.id));
    if (withdrawn) {
      return {
        ...base,
        state: 'withdrawn',
        orderId: order.id,
        planName: order.planName,
        agreedOn: withdrawn.agreedOn,
        deadline: withdrawn.deadline,
        paidOre: withdrawn.paidOre,
        withdrawnAt: withdrawn.withdrawnAt.toISOString(),
        refunds: withdrawn.refunds.map(toRefund),
      };
    }
    const deadline = withdrawalDeadline(order.startedOn, isHoliday);
    const open = withinWithdrawalPeriod(deadline, today());
    const paidOre = paidOf(await invoicesOf(reader, row.id, order.startedOn));
    const facts = { ...base, orderId: order.id, planName: order.planName, agreedOn: order.startedOn, deadline, paidOre };
    if (!open) return { ...facts, state: 'expired', message: withdrawalMessages.periodExpired(deadline) };
    // Ended by other means (an expired cancellation): nothing runs that could be withdrawn.
    const decision = decideTransition(lifecycleView(row), 'withdraw', today());
    if (!decision.allowed) return { ...facts, state: 'notAvailable', message: decision.message };
    return { ...facts, state: 'open' };
  }

  /**
   * Asks the crediting machinery for each invoice still waiting, and records what it answered under the
   * withdrawal's row lock: a run beside this one (the request's and the job's) keeps what it wrote, and
   * the credits handed to the customer centre are read again from `credit_set_off`, so a run that died
   * after a credit note and before this write loses none of them.
   */
  async function settleRefunds(orderId: string): Promise<number> {
    const [row] = await db.select().from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, orderId));
    if (!row?.refundsOpen) return 0;
    const reason = `Angrerett: kjøpet ble angret ${formatLongDate(osloToday(row.withdrawnAt))}.`;
    const answered = new Map<number, StoredRefund>();
    const released: ReleasedCredit[] = [];
    let settled = 0;
    for (const refund of row.refunds) {
      if (refund.outcome !== 'pending' || refund.code === CREDIT_PAID_BACK_BY_BANK) continue;
      try {
        // The subscription has ended: a complaint's credit set off against the invoice has no next invoice to wait for.
        // Handed over at the withdrawal's moment, so it is found as this withdrawal's whichever run credits the invoice.
        const credited = await crediting.creditInvoice(refund.ariaInvoiceNo, reason, { subscriptionEnds: true, handOverAt: row.withdrawnAt });
        answered.set(refund.ariaInvoiceNo, { ...refund, outcome: credited.refunded ? 'refunded' : 'cancelled', creditNoteNumber: credited.creditNoteNumber, code: null });
        released.push(...credited.released);
        settled += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === billingErrorCodes.invoiceAlreadyCredited) {
          // Credited already (by the customer centre, or by a run of this that stopped before writing): nothing more is
          // owed here. Its note says whether the money went back at the provider.
          const note = await wholeCreditNoteOf(db, refund.ariaInvoiceNo);
          answered.set(refund.ariaInvoiceNo, { ...refund, outcome: note?.refunded ? 'refunded' : 'cancelled', creditNoteNumber: note?.number ?? null, code: error.code });
        } else if (needsAPerson.has(error.code)) answered.set(refund.ariaInvoiceNo, { ...refund, outcome: 'manual', code: error.code });
        // The provider did not answer REFUNDED (yet): asked again by the job. Nothing is recorded as refunded.
        else answered.set(refund.ariaInvoiceNo, { ...refund, code: error.code });
        if (error.code !== billingErrorCodes.invoiceAlreadyCredited && !needsAPerson.has(error.code))
          log.warn({ orderId, ariaInvoiceNo: refund.ariaInvoiceNo, code: error.code }, 'withdrawal refund not settled yet');
      }
    }
    if (released.length > 0) log.warn({ orderId, released }, 'withdrawal released a complaint credit: the customer centre pays it back through the bank');
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, orderId)).for('update');
      if (!locked) return;
      // What another run settled meanwhile stands; only what is still pending takes this run's answer.
      const invoices = locked.refunds.map((refund) => (refund.outcome === 'pending' ? (answered.get(refund.ariaInvoiceNo) ?? refund) : refund));
      // Up to the subscription's next withdrawal (bought again and withdrawn again): its credits are its own.
      const [next] = await tx
        .select({ withdrawnAt: subscriptionWithdrawal.withdrawnAt })
        .from(subscriptionWithdrawal)
        .where(and(eq(subscriptionWithdrawal.subscriptionId, locked.subscriptionId), gt(subscriptionWithdrawal.withdrawnAt, locked.withdrawnAt)))
        .orderBy(asc(subscriptionWithdrawal.withdrawnAt))
        .limit(1);
      const refunds = withCredits(invoices, await creditsHandedOver(tx, locked.subscriptionId, locked.withdrawnAt, next?.withdrawnAt ?? null));
      await tx
        .update(subscriptionWithdrawal)
        .set({ refunds, refundsOpen: refunds.some((refund) => refund.outcome === 'pending') })
        .where(eq(subscriptionWithdrawal.orderId, orderId));
    });
    return settled;
  }

  return {
    /** GET …/withdrawal: whether this subscription may be withdrawn, until when, and what a withdrawal gives back. */
    async status(user: SessionUser, ariaAccountNo: number, titleCode: string): Promise<WithdrawalResponse> {
      return view(db, await ownSubscription(db, user.id, ariaAccountNo, titleCode, false));
    },

    /**
     * POST …/withdrawal: the buyer withdraws. Within the deadline the subscription ends now and
     * the refunds are asked for; the same request again answers the same withdrawal.
     */
    async withdraw(user: SessionUser, ariaAccountNo: number, titleCode: string): Promise<WithdrawalResponse> {
      const orderId = await db.transaction(async (tx) => {
        const row = await ownSubscription(tx, user.id, ariaAccountNo, titleCode, true);
        const current = await view(tx, row);
        if (current.state === 'withdrawn') return current.orderId;
        if (current.state === 'expired') throw new AppError(409, withdrawalErrorCodes.periodExpired, current.message ?? withdrawalMessages.notAvailable);
        if (current.state !== 'open' || !current.orderId || !current.agreedOn || !current.deadline) {
          throw new AppError(409, withdrawalErrorCodes.notAvailable, current.message ?? withdrawalMessages.notAvailable);
        }
        const decision = decideTransition(lifecycleView(row), 'withdraw', today());
        if (!decision.allowed) throw new AppError(409, decision.code, decision.message);
        const at = now();
        const day = today();
        const invoices = await invoicesOf(tx, row.id, current.agreedOn);
        // A complaint's credit set off against an invoice was never money from the buyer's card or Vipps:
        // what goes back that way is what was due as money, and the credit goes back by the customer centre.
        let creditOre = 0;
        let paidByCreditOre = 0;
        const invoiceRefunds: StoredRefund[] = [];
        for (const found of invoices) {
          creditOre += found.setOffOre;
          if (found.paidAt !== null) paidByCreditOre += found.setOffOre;
          // An invoice the credit settled alone is cancelled whole, like an unpaid one: its amount, of which no money was paid.
          const amountOre = found.paidAt !== null && found.settledBy !== 'CREDIT' ? found.amountOre - found.setOffOre : found.amountOre;
          invoiceRefunds.push({ ariaInvoiceNo: found.ariaInvoiceNo, amountOre, outcome: 'pending', creditNoteNumber: null, code: null });
        }
        const moneyOre = current.paidOre - paidByCreditOre;
        // The subscription ends now: a complaint's credit still waiting for a next invoice has none to wait
        // for (ADR 026 leaves it to the customer centre). Handed over here, at the withdrawal's moment, and
        // listed as the customer centre's unless the invoice its note credited goes back in full anyway.
        await handOverWaitingCredit(tx, row.id, at);
        const refunds = withCredits(invoiceRefunds, await creditsHandedOver(tx, row.id, at));
        const waitingOre = refunds.filter((refund) => refund.code === CREDIT_PAID_BACK_BY_BANK).reduce((sum, refund) => sum + refund.amountOre, 0);
        // Ended today: no access from now, no renewal, no scheduled change; the period end is today (the renewal day that never comes).
        await tx
          .update(subscription)
          .set({ instStatusCode: decision.to, cancelledAt: at, currentPeriodEnd: day, resumeStatusCode: null, pendingPlanId: null, pendingPlanName: null, pendingChangeOn: null })
          .where(eq(subscription.id, row.id));
        // A stored Vipps agreement or card would be charged again: set aside here, stopped at the provider after commit.
        await tx
          .update(paymentAgreement)
          .set({ status: 'REPLACED', updatedAt: at })
          .where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.status, 'ACTIVE'), inArray(paymentAgreement.method, ['VIPPS', 'SWEDBANK-PPG'])));
        await tx.insert(subscriptionChange).values({
          id: randomUUID(),
          subscriptionId: row.id,
          at,
          actor: 'self',
          actorUserId: user.id,
          kind: 'withdrawn',
          fromStatusCode: row.instStatusCode,
          toStatusCode: decision.to,
          details: { planName: current.planName, amountOre: current.paidOre },
        });
        await tx.insert(subscriptionWithdrawal).values({
          orderId: current.orderId,
          subscriptionId: row.id,
          userId: user.id,
          agreedOn: current.agreedOn,
          deadline: current.deadline,
          withdrawnAt: at,
          paidOre: current.paidOre,
          refunds,
          refundsOpen: refunds.some((refund) => refund.outcome === 'pending'),
        });
        const [buyer] = await tx.select({ email: appUser.email }).from(appUser).where(eq(appUser.id, user.id));
        if (buyer) {
          const title = titles.getTitle(row.titleCode);
          // The seller confirms a withdrawal made on its web form at once, on a durable medium (angrerettloven).
          const paragraphs = [
            `Vi har mottatt at du angrer kjøpet av ${current.planName}. Avtalen ble inngått ${formatLongDate(current.agreedOn)}, og angrefristen var ${formatLongDate(current.deadline)}.`,
            'Abonnementet er avsluttet fra i dag.',
            ...(moneyOre > 0
              ? [
                  `Vi betaler tilbake ${formatKroner(moneyOre)} med samme betalingsmiddel som du brukte, senest ${formatLongDate(addDays(day, WITHDRAWAL_DAYS))}. Du får en kreditnota på e-post når pengene er sendt.`,
                ]
              : []),
            ...(creditOre > 0
              ? [
                  `Av det du skulle betale, ble ${formatKroner(creditOre)} dekket av en kreditnota du hadde til gode. Det beløpet kan ikke trekkes fra en ny faktura når abonnementet er avsluttet, så kundeservice tar kontakt med deg og betaler det tilbake.`,
                ]
              : []),
            ...(waitingOre > 0
              ? [
                  `Du hadde ${moneyOre > 0 || creditOre > 0 ? 'dessuten ' : ''}${formatKroner(waitingOre)} til gode fra en kreditnota som ikke var trukket fra noen faktura ennå. Kundeservice tar kontakt med deg og betaler det tilbake.`,
                ]
              : []),
            ...(moneyOre <= 0 && creditOre <= 0 && waitingOre <= 0 ? ['Du har ikke betalt noe for abonnementet, så det er ingenting å betale tilbake.'] : []),
          ];
          await mailer.enqueue(tx, {
            to: buyer.email,
            title,
            kind: 'withdrawalConfirmation',
            ...titleMail(title, { heading: 'Du har angret kjøpet', paragraphs }),
            idempotencyKey: `withdrawal:${current.orderId}`,
          });
        }
        return current.orderId;
      });
      if (orderId) {
        const [found] = await db.select({ subscriptionId: subscriptionWithdrawal.subscriptionId }).from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.orderId, orderId));
        if (found) await engine.stopReplacedAgreements(found.subscriptionId);
        await settleRefunds(orderId).catch((error: unknown) => log.error({ err: error, orderId }, 'withdrawal refunds failed; the withdrawal-refunds job asks again'));
      }
      return view(db, await ownSubscription(db, user.id, ariaAccountNo, titleCode, false));
    },

    /** The `withdrawal-refunds` job: asks again for the refunds the provider had not settled. */
    async retryRefunds(): Promise<{ withdrawals: number; settled: number }> {
      const open = await db.select({ orderId: subscriptionWithdrawal.orderId }).from(subscriptionWithdrawal).where(eq(subscriptionWithdrawal.refundsOpen, true));
      let settled = 0;
      for (const { orderId } of open) {
        try {
          settled += await settleRefunds(orderId);
        } catch (error) {
          log.error({ err: error, orderId }, 'withdrawal refunds failed; asked again on the next run');
        }
      }
      return { withdrawals: open.length, settled };
    },
  };
}

export type WithdrawalService = ReturnType<typeof createWithdrawalService>;
