import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { decideTransition, osloToday, withdrawalDeadline, withdrawalErrorCodes, withdrawalMessages, withinWithdrawalPeriod, type WithdrawalRefund, type WithdrawalResponse } from '@minside/domain';
import { norwegianPublicHolidays } from '@minside/domain/holidays';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, paymentAgreement, subscription, subscriptionChange, subscriptionOrder, subscriptionWithdrawal } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { creditsHandedOver, handOverWaitingCredit, type InvoiceCrediting, type PaymentEngine } from '../billing/index.ts';
import { lifecycleView } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { randomUUID } from 'node:crypto';
import { withdrawalParagraphs } from './withdrawal-mail.ts';
import { createRefundSettlement, CREDIT_PAID_BACK_BY_BANK, invoicesOfAgreement, moneyBackOf, paidBackWithItsInvoice, withCredits, type StoredRefund } from './withdrawal-refunds.ts';

type SubscriptionRow = typeof subscription.$inferSelect;
type OrderRow = typeof subscriptionOrder.$inferSelect;

export interface WithdrawalDeps {
  db: Db;
  now: () => Date;
  engine: Pick<PaymentEngine, 'stopReplacedAgreements'>;
  crediting: InvoiceCrediting;
  mailer: Mailer;
  titles: TitleService;
  log: FastifyBaseLogger;
}

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
  const { settleRefunds } = createRefundSettlement({ db, crediting, log });

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

  const paidOf = (rows: { amountOre: number; paidAt: Date | null }[]) => rows.filter((row) => row.paidAt !== null).reduce((sum, row) => sum + row.amountOre, 0);

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
    const paidOre = paidOf(await invoicesOfAgreement(reader, row.id, order.startedOn));
    const facts = { ...base, orderId: order.id, planName: order.planName, agreedOn: order.startedOn, deadline, paidOre };
    if (!open) return { ...facts, state: 'expired', message: withdrawalMessages.periodExpired(deadline) };
    // Ended by other means (an expired cancellation): nothing runs that could be withdrawn.
    const decision = decideTransition(lifecycleView(row), 'withdraw', today());
    if (!decision.allowed) return { ...facts, state: 'notAvailable', message: decision.message };
    return { ...facts, state: 'open' };
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
        const invoices = await invoicesOfAgreement(tx, row.id, current.agreedOn);
        // Of the money, what the provider will refund and what a person pays back through the bank: the
        // crediting machinery's own rule, asked now, since this e-mail is written before it answers.
        const { cameInOre, ...moneyBack } = await moneyBackOf(tx, invoices, day);
        // A complaint's credit set off against an invoice was never money from the buyer's card or Vipps:
        // what goes back that way is what was due as money, and the credit goes back by the customer centre
        // — unless its note credited an invoice of this agreement, given back in full with what the credit was for.
        let creditOre = 0;
        const invoiceRefunds: StoredRefund[] = [];
        for (const found of invoices) {
          for (const credit of found.setOffs) if (!paidBackWithItsInvoice(credit, invoices)) creditOre += credit.amountOre;
          // An invoice the credit settled alone is cancelled whole, like an unpaid one: its amount, of which no money was paid.
          // An unpaid one that money came in on (or the bank still draws) is a person's: that money is what goes back.
          const amountOre = found.paidAt !== null && found.settledBy !== 'CREDIT' ? found.amountOre - found.setOffOre : (cameInOre.get(found.ariaInvoiceNo) ?? found.amountOre);
          invoiceRefunds.push({ ariaInvoiceNo: found.ariaInvoiceNo, amountOre, outcome: 'pending', creditNoteNumber: null, code: null });
        }
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
          const paragraphs = withdrawalParagraphs({ planName: current.planName, agreedOn: current.agreedOn, deadline: current.deadline, day, ...moneyBack, creditOre, waitingOre });
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
