import { insertInvoice, type PaymentEngine, type PaymentRow } from '../billing/index.ts';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import {
  addDays,
  billingPeriodLabels,
  CAMPAIGN_CODE,
  firstPeriodOf,
  formatKroner,
  formatLongDate,
  instStatusCodes,
  introductoryPriceOf,
  invoiceLineDescription,
  nextPossibleDeliveryDay,
  offerLabels,
  hasAgeLimit,
  orderEligibility,
  orderErrorCodes,
  orderMessages,
  osloToday,
  priceOn,
  quoteOrder,
  regularPriceText,
  subscriptionMethodOfProvider,
  type CreateOrderBody,
  type InvoicePaymentMethod,
  type OfferCode,
  type Order,
  type OrderOffer,
  type OrderOffersResponse,
  type OrderQuote,
  type OrderResponse,
  type OrderState,
  type PaymentRedirect,
  type Plan,
  type Title,
  type WinbackResponse,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, deliveryAddress, payment, subscription, subscriptionChange, subscriptionOrder, type StoredDeliveryAddress } from '../../db/schema.ts';
import { uniqueViolationOf } from '../../lib/pg-errors.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import type { PublicationCalendar } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import { townOf } from '../delivery/index.ts';
import { declareBirthdate, sourcesOf } from '../profile/index.ts';
import { accessOn, accessWithOwnerOn, findPlan, grantSubscription, introColumns, lockSubscriptionAt, soldPlans, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';

/** The receiving account printed on invoices the portal creates (illustrative, like the seed's). */
/** An order waiting for its payment this long is given up by the repair job (the engine's PENDING_MAX_MS). */
const ORDER_PAYMENT_MAX_MS = 60 * 60 * 1000;
/** The winback link's default life. */
const WINBACK_LINK_DAYS = 30;

type OrderRow = typeof subscriptionOrder.$inferSelect;

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

function orderError(status: number, code: string, message: string): AppError {
  return new AppError(status, code, message);
}

/** An open order holds its offer: `subscription_order_one_open_idx` allows one per buyer and plan at a title. */
const openStates: OrderState[] = ['created', 'awaiting_payment'];
const ONE_OPEN_ORDER_INDEX = 'subscription_order_one_open_idx';
const orderAlreadyOpen = () => orderError(409, orderErrorCodes.orderAlreadyOpen, orderMessages.orderAlreadyOpen);
const closedStates: OrderState[] = ['cancelled', 'failed', 'timed_out'];

function orderQuoteOf(row: OrderRow): OrderQuote {
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

function toOrderDto(row: OrderRow): Order {
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

  function paperStartOf(titleCode: string): string {
    const entry = catalogue.findByTitleCode(titleCode);
    if (!entry) return addDays(today(), 1);
    return nextPossibleDeliveryDay(calendarOf(entry), now(), cutoffTime);
  }

  // ---- winback links: base64url(payload).base64url(HMAC-SHA256), nothing stored ----------

  function sign(payload: string): string {
    return createHmac('sha256', winbackSecret).update(payload).digest('base64url');
  }

  function winbackToken(ariaAccountNo: number, titleCode: string, validDays = WINBACK_LINK_DAYS): { token: string; expiresAt: Date } {
    const expiresAt = new Date(now().getTime() + validDays * 86_400_000);
    const payload = Buffer.from(JSON.stringify({ v: 1, a: ariaAccountNo, t: titleCode.toUpperCase(), e: expiresAt.getTime() })).toString('base64url');
    return { token: `${payload}.${sign(payload)}`, expiresAt };
  }

  function readWinbackToken(token: string): { ariaAccountNo: number; titleCode: string } {
    const [payload = '', signature = ''] = token.split('.');
    const expected = Buffer.from(sign(payload));
    const presented = Buffer.from(signature);
    if (payload === '' || expected.length !== presented.length || !timingSafeEqual(expected, presented)) {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    let parsed: { v?: number; a?: number; t?: string; e?: number };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    if (parsed.v !== 1 || typeof parsed.a !== 'number' || typeof parsed.t !== 'string' || typeof parsed.e !== 'number') {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    if (parsed.e <= now().getTime()) throw orderError(410, orderErrorCodes.winbackLinkExpired, orderMessages.winbackLinkExpired);
    return { ariaAccountNo: parsed.a, titleCode: parsed.t };
  }

  /** A former subscriber: an own subscription at the title that no longer gives access. */
  async function formerSubscriberOf(reader: Db | Tx, where: { userId?: string; ariaAccountNo?: number }, titleCode: string) {
    const condition = where.userId !== undefined ? eq(account.userId, where.userId) : eq(account.ariaAccountNo, where.ariaAccountNo ?? -1);
    const [row] = await reader
      .select({ subscription, givenName: appUser.givenName, userId: appUser.id })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(and(condition, eq(subscription.titleCode, titleCode.toUpperCase())));
    if (!row) return { former: false, active: false, givenName: null, userId: null };
    // A share counts only while its owner's subscription gives access (review finding 1).
    const active = await accessWithOwnerOn(reader, row.subscription, today());
    return { former: !active && row.subscription.sharedFromSubscriptionId === null, active, givenName: row.givenName, userId: row.userId };
  }

  async function hasAccessAt(userId: string, titleCode: string): Promise<boolean> {
    return (await formerSubscriberOf(db, { userId }, titleCode)).active;
  }

  /** Whether `winback` (a link token, or `signed-in`) entitles this user to the winback at the title. */
  async function winbackFor(user: SessionUser, titleCode: string, winback: string | undefined): Promise<boolean> {
    if (!winback) return false;
    if (winback !== 'signed-in') {
      const link = readWinbackToken(winback);
      const own = await accounts.accountOf(user.id);
      if (link.titleCode !== titleCode.toUpperCase() || own?.ariaAccountNo !== link.ariaAccountNo) {
        throw orderError(403, orderErrorCodes.notEligibleForWinback, orderMessages.notEligibleForWinback);
      }
    }
    return (await formerSubscriberOf(db, { userId: user.id }, titleCode)).former;
  }

  function offerOf(plan: Plan, birthdate: string | null, context: { campaign: boolean; winback: boolean }): OrderOffer {
    const eligibility = orderEligibility(plan, birthdate, today());
    // Without a birthdate every plan waits for one; the form asks, so only the other reasons close a plan here.
    const unavailable = eligibility.eligible || eligibility.code === orderErrorCodes.birthdateRequired ? null : { code: eligibility.code, message: eligibility.message };
    return { plan, quote: quoteOrder(plan, priceOn(plan, today()), context), unavailable };
  }

  /** The plans a buyer can order at a title: sold ones, without those bought only through verification. */
  async function orderablePlans(titleCode: string): Promise<Plan[]> {
    return (await soldPlans(db, titleCode)).filter((plan) => !plan.ariaPlanID.includes('BEDRIFT'));
  }

  async function loadOwnOrder(userId: string, orderId: string): Promise<OrderRow> {
    const [row] = await db.select().from(subscriptionOrder).where(and(eq(subscriptionOrder.id, orderId), eq(subscriptionOrder.userId, userId)));
    if (!row) throw notFound();
    return row;
  }

  // ---- fulfilment: inside the transaction that settles the payment -------------------------

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
    const paperStartsOn = order.planProductType === 'COMBO' ? [order.paperStartsOn ?? day, paperStartOf(order.titleCode)].sort()[1] ?? null : null;
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
    const created = await insertInvoice(tx, catalogue, order.titleCode, {
      ariaAccountNo: row.ariaAccountNo,
      subscriptionId: row.id,
      amountOre: order.amountNowOre,
      description: invoiceLineDescription({ planName: plan.name, periodFrom: day, periodTo: lastDay, note: order.offerCode ? offerLabels[order.offerCode as OfferCode] : null }),
      periodFrom: day,
      periodTo: lastDay,
      dueOn: day,
      paidAt: now(),
      settledBy: method,
    }, now());
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
      .set({ state: 'fulfilled', subscriptionId: row.id, paymentId: paid.id, lastPaymentStatus: 'CAPTURED', startedOn: day, firstPeriodEnd: lastDay, paperStartsOn, failureCode: null, updatedAt: now() })
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
      await mailer.enqueue(tx, { to: buyer.email, title, kind: 'orderReceipt', ...titleMail(title, { heading: `Kvittering for ${plan.name}`, paragraphs: lines }), idempotencyKey: `order:${order.id}:receipt` });
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
        await tx.update(subscriptionOrder).set({ state: 'paid', failureCode: orderErrorCodes.orderClosed, paymentId: paid.id, lastPaymentStatus: 'CAPTURED', updatedAt: now() }).where(eq(subscriptionOrder.id, order.id));
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

    /** GET /api/order/offers: what the title sells to this buyer, priced; signed-in or not. */
    async offers(user: SessionUser | null, title: Title, query: { campaign?: string | undefined; winback?: string | undefined }): Promise<OrderOffersResponse> {
      const campaign = query.campaign?.trim().toUpperCase() === CAMPAIGN_CODE;
      let winback = false;
      if (user && query.winback) {
        try {
          winback = await winbackFor(user, title.titleCode, query.winback);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
      }
      const birthdate = user?.birthdate ?? null;
      const plans = await orderablePlans(title.titleCode);
      return {
        titleCode: title.titleCode,
        offers: plans.map((plan) => offerOf(plan, birthdate, { campaign, winback })),
        campaign: campaign ? { code: CAMPAIGN_CODE, label: offerLabels[CAMPAIGN_CODE] } : null,
        winback,
        hasAccess: user ? await hasAccessAt(user.id, title.titleCode) : false,
        birthdateRequired: user !== null && !user.birthdate,
        paperStartsOn: paperStartOf(title.titleCode),
      };
    },

    /** GET /api/winback: the public offer page, for a signed link or a signed-in former subscriber. */
    async winback(user: SessionUser | null, title: Title, token: string | undefined): Promise<WinbackResponse> {
      const titleCode = title.titleCode;
      const base = { titleCode, eligible: false, activeSubscriber: false, givenName: null, offer: null, reason: null };
      let who: Awaited<ReturnType<typeof formerSubscriberOf>> | null = null;
      if (token) {
        let link: { ariaAccountNo: number; titleCode: string };
        try {
          link = readWinbackToken(token);
        } catch (error) {
          if (error instanceof AppError) return { ...base, reason: error.message };
          throw error;
        }
        if (link.titleCode !== titleCode) return { ...base, reason: orderMessages.winbackLinkInvalid };
        who = await formerSubscriberOf(db, { ariaAccountNo: link.ariaAccountNo }, titleCode);
        if (user && who.userId !== user.id) who = await formerSubscriberOf(db, { userId: user.id }, titleCode);
      } else if (user) {
        who = await formerSubscriberOf(db, { userId: user.id }, titleCode);
      }
      if (!who) return { ...base, reason: null };
      if (who.active) return { ...base, activeSubscriber: true, givenName: who.givenName };
      if (!who.former) return { ...base, givenName: who.givenName, reason: orderMessages.notEligibleForWinback };
      const plan = (await orderablePlans(titleCode)).find((candidate) => /^[A-Z0-9]+-DIGITAL-M$/.test(candidate.ariaPlanID));
      return { ...base, eligible: true, givenName: who.givenName, offer: plan ? offerOf(plan, user?.birthdate ?? null, { campaign: false, winback: true }) : null };
    },

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
      const row = await db.transaction(async (tx) => {
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
      }).catch(async (error: unknown) => {
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

    /**
     * POST /api/order/{id}/payment: pay with Vipps or card. The attempt number makes the
     * payment's idempotency key: a double submit resumes the same payment; after a
     * cancellation at the provider ("Prøv igjen") the next attempt is a new payment.
     */
    async startPayment(user: SessionUser, orderId: string, method: InvoicePaymentMethod): Promise<PaymentRedirect> {
      const decided = await db.transaction(async (tx) => {
        const [order] = await tx.select().from(subscriptionOrder).where(and(eq(subscriptionOrder.id, orderId), eq(subscriptionOrder.userId, user.id))).for('update');
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
        ...(method === 'VIPPS' ? { agreementTerms: { productName: order.planName, priceOre: order.priceLaterOre, intervalMonths: order.laterPeriodMonths, agreementPath: '/endre-betalingsmetode' } } : {}),
        details: { orderId: order.id, attempt },
      });
      await db
        .update(subscriptionOrder)
        .set({ paymentId: redirect.paymentId, updatedAt: now() })
        .where(and(eq(subscriptionOrder.id, order.id), eq(subscriptionOrder.paymentAttempts, attempt), eq(subscriptionOrder.state, 'awaiting_payment')));
      return redirect;
    },

    /** POST /api/order/{id}/cancel (/avbryt-bestilling): an open order ends; an open payment is cancelled at the provider. */
    async cancelOrder(user: SessionUser, orderId: string): Promise<Order> {
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
    },

    /**
     * The repair job (issue 11 schedules it): no charge without a subscription, no order left
     * hanging. (1) Orders waiting for a payment: asked at the provider; past ORDER_PAYMENT_MAX_MS
     * cancelled there and timed out. (2) Paid but not fulfilled: fulfilled if now possible,
     * else refunded and failed. (3) A second capture for a fulfilled order: refunded.
     */
    async repair(): Promise<{ resolved: number; fulfilled: number; refunded: number; timedOut: number }> {
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
            await db.update(subscriptionOrder).set({ state: 'failed', lastPaymentStatus: 'REFUNDED', updatedAt: now() }).where(and(eq(subscriptionOrder.id, order.id), eq(subscriptionOrder.state, 'paid')));
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
        .where(and(eq(payment.purpose, 'ORDER'), eq(payment.status, 'CAPTURED'), inArray(subscriptionOrder.state, ['fulfilled', 'failed', 'paid']), sql`${subscriptionOrder.paymentId} is distinct from ${payment.id}`, lt(payment.createdAt, now())));
      for (const { payment: stray } of strays) {
        try {
          const refunded = await engine.refund(stray, 'DUPLICATE_ORDER_PAYMENT');
          if (refunded?.status === 'REFUNDED') result.refunded += 1;
        } catch (error) {
          log.error({ err: error, paymentId: stray.id }, 'refund of a duplicate order payment failed');
        }
      }
      return result;
    },
  };
}

export type OrderingService = ReturnType<typeof createOrderingService>;
