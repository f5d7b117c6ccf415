import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { orderErrorCodes } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { payment, subscriptionOrder } from '../../db/schema.ts';
import type { PaymentEngine, PaymentRow } from '../billing/index.ts';
import { ORDER_PAYMENT_MAX_MS, type OrderRow } from './order-record.ts';

export function createOrderRepair(deps: { db: Db; engine: PaymentEngine; now: () => Date; log: FastifyBaseLogger; fulfil: (tx: Tx, order: OrderRow, paid: PaymentRow) => Promise<void> }) {
  const { db, engine, now, log, fulfil } = deps;
  /**
   * The repair job (issue 11 schedules it): no charge without a subscription, no order left
   * hanging. (1) Orders waiting for a payment: asked at the provider; past ORDER_PAYMENT_MAX_MS
   * cancelled there and timed out. (2) Paid but not fulfilled: fulfilled if now possible,
   * else refunded and failed. (3) A second capture for a fulfilled order: refunded.
   */
  return async function repair(): Promise<{ resolved: number; fulfilled: number; refunded: number; timedOut: number }> {
    const result = { resolved: 0, fulfilled: 0, refunded: 0, timedOut: 0 };
    const at = now().getTime();
    const waiting = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.state, 'awaiting_payment'));
    for (const order of waiting) {
      try {
        const open = order.paymentId ? await engine.load(order.paymentId) : undefined;
        const after = open ? await engine.refresh(open) : undefined;
        if (after && after.status !== 'PENDING') {
          result.resolved += 1;
          continue;
        }
        if (at - order.updatedAt.getTime() < ORDER_PAYMENT_MAX_MS) continue;
        // Closed first, so the cancellation's settlement cannot reopen it; a late capture is refunded.
        const [closed] = await db
          .update(subscriptionOrder)
          .set({ state: 'timed_out', lastPaymentStatus: 'TIMEOUT', updatedAt: now() })
          .where(and(eq(subscriptionOrder.id, order.id), eq(subscriptionOrder.state, 'awaiting_payment')))
          .returning();
        if (after) await engine.cancel(after);
        if (closed) result.timedOut += 1;
      } catch (error) {
        log.error({ err: error, orderId: order.id }, 'repair of a waiting order failed');
      }
    }

    // Orders never sent to payment (the tab closed between order and payment, or "Avbryt" at the
    // provider and no new try) hold their offer (one open purchase per offer): given up after the same wait.
    const abandoned = await db
      .update(subscriptionOrder)
      .set({ state: 'timed_out', updatedAt: now() })
      .where(and(eq(subscriptionOrder.state, 'created'), lt(subscriptionOrder.updatedAt, new Date(at - ORDER_PAYMENT_MAX_MS))))
      .returning({ id: subscriptionOrder.id });
    result.timedOut += abandoned.length;

    const paidOrders = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.state, 'paid'));
    for (const order of paidOrders) {
      try {
        const paid = order.paymentId ? await engine.load(order.paymentId) : undefined;
        if (!paid) continue;
        if (order.failureCode !== orderErrorCodes.orderClosed) {
          let fulfilled = false;
          await db.transaction(async (tx) => {
            const [locked] = await tx.select().from(subscriptionOrder).where(eq(subscriptionOrder.id, order.id)).for('update');
            if (!locked || locked.state !== 'paid') return;
            await fulfil(tx, locked, paid);
            const [after] = await tx.select({ state: subscriptionOrder.state }).from(subscriptionOrder).where(eq(subscriptionOrder.id, order.id));
            fulfilled = after?.state === 'fulfilled';
          });
          if (fulfilled) {
            result.fulfilled += 1;
            continue;
          }
        }
        const refunded = await engine.refund(paid, `ORDER_NOT_FULFILLED:${order.failureCode ?? 'UNKNOWN'}`);
        if (refunded?.status === 'REFUNDED') {
          await db
            .update(subscriptionOrder)
            .set({ state: 'failed', lastPaymentStatus: 'REFUNDED', updatedAt: now() })
            .where(and(eq(subscriptionOrder.id, order.id), eq(subscriptionOrder.state, 'paid')));
          result.refunded += 1;
        }
      } catch (error) {
        log.error({ err: error, orderId: order.id }, 'repair of a paid order failed');
      }
    }

    // Captured ORDER payments that are not their order's payment (two tabs, two methods).
    const strays = await db
      .select({ payment })
      .from(payment)
      .innerJoin(subscriptionOrder, eq(subscriptionOrder.id, sql`${payment.details}->>'orderId'`))
      .where(
        and(
          eq(payment.purpose, 'ORDER'),
          eq(payment.status, 'CAPTURED'),
          inArray(subscriptionOrder.state, ['fulfilled', 'failed', 'paid']),
          sql`${subscriptionOrder.paymentId} is distinct from ${payment.id}`,
          lt(payment.createdAt, now()),
        ),
      );
    for (const { payment: stray } of strays) {
      try {
        const refunded = await engine.refund(stray, 'DUPLICATE_ORDER_PAYMENT');
        if (refunded?.status === 'REFUNDED') result.refunded += 1;
      } catch (error) {
        log.error({ err: error, paymentId: stray.id }, 'refund of a duplicate order payment failed');
      }
    }
    return result;
  };
}
