import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import {
  CAMPAIGN_CODE,
  hasAgeLimit,
  orderEligibility,
  orderErrorCodes,
  orderMessages,
  osloToday,
  priceOn,
  quoteOrder,
  type CreateOrderBody,
  type Order,
  type OrderResponse,
  type Title,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { appUser, subscriptionOrder, type StoredDeliveryAddress } from '../../db/schema.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';
import { type Mailer } from '../../integrations/mail/index.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { PaymentEngine } from '../billing/index.ts';
import type { PublicationCalendar } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import { townOf } from '../delivery/index.ts';
import { declareBirthdate, sourcesOf } from '../profile/index.ts';
import { toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { createOrderFulfilment } from './fulfilment.ts';
import { ONE_OPEN_ORDER_INDEX, openStates, orderAlreadyOpen, orderError, toOrderDto } from './order-record.ts';
import { createOrderRepair } from './repair.ts';
import { createWinback } from './winback.ts';
import { createOffers } from './offers.ts';
import { createOrderPayment } from './order-payment.ts';

export interface OrderingDeps {
  db: Db;
  engine: PaymentEngine;
  catalogue: Catalogue;
  titles: TitleService;
  accounts: AccountService;
  mailer: Mailer;
  now: () => Date;
  calendarOf: (title: PublicationConfig) => PublicationCalendar;
  cutoffTime: string;
  winbackSecret: string;
  identityProviderName: string;
  log: FastifyBaseLogger;
  /** Whether the payment provider keeps a card for later periods (Vipps MobilePay does not: a card order goes on giro). */
  providerStoresCards: boolean;
  /**
   * The issuer whose login confirms an age (Vipps), for titles that take no self-declaration
   * (issue 24). Null when none is configured: such a title then takes the declaration too, as
   * nobody could buy otherwise.
   */
  ageVerifier?: { label: string } | null;
}

/**
 * Buying a subscription (issue 7): offers priced by `quoteOrder`, an order row per intent
 * (idempotent by the client's key), the payment through the billing engine, and the
 * subscription made in the transaction that settles the payment — so a captured payment and
 * its subscription commit together or not at all. `repair()` mends what a crash between
 * the provider and us can leave (docs/decisions/014-ordering-and-connect.md).
 */
export function createOrderingService(deps: OrderingDeps) {
  const { db, engine, catalogue, titles, accounts, mailer, now, calendarOf, cutoffTime, winbackSecret, identityProviderName, log, providerStoresCards } = deps;
  // Without an issuer that verifies ages, a title with ageSelfDeclaration false takes the declaration (ADR 028).
  const ageVerifier = deps.ageVerifier ?? null;
  const today = () => osloToday(now());
  const { winbackToken, readWinbackToken, formerSubscriberOf, hasAccessAt, winbackFor } = createWinback({ db, accounts, now, winbackSecret });
  const { paperStartOf, fulfil, onSettled } = createOrderFulfilment({ catalogue, titles, mailer, now, calendarOf, cutoffTime, providerStoresCards });
  const repair = createOrderRepair({ db, engine, now, log, fulfil });
  const { loadOwnOrder, startPayment, cancelOrder } = createOrderPayment({ db, engine, accounts, now });
  const { orderablePlans, offers, winbackPage } = createOffers({ db, now, paperStartOf, winback: { readWinbackToken, formerSubscriberOf, hasAccessAt, winbackFor } });

  async function sessionOf(user: SessionUser, titleCode: string): Promise<OrderResponse['session']> {
    const [fresh] = await db.select().from(appUser).where(eq(appUser.id, user.id));
    const own = await accounts.accountOf(user.id);
    if (!fresh || !own) return null;
    return {
      user: toUserDto(fresh, identityProviderName),
      account: toAccountDto(own, fresh, identityProviderName),
      subscription: await accounts.subscriptionForTitle(own, titleCode),
    };
  }

  return {
    onSettled,
    winbackToken,

    offers,
    winback: winbackPage,

    /**
     * POST /api/order: the buyer's choice, checked (SPEC §5 ages, paper address, not already
     * a subscriber, winback eligibility) and priced once. The same key answers the same order.
     */
    async createOrder(user: SessionUser, title: Title, body: CreateOrderBody): Promise<{ order: Order; created: boolean }> {
      const key = `user:${user.id}:${body.idempotencyKey}`;
      const [existing] = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.idempotencyKey, key));
      if (existing) return { order: toOrderDto(existing), created: false };

      const titleCode = title.titleCode;
      const plan = (await orderablePlans(titleCode)).find((candidate) => candidate.ariaPlanID === body.ariaPlanID);
      if (!plan) throw orderError(404, orderErrorCodes.unknownPlan, 'Dette abonnementet selges ikke av avisen.');
      if (await hasAccessAt(user.id, titleCode)) throw orderError(409, orderErrorCodes.alreadySubscriber, orderMessages.alreadySubscriber);
      // A title that takes no self-declared age for an offer with an age limit wants the issuer's
      // verified birthdate first; then the age rules judge that one (issue 24).
      const entry = catalogue.findByTitleCode(titleCode);
      if (ageVerifier && entry && !entry.ageSelfDeclaration && hasAgeLimit(plan)) {
        const { birthdate: source } = await sourcesOf(db, user.id);
        if (!(source?.source === 'ISSUER' && source.verified)) throw orderError(409, orderErrorCodes.ageVerificationRequired, orderMessages.ageVerificationRequired(ageVerifier.label));
      }
      const birthdate = user.birthdate ?? body.birthdate ?? null;
      const eligibility = orderEligibility(plan, birthdate, today());
      if (!eligibility.eligible) throw orderError(eligibility.code === orderErrorCodes.birthdateRequired ? 400 : 409, eligibility.code, eligibility.message);
      const winback = await winbackFor(user, titleCode, body.winback);
      if (body.winback && !winback) throw orderError(403, orderErrorCodes.notEligibleForWinback, orderMessages.notEligibleForWinback);

      let address: StoredDeliveryAddress | null = null;
      if (plan.planProductType === 'COMBO') {
        if (!body.deliveryAddress) throw orderError(400, orderErrorCodes.addressRequired, orderMessages.addressRequired);
        const town = townOf(body.deliveryAddress.postalCode);
        if (!town) throw orderError(400, orderErrorCodes.unknownPostalCode, orderMessages.unknownPostalCode);
        address = { ...body.deliveryAddress, town };
      }
      const quote = quoteOrder(plan, priceOn(plan, today()), { campaign: body.campaignCode?.trim().toUpperCase() === CAMPAIGN_CODE, winback });
      // One open purchase per buyer and offer: the usual case answers here, a burst at the unique index below.
      const [open] = await db
        .select({ id: subscriptionOrder.id })
        .from(subscriptionOrder)
        .where(and(eq(subscriptionOrder.userId, user.id), eq(subscriptionOrder.titleCode, titleCode), eq(subscriptionOrder.ariaPlanId, plan.ariaPlanID), inArray(subscriptionOrder.state, openStates)));
      if (open) throw orderAlreadyOpen();
      const at = now();
      const id = randomUUID();
      const row = await db
        .transaction(async (tx) => {
          // The birthdate the order was judged by (SPEC §5) is the buyer's declaration, locked from now
          // on: an edit later can neither reopen an offer nor close one (issue 24). An issuer's verified
          // birthdate stays the issuer's.
          if (birthdate) await declareBirthdate(tx, user.id, birthdate, at);
          const [inserted] = await tx
            .insert(subscriptionOrder)
            .values({
              id,
              idempotencyKey: key,
              userId: user.id,
              titleCode,
              ariaPlanId: plan.ariaPlanID,
              planName: plan.name,
              planProductType: plan.planProductType,
              billingPeriod: plan.billingPeriod,
              offerCode: quote.offerCode,
              amountNowOre: quote.amountNowOre,
              firstPeriodMonths: quote.firstPeriodMonths,
              priceLaterOre: quote.priceLaterOre,
              laterPeriodMonths: quote.laterPeriodMonths,
              deliveryAddress: address,
              paperStartsOn: address ? paperStartOf(titleCode) : null,
              state: 'created',
              createdAt: at,
              updatedAt: at,
            })
            .onConflictDoNothing({ target: subscriptionOrder.idempotencyKey })
            .returning();
          return inserted;
        })
        .catch(async (error: unknown) => {
          if (uniqueViolationOf(error) !== ONE_OPEN_ORDER_INDEX) throw error;
          // Another order of this offer got in first. Its own key wins over the refusal (a retry of that very order).
          const [same] = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.idempotencyKey, key));
          if (same) return undefined;
          throw orderAlreadyOpen();
        });
      if (row) return { order: toOrderDto(row), created: true };
      // The same key won a race with us a moment ago.
      const [winner] = await db.select().from(subscriptionOrder).where(eq(subscriptionOrder.idempotencyKey, key));
      if (!winner) throw new Error('order vanished');
      return { order: toOrderDto(winner), created: false };
    },

    /** GET /api/order/{id}: a payment still open is looked up at the provider first (the return pages). */
    async getOrder(user: SessionUser, orderId: string): Promise<OrderResponse> {
      let row = await loadOwnOrder(user.id, orderId);
      if (row.state === 'awaiting_payment' && row.paymentId) {
        const paid = await engine.load(row.paymentId);
        if (paid) await engine.refresh(paid);
        row = await loadOwnOrder(user.id, orderId);
      }
      return { order: toOrderDto(row), session: row.state === 'fulfilled' ? await sessionOf(user, row.titleCode) : null };
    },

    startPayment,
    cancelOrder,

    repair,
  };
}

export type OrderingService = ReturnType<typeof createOrderingService>;
