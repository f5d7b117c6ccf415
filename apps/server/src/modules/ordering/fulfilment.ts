import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  addDays,
  billingPeriodLabels,
  firstPeriodOf,
  formatKroner,
  formatLongDate,
  instStatusCodes,
  introductoryPriceOf,
  invoiceLineDescription,
  nextPossibleDeliveryDay,
  offerLabels,
  orderErrorCodes,
  osloToday,
  regularPriceText,
  subscriptionMethodOfProvider,
  type InvoicePaymentMethod,
  type OfferCode,
  type OrderState,
  type PublicationCalendar,
} from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Tx } from '../../db/client.ts';
import { appUser, deliveryAddress, payment, subscriptionChange, subscriptionOrder } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import type { PaymentRow } from '../billing/index.ts';
import { insertInvoice } from '../billing/index.ts';
import { accessOn, grantSubscription, introColumns, lockSubscriptionAt } from '../subscription/index.ts';
import { findPlan } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { closedStates, orderQuoteOf, type OrderRow } from './order-record.ts';

export interface OrderFulfilmentDeps {
  catalogue: Catalogue;
  titles: Pick<TitleService, 'getTitle'>;
  mailer: Mailer;
  now: () => Date;
  calendarOf: (title: PublicationConfig) => PublicationCalendar;
  cutoffTime: string;
  /** Whether the payment provider keeps a card for later periods (Vipps MobilePay does not: a card order goes on giro). */
  providerStoresCards: boolean;
}

/**
 * An order's subscription, made in the transaction that settles its payment (the engine's
 * `onSettled`), so a captured payment and its subscription commit together or not at all; the
 * paid invoice, the address, the change-log entry and the receipt with it.
 */
export function createOrderFulfilment(deps: OrderFulfilmentDeps) {
  const { catalogue, titles, mailer, now, calendarOf, cutoffTime, providerStoresCards } = deps;
  const today = () => osloToday(now());

  function paperStartOf(titleCode: string): string {
    const entry = catalogue.findByTitleCode(titleCode);
    if (!entry) return addDays(today(), 1);
    return nextPossibleDeliveryDay(calendarOf(entry), now(), cutoffTime);
  }

  async function fulfil(tx: Tx, order: OrderRow, paid: PaymentRow): Promise<void> {
    const day = today();
    const plan = await findPlan(tx, order.ariaPlanId);
    const current = await lockSubscriptionAt(tx, order.userId, order.titleCode, now());
    if (!plan || (current && accessOn(current, day))) {
      // Paid, but the buyer got access meanwhile (another order, a family share): the repair job refunds.
      await tx
        .update(subscriptionOrder)
        .set({ state: 'paid', failureCode: plan ? orderErrorCodes.alreadySubscriber : orderErrorCodes.unknownPlan, lastPaymentStatus: 'CAPTURED', paymentId: paid.id, updatedAt: now() })
        .where(eq(subscriptionOrder.id, order.id));
      return;
    }
    const { periodEnd, lastDay } = firstPeriodOf(day, order);
    const paperStartsOn = order.planProductType === 'COMBO' ? ([order.paperStartsOn ?? day, paperStartOf(order.titleCode)].sort()[1] ?? null) : null;
    const method = (order.paymentMethod ?? paid.method) as InvoicePaymentMethod;
    // A card the provider does not keep pays this once; the next periods come as giro invoices.
    const subscriptionMethod = method === 'SWEDBANK-PPG' && !providerStoresCards ? 'INVOICE' : subscriptionMethodOfProvider[method];
    const { row, previous } = await grantSubscription(tx, {
      userId: order.userId,
      titleCode: order.titleCode,
      today: day,
      values: {
        ariaPlanId: plan.ariaPlanID,
        planName: plan.name,
        planProductType: plan.planProductType,
        eligibleForSharing: true,
        // The 1 kr month is a trial (SPEC §4: not paying); every other offer is paid from the start.
        instStatusCode: order.offerCode === 'INTRO_1KR' ? instStatusCodes.TRIAL : instStatusCodes.ACTIVE,
        billingPeriod: plan.billingPeriod,
        // The regular price, with the offer beside it until its first period ends (issue 25.1, price-terms.ts).
        priceOre: order.priceLaterOre,
        ...introColumns(introductoryPriceOf(orderQuoteOf(order), day)),
        paymentMethod: subscriptionMethod,
        features: plan.features,
        startedOn: day,
        currentPeriodEnd: periodEnd,
      },
    });
    // The address first: the invoice's document names the buyer at it.
    if (order.deliveryAddress) {
      const address = order.deliveryAddress;
      await tx
        .insert(deliveryAddress)
        .values({ subscriptionId: row.id, ...address, updatedAt: now() })
        .onConflictDoUpdate({ target: deliveryAddress.subscriptionId, set: { ...address, updatedAt: now() } });
    }
    const created = await insertInvoice(
      tx,
      catalogue,
      order.titleCode,
      {
        ariaAccountNo: row.ariaAccountNo,
        subscriptionId: row.id,
        amountOre: order.amountNowOre,
        description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: lastDay, note: order.offerCode ? offerLabels[order.offerCode as OfferCode] : null }),
        periodFrom: day,
        periodTo: lastDay,
        dueOn: day,
        paidAt: now(),
        settledBy: method,
      },
      now(),
    );
    await tx.update(payment).set({ subscriptionId: row.id, ariaAccountNo: row.ariaAccountNo, ariaInvoiceNo: created.ariaInvoiceNo }).where(eq(payment.id, paid.id));
    await tx.insert(subscriptionChange).values({
      id: randomUUID(),
      subscriptionId: row.id,
      at: now(),
      actor: 'self',
      actorUserId: order.userId,
      kind: previous ? 'reactivated' : 'started',
      fromStatusCode: previous?.instStatusCode ?? null,
      toStatusCode: row.instStatusCode,
      details: { planName: plan.name, on: periodEnd },
    });
    await tx
      .update(subscriptionOrder)
      .set({
        state: 'fulfilled',
        subscriptionId: row.id,
        paymentId: paid.id,
        lastPaymentStatus: 'CAPTURED',
        startedOn: day,
        firstPeriodEnd: lastDay,
        paperStartsOn,
        failureCode: null,
        updatedAt: now(),
      })
      .where(eq(subscriptionOrder.id, order.id));

    const [buyer] = await tx.select().from(appUser).where(eq(appUser.id, order.userId));
    if (buyer) {
      const title = titles.getTitle(order.titleCode);
      const lines = [
        `Takk for bestillingen! Du har nå ${plan.name} (${billingPeriodLabels[plan.billingPeriod].toLowerCase()}).`,
        `Betalt nå: ${formatKroner(order.amountNowOre)} for perioden ${formatLongDate(day)} – ${formatLongDate(lastDay)}.`,
        `Deretter: ${regularPriceText(order.priceLaterOre, plan.billingPeriod)} fra ${formatLongDate(periodEnd)}, ${subscriptionMethod === 'VIPPS' ? 'trukket med Vipps-avtalen du godkjente' : subscriptionMethod === 'INVOICE' ? 'på faktura med KID som du får på e-post før hver periode' : 'trukket fra betalingskortet'}.`,
        ...(paperStartsOn ? [`Papiravisen kommer fra ${formatLongDate(paperStartsOn)}.`] : []),
      ];
      await mailer.enqueue(tx, {
        to: buyer.email,
        title,
        kind: 'orderReceipt',
        ...titleMail(title, { heading: `Kvittering for ${plan.name}`, paragraphs: lines }),
        idempotencyKey: `order:${order.id}:receipt`,
      });
    }
  }

  /** The engine's settlement of an ORDER payment, in its transaction. */
  async function onSettled(tx: Tx, paid: PaymentRow): Promise<void> {
    const orderId = typeof paid.details['orderId'] === 'string' ? paid.details['orderId'] : null;
    if (!orderId) return;
    const [order] = await tx.select().from(subscriptionOrder).where(eq(subscriptionOrder.id, orderId)).for('update');
    if (!order) return;
    const current = paid.details['attempt'] === order.paymentAttempts;
    if (paid.status === 'CAPTURED') {
      if (order.state === 'fulfilled' || order.state === 'paid') return; // a second capture: repair() refunds it
      if (closedStates.includes(order.state as OrderState)) {
        // Money arrived for an order the buyer cancelled or that timed out: nothing is given, repair() refunds.
        await tx
          .update(subscriptionOrder)
          .set({ state: 'paid', failureCode: orderErrorCodes.orderClosed, paymentId: paid.id, lastPaymentStatus: 'CAPTURED', updatedAt: now() })
          .where(eq(subscriptionOrder.id, order.id));
        return;
      }
      await fulfil(tx, order, paid);
      return;
    }
    if (!current || order.state !== 'awaiting_payment') return;
    const next: Partial<Record<string, OrderState>> = { CANCELLED: 'created', FAILED: 'failed', TIMEOUT: 'timed_out' };
    const state = next[paid.status];
    if (!state) return;
    await tx.update(subscriptionOrder).set({ state, lastPaymentStatus: paid.status, paymentId: paid.id, updatedAt: now() }).where(eq(subscriptionOrder.id, order.id));
  }

  return { paperStartOf, fulfil, onSettled };
}
