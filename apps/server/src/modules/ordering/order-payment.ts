import { and, eq, inArray } from 'drizzle-orm';
import { offerLabels, orderErrorCodes, orderMessages, type InvoicePaymentMethod, type OfferCode, type Order, type OrderState, type PaymentRedirect } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { subscriptionOrder } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { PaymentEngine } from '../billing/index.ts';
import type { AccountService } from '../subscription/index.ts';
import { openStates, orderError, toOrderDto, type OrderRow } from './order-record.ts';

/**
 * Paying for an order, and giving it up: the step between the buyer's choice (service.ts) and its
 * fulfilment (fulfilment.ts, on the provider's word). Separate because it is the one part of an
 * order that talks to the payment engine.
 */
export function createOrderPayment({ db, engine, accounts, now }: { db: Db; engine: PaymentEngine; accounts: Pick<AccountService, 'accountOf'>; now: () => Date }) {
  async function loadOwnOrder(userId: string, orderId: string): Promise<OrderRow> {
    const [row] = await db
      .select()
      .from(subscriptionOrder)
      .where(and(eq(subscriptionOrder.id, orderId), eq(subscriptionOrder.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  /**
   * POST /api/order/{id}/payment: pay with Vipps or card. The attempt number makes the
   * payment's idempotency key: a double submit resumes the same payment; after a
   * cancellation at the provider ("Prøv igjen") the next attempt is a new payment.
   */
  async function startPayment(user: SessionUser, orderId: string, method: InvoicePaymentMethod): Promise<PaymentRedirect> {
    const decided = await db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(subscriptionOrder)
        .where(and(eq(subscriptionOrder.id, orderId), eq(subscriptionOrder.userId, user.id)))
        .for('update');
      if (!order) throw notFound();
      if (order.state === 'fulfilled') return { done: true as const, order };
      if (!openStates.includes(order.state as OrderState)) throw orderError(409, orderErrorCodes.orderClosed, orderMessages.orderClosed);
      const resume = order.state === 'awaiting_payment' && order.paymentMethod === method;
      const attempt = resume ? order.paymentAttempts : order.paymentAttempts + 1;
      const superseded = !resume && order.state === 'awaiting_payment' ? order.paymentId : null;
      if (!resume) {
        await tx
          .update(subscriptionOrder)
          .set({ state: 'awaiting_payment', paymentMethod: method, paymentAttempts: attempt, paymentId: null, lastPaymentStatus: 'PENDING', updatedAt: now() })
          .where(eq(subscriptionOrder.id, order.id));
      }
      return { order, attempt, superseded };
    });
    if ('done' in decided) return { paymentId: decided.order.paymentId ?? '', redirectUrl: `/kvittering?orderId=${encodeURIComponent(orderId)}` };
    const { order, attempt, superseded } = decided;
    if (superseded) {
      const old = await engine.load(superseded);
      if (old) await engine.cancel(old);
    }
    const own = await accounts.accountOf(user.id);
    const returnPage = method === 'VIPPS' ? '/completevippspurchase' : '/completepurchase';
    const redirect = await engine.start({
      idempotencyKey: `order:${order.id}:${attempt}`,
      purpose: 'ORDER',
      method,
      amountOre: order.amountNowOre,
      userId: user.id,
      ariaAccountNo: own?.ariaAccountNo ?? null,
      subscriptionId: null,
      ariaInvoiceNo: null,
      description: `${order.planName}${order.offerCode ? ` – ${offerLabels[order.offerCode as OfferCode]}` : ''}`,
      returnPath: `${returnPage}?paymentId={paymentId}&orderId=${encodeURIComponent(order.id)}`,
      titleCode: order.titleCode,
      // With Vipps the purchase is an agreement too, so the periods that follow are charged on it (a provider that keeps none ignores this).
      ...(method === 'VIPPS'
        ? { agreementTerms: { productName: order.planName, priceOre: order.priceLaterOre, intervalMonths: order.laterPeriodMonths, agreementPath: '/endre-betalingsmetode' } }
        : {}),
      details: { orderId: order.id, attempt },
    });
    await db
      .update(subscriptionOrder)
      .set({ paymentId: redirect.paymentId, updatedAt: now() })
      .where(and(eq(subscriptionOrder.id, order.id), eq(subscriptionOrder.paymentAttempts, attempt), eq(subscriptionOrder.state, 'awaiting_payment')));
    return redirect;
  }

  /** POST /api/order/{id}/cancel (/avbryt-bestilling): an open order ends; an open payment is cancelled at the provider. */
  async function cancelOrder(user: SessionUser, orderId: string): Promise<Order> {
    const order = await loadOwnOrder(user.id, orderId);
    if (order.state === 'cancelled') return toOrderDto(order);
    if (!openStates.includes(order.state as OrderState)) throw orderError(409, orderErrorCodes.orderNotCancellable, orderMessages.orderNotCancellable);
    if (order.paymentId) {
      const open = await engine.load(order.paymentId);
      // If the provider says it was paid after all, the settlement fulfils the order instead.
      if (open) await engine.cancel(open);
    }
    await db
      .update(subscriptionOrder)
      .set({ state: 'cancelled', updatedAt: now() })
      .where(and(eq(subscriptionOrder.id, orderId), inArray(subscriptionOrder.state, openStates)));
    return toOrderDto(await loadOwnOrder(user.id, orderId));
  }

  return { loadOwnOrder, startPayment, cancelOrder };
}
