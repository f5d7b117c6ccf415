import { offerLabels, type InvoicePaymentMethod, type OfferCode, type Order, type OrderQuote, type OrderState, orderErrorCodes, orderMessages } from '@minside/domain';
import type { subscriptionOrder } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

// The order row and what every part of ordering (orders, fulfilment, repair, winback) says of it.

/** An order waiting for its payment this long is given up by the repair job (the engine's PENDING_MAX_MS). */
export const ORDER_PAYMENT_MAX_MS = 60 * 60 * 1000;

export type OrderRow = typeof subscriptionOrder.$inferSelect;

export function orderError(status: number, code: string, message: string): AppError {
  return new AppError(status, code, message);
}

/** An open order holds its offer: `subscription_order_one_open_idx` allows one per buyer and plan at a title. */
export const openStates: OrderState[] = ['created', 'awaiting_payment'];
export const ONE_OPEN_ORDER_INDEX = 'subscription_order_one_open_idx';
export const orderAlreadyOpen = () => orderError(409, orderErrorCodes.orderAlreadyOpen, orderMessages.orderAlreadyOpen);
export const closedStates: OrderState[] = ['cancelled', 'failed', 'timed_out'];

export function orderQuoteOf(row: OrderRow): OrderQuote {
  const offerCode = row.offerCode as OfferCode | null;
  return {
    offerCode,
    offerLabel: offerCode ? offerLabels[offerCode] : null,
    amountNowOre: row.amountNowOre,
    firstPeriodMonths: row.firstPeriodMonths,
    priceLaterOre: row.priceLaterOre,
    laterPeriodMonths: row.laterPeriodMonths,
  };
}

export function toOrderDto(row: OrderRow): Order {
  return {
    orderId: row.id,
    state: row.state as OrderState,
    titleCode: row.titleCode,
    plan: { ariaPlanID: row.ariaPlanId, name: row.planName, planProductType: row.planProductType, billingPeriod: row.billingPeriod },
    quote: orderQuoteOf(row),
    deliveryAddress: row.deliveryAddress ?? null,
    paperStartsOn: row.paperStartsOn,
    paymentMethod: (row.paymentMethod as InvoicePaymentMethod | null) ?? null,
    lastPaymentStatus: row.lastPaymentStatus,
    startedOn: row.startedOn,
    firstPeriodEnd: row.firstPeriodEnd,
    createdAt: row.createdAt.toISOString(),
  };
}
