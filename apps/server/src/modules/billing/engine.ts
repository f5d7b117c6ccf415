import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import {
  billingErrorCodes,
  billingErrorMessages,
  paymentMessage,
  paymentReference,
  paymentProviderLabels,
  subscriptionMethodOfProvider,
  type InvoicePaymentMethod,
  type Payment,
  type PaymentPurpose,
  type PaymentRedirect,
  type PaymentStatus,
  osloToday,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { invoice, payment, paymentAgreement, paymentCallback, subscription, subscriptionChange } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { fixedAvtaleGiroDraw } from './claim-window.ts';
import type { ChangeMails } from '../subscription/index.ts';
import { CallbackSignatureError, ProviderNotFoundError, type AgreementTerms, type CallbackRequest, type PaymentProvider, type ProviderAgreement, type ProviderTransaction } from '../../integrations/payment/provider.ts';

/**
 * The payment engine: every charge and provider flow goes through here. The rules:
 * - a payment row with a UNIQUE idempotency key is committed BEFORE the provider is called;
 *   the same key finds the same row (double click, retried request, job run twice);
 * - the provider's answer (callback, return-page look-up, reconciliation) settles a PENDING
 *   row once, under a row lock; a settled row is never settled again (replayed callbacks);
 * - an invoice is marked paid by one payment only: a second capture is refunded.
 */

export type PaymentRow = typeof payment.$inferSelect;

/** After this long a PENDING payment is looked up by the reconciliation job; after MAX it is given up. */
const RECONCILE_AFTER_MS = 10 * 60 * 1000;
const PENDING_MAX_MS = 60 * 60 * 1000;
/** How often reconciliation asks about a renewal charge the provider holds until its due date. */
const CHARGE_LOOKUP_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** How long one settler may talk to the provider about a capture before another may try (a crashed one lets go by itself). */
const CAPTURE_LEASE_MS = 2 * 60 * 1000;
/** A second capture of a paid invoice whose refund did not go through: an operator must refund it. */
const DUPLICATE_REFUND_FAILED = 'DUPLICATE_PAYMENT_REFUND_FAILED';
/** A card / Vipps agreement flow overtaken by a newer payment-method choice. */
const SUPERSEDED = 'SUPERSEDED';
/** How long after giving up an agreement flow reconciliation still checks that the provider let it go (a payer has minutes to approve). */
const ABANDONED_FLOW_WINDOW_MS = 6 * 60 * 60 * 1000;

const capturePurposes: PaymentPurpose[] = ['INVOICE', 'RENEWAL', 'ORDER'];
const agreementPurposes: PaymentPurpose[] = ['CARD_CHANGE', 'PAYMENT_METHOD_CHANGE'];

export interface StartFlowInput {
  /** Full idempotency key, already scoped (`user:<id>:<uuid>`, `paylink:<no>:<uuid>`, `renewal:<no>`). */
  idempotencyKey: string;
  purpose: PaymentPurpose;
  method: InvoicePaymentMethod;
  amountOre: number;
  userId: string | null;
  ariaAccountNo: number | null;
  subscriptionId: string | null;
  ariaInvoiceNo: number | null;
  description: string;
  /** The portal path the provider returns to; `{paymentId}` is filled in. */
  returnPath: string;
  /** Whose portal the payer comes back to (a provider needs the whole URL). */
  titleCode: string;
  /** Agreement flows: the plan, price and period the provider shows the payer. */
  agreementTerms?: AgreementTerms;
  details?: Record<string, unknown>;
}

export interface EngineDeps {
  db: Db;
  provider: PaymentProvider;
  now: () => Date;
  log: FastifyBaseLogger;
  /** A title's portal origin (lib/portal-url.ts), for the return URL the provider sends the payer to. */
  portalOrigin: (titleCode: string) => string;
  /** The subscriber's confirmation of a card or Vipps agreement they approved (issue 25.7). */
  mails: ChangeMails;
}

export function toPaymentDto(row: PaymentRow): Payment {
  const status = row.status as PaymentStatus;
  const purpose = row.purpose as PaymentPurpose;
  return {
    paymentId: row.id,
    reference: paymentReference(row.id),
    status,
    purpose,
    ariaInvoiceNo: row.ariaInvoiceNo,
    amountOre: row.amountOre,
    method: row.method as Payment['method'],
    message: paymentMessage(status, purpose, row.errorCode),
    errorCode: row.errorCode,
    createdAt: row.createdAt.toISOString(),
    settledAt: row.settledAt?.toISOString() ?? null,
  };
}

function providerUnavailable(): AppError {
  return new AppError(503, billingErrorCodes.paymentProviderUnavailable, billingErrorMessages.paymentProviderUnavailable);
}

/** Runs inside the transaction that settles a payment (issue 7 orders: activate on CAPTURED). */
export type SettledListener = (tx: Tx, payment: PaymentRow & { status: PaymentStatus }) => Promise<void>;

/** Runs inside the transaction that marks a stored agreement ended at the provider (stopped in its app, expired). */
export type AgreementEndedListener = (tx: Tx, agreement: typeof paymentAgreement.$inferSelect) => Promise<void>;

/** A refunded payment, told in the transaction that records it. */
export type RefundedListener = (tx: Tx, refunded: PaymentRow) => Promise<void>;

export function createPaymentEngine({ db, provider, now, log, portalOrigin, mails }: EngineDeps) {
  const listeners = new Map<PaymentPurpose, SettledListener[]>();
  const refundedListeners: RefundedListener[] = [];
  const agreementEndedListeners: AgreementEndedListener[] = [];

  /**
   * Stored agreements set aside for another way to pay (REPLACED) that the provider still holds —
   * a Vipps agreement the payer sees in the app, whose charges would go on — are stopped there and
   * marked STOPPED. Best effort after the change is committed; reconciliation sweeps again.
   */
  async function stopReplacedAgreements(subscriptionId?: string): Promise<void> {
    if (!provider.stopAgreement) return;
    const rows = await db
      .select()
      .from(paymentAgreement)
      .where(and(eq(paymentAgreement.provider, provider.name), eq(paymentAgreement.method, 'VIPPS'), eq(paymentAgreement.status, 'REPLACED'), subscriptionId ? eq(paymentAgreement.subscriptionId, subscriptionId) : undefined));
    for (const row of rows) {
      if (!row.providerAgreementId) continue;
      try {
        await provider.stopAgreement(row.providerAgreementId);
        await db.update(paymentAgreement).set({ status: 'STOPPED', updatedAt: now() }).where(and(eq(paymentAgreement.id, row.id), eq(paymentAgreement.status, 'REPLACED')));
      } catch (error) {
        log.warn({ err: error, agreementId: row.providerAgreementId }, 'could not stop a replaced agreement at the provider; reconciliation tries again');
      }
    }
  }

  /**
   * Agreement flows we gave up (a newer choice superseded them) whose stop at the provider did not
   * get through, and which the payer then approved anyway: stopped there now, so the app shows no
   * agreement the portal will never charge. Asked on the agreement's webhook, and by reconciliation
   * for some hours after the flow was made (a payer has minutes to approve). Best effort; the provider's stop is idempotent.
   */
  async function stopAbandonedFlows(agreementId?: string): Promise<void> {
    const since = new Date(now().getTime() - ABANDONED_FLOW_WINDOW_MS);
    const rows = await db
      .select({ id: payment.id, providerReference: payment.providerReference })
      .from(payment)
      .where(
        and(
          eq(payment.provider, provider.name),
          inArray(payment.purpose, agreementPurposes),
          // (status, created_at) is payment_pending_idx: a flow is approvable for minutes after it was made.
          eq(payment.status, 'CANCELLED'),
          gt(payment.createdAt, since),
          eq(payment.errorCode, SUPERSEDED),
          agreementId ? eq(payment.providerReference, agreementId) : isNotNull(payment.providerReference),
        ),
      );
    await cancelAtProvider(rows);
  }

  /** Best effort: flows we no longer want are closed at the provider too (our rows are already settled); reconciliation tries an agreement flow again. */
  async function cancelAtProvider(rows: Pick<PaymentRow, 'id' | 'providerReference'>[]): Promise<void> {
    for (const row of rows) {
      if (!row.providerReference) continue;
      try {
        await provider.cancel(row.providerReference);
      } catch (error) {
        log.warn({ err: error, paymentId: row.id }, 'could not cancel a flow we gave up at the provider; a late approval of it settles nothing, and reconciliation stops an agreement flow again');
      }
    }
  }

  /**
   * The provider says a stored agreement changed: asked again, one that is no longer usable is
   * marked STOPPED on every subscription using it, and the listeners (the billing jobs: back to
   * giro, with a notice) run in the same transaction. Idempotent: a replay finds nothing ACTIVE.
   * Answers whether the provider still has it as usable.
   */
  async function agreementChanged(agreementId: string): Promise<boolean> {
    if (await provider.agreement(agreementId)) return true;
    const rows = await db
      .select()
      .from(paymentAgreement)
      // The method first: payment_agreement_reference_idx is (method, provider_agreement_id).
      .where(and(inArray(paymentAgreement.method, ['VIPPS', 'SWEDBANK-PPG']), eq(paymentAgreement.providerAgreementId, agreementId), eq(paymentAgreement.provider, provider.name), eq(paymentAgreement.status, 'ACTIVE')));
    for (const row of rows) {
      await db.transaction(async (tx) => {
        const [ended] = await tx
          .update(paymentAgreement)
          .set({ status: 'STOPPED', updatedAt: now() })
          .where(and(eq(paymentAgreement.id, row.id), eq(paymentAgreement.status, 'ACTIVE')))
          .returning();
        if (!ended) return;
        for (const listener of agreementEndedListeners) await listener(tx, ended);
      });
      // Its charges still waiting at the provider ended with it: settled now, not at the next look-up hours later.
      const waiting = await db
        .select()
        .from(payment)
        .where(and(eq(payment.subscriptionId, row.subscriptionId), eq(payment.status, 'PENDING'), eq(payment.purpose, 'RENEWAL'), eq(payment.provider, provider.name), isNotNull(payment.providerReference)));
      for (const charge of waiting) {
        try {
          await apply(charge.id, await provider.lookup(charge.providerReference as string));
        } catch (error) {
          log.warn({ err: error, paymentId: charge.id }, 'could not settle a charge of an ended agreement; reconciliation asks again');
        }
      }
    }
    return false;
  }
  const load = async (id: string) => (await db.select().from(payment).where(eq(payment.id, id)))[0];
  const loadByKey = async (key: string) => (await db.select().from(payment).where(eq(payment.idempotencyKey, key)))[0];

  /** Sends a committed PENDING row to the provider (again: the provider is idempotent on the key). */
  async function openAtProvider(row: PaymentRow, kind: 'PAYMENT' | 'AGREEMENT', input: Pick<StartFlowInput, 'description' | 'titleCode' | 'agreementTerms'>): Promise<PaymentRedirect> {
    const { description, titleCode, agreementTerms } = input;
    if (row.redirectUrl) return { paymentId: row.id, redirectUrl: row.redirectUrl };
    let created: { providerReference: string; redirectUrl: string };
    try {
      created = await provider.createPayment({
        merchantReference: row.id,
        idempotencyKey: row.idempotencyKey,
        method: row.method as InvoicePaymentMethod,
        kind,
        amountOre: row.amountOre,
        description,
        returnUrl: row.returnUrl,
        portalOrigin: portalOrigin(titleCode),
        titleCode,
        ...(agreementTerms ? { agreementTerms } : {}),
      });
    } catch (error) {
      // The row stays PENDING without a reference: the same key retries, reconciliation fails it.
      log.error({ err: error, paymentId: row.id }, 'payment provider refused createPayment');
      throw providerUnavailable();
    }
    await db
      .update(payment)
      .set({ providerReference: created.providerReference, redirectUrl: created.redirectUrl, updatedAt: now() })
      .where(and(eq(payment.id, row.id), isNull(payment.providerReference)));
    return { paymentId: row.id, redirectUrl: created.redirectUrl };
  }

  /** What a repeated request with a known key gets: the same payment, or a refusal if it was for something else. */
  async function resume(existing: PaymentRow, input: StartFlowInput, kind: 'PAYMENT' | 'AGREEMENT'): Promise<PaymentRedirect> {
    const same =
      existing.purpose === input.purpose &&
      existing.ariaInvoiceNo === input.ariaInvoiceNo &&
      existing.subscriptionId === input.subscriptionId &&
      existing.method === input.method &&
      existing.userId === input.userId;
    if (!same) throw new AppError(409, billingErrorCodes.idempotencyKeyReused, billingErrorMessages.idempotencyKeyReused);
    // Settled already: send the browser to the receipt rather than to the provider again.
    if (existing.status !== 'PENDING') return { paymentId: existing.id, redirectUrl: existing.returnUrl };
    return openAtProvider(existing, kind, input);
  }

  /**
   * Starts a payment or an agreement flow. `guard` runs inside the transaction that writes
   * the row (it locks and checks the invoice); it returns the PENDING payments this one
   * supersedes, which are cancelled at the provider afterwards.
   */
  async function start(input: StartFlowInput, guard?: (tx: Tx) => Promise<PaymentRow[]>): Promise<PaymentRedirect> {
    const kind = agreementPurposes.includes(input.purpose) ? 'AGREEMENT' : 'PAYMENT';
    const existing = await loadByKey(input.idempotencyKey);
    if (existing) return resume(existing, input, kind);

    const id = randomUUID();
    const at = now();
    let superseded: PaymentRow[] = [];
    const inserted = await db.transaction(async (tx) => {
      superseded = guard ? await guard(tx) : [];
      const [row] = await tx
        .insert(payment)
        .values({
          id,
          idempotencyKey: input.idempotencyKey,
          purpose: input.purpose,
          method: input.method,
          amountOre: input.amountOre,
          status: 'PENDING',
          userId: input.userId,
          ariaAccountNo: input.ariaAccountNo,
          subscriptionId: input.subscriptionId,
          ariaInvoiceNo: input.ariaInvoiceNo,
          provider: provider.name,
          returnUrl: input.returnPath.replace('{paymentId}', encodeURIComponent(id)),
          details: input.details ?? {},
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: payment.idempotencyKey })
        .returning();
      return row;
    });
    if (!inserted) {
      // The same key won a race with us a moment ago.
      const winner = await loadByKey(input.idempotencyKey);
      if (!winner) throw providerUnavailable();
      return resume(winner, input, kind);
    }
    for (const old of superseded) await cancel(old);
    if (input.ariaInvoiceNo !== null && superseded.length > 0) {
      const [row] = await db.select({ paidAt: invoice.paidAt }).from(invoice).where(eq(invoice.ariaInvoiceNo, input.ariaInvoiceNo));
      if (row?.paidAt) {
        // An earlier attempt turned out to be approved: this one is not needed.
        await finish(inserted.id, { status: 'CANCELLED', errorCode: null });
        throw new AppError(409, billingErrorCodes.invoiceAlreadyPaid, billingErrorMessages.invoiceAlreadyPaid);
      }
    }
    return openAtProvider(inserted, kind, input);
  }

  /** Cancels a PENDING payment at the provider; if the provider says it went through after all, settles that. */
  async function cancel(row: PaymentRow): Promise<void> {
    if (row.status !== 'PENDING') return;
    if (!row.providerReference) {
      await finish(row.id, { status: 'CANCELLED', errorCode: null });
      return;
    }
    try {
      await apply(row.id, await provider.cancel(row.providerReference));
    } catch (error) {
      log.warn({ err: error, paymentId: row.id }, 'could not cancel a superseded payment; reconciliation will settle it');
    }
  }

  async function finish(id: string, outcome: { status: PaymentStatus; errorCode: string | null }): Promise<void> {
    const at = now();
    await db
      .update(payment)
      .set({ status: outcome.status, errorCode: outcome.errorCode, settledAt: at, updatedAt: at })
      .where(and(eq(payment.id, id), eq(payment.status, 'PENDING')));
  }

  /** The change log's entry of a new way to pay; its id and time name the confirmation e-mail. */
  async function logMethodChange(tx: Tx, subscriptionId: string, userId: string | null, label: string): Promise<{ changeId: string; at: Date }> {
    const written = { changeId: randomUUID(), at: now() };
    await tx.insert(subscriptionChange).values({
      id: written.changeId,
      subscriptionId,
      at: written.at,
      actor: userId ? 'self' : 'system',
      actorUserId: userId,
      kind: 'paymentMethodChanged',
      details: { paymentMethod: label },
    });
    return written;
  }

  /** Stores an approved card / Vipps agreement as the subscription's way to pay. */
  async function storeAgreement(tx: Tx, row: PaymentRow, agreement: ProviderAgreement): Promise<{ changeId: string; at: Date } | null> {
    if (!row.subscriptionId) return null;
    // The subscription row serialises every change of its payment method (service.ts takes it too).
    await tx.select({ id: subscription.id }).from(subscription).where(eq(subscription.id, row.subscriptionId)).for('update');
    const at = now();
    await tx
      .update(paymentAgreement)
      .set({ status: 'REPLACED', updatedAt: at })
      .where(and(eq(paymentAgreement.subscriptionId, row.subscriptionId), ne(paymentAgreement.status, 'REPLACED')));
    await tx.insert(paymentAgreement).values({
      id: randomUUID(),
      subscriptionId: row.subscriptionId,
      method: agreement.method,
      status: 'ACTIVE',
      provider: provider.name,
      providerAgreementId: agreement.agreementId,
      cardBrand: agreement.card?.brand ?? null,
      cardLast4: agreement.card?.last4 ?? null,
      cardExpiryMonth: agreement.card?.expiryMonth ?? null,
      cardExpiryYear: agreement.card?.expiryYear ?? null,
      phoneNumber: agreement.phoneNumber,
      bankAccountNumber: null,
      createdAt: at,
      updatedAt: at,
    });
    await tx.update(subscription).set({ paymentMethod: subscriptionMethodOfProvider[agreement.method] }).where(eq(subscription.id, row.subscriptionId));
    return logMethodChange(tx, row.subscriptionId, row.userId, paymentProviderLabels[agreement.method]);
  }

  /**
   * Applies what the provider says about a payment. Only a PENDING row changes, under a row
   * lock, so callbacks, return pages and the reconciliation job may all call this at once.
   * A capture is made by one of them only: the one that claims the row's lease first; the
   * others answer what they know (PENDING) and the claimer settles it.
   */
  async function apply(paymentId: string, observed: ProviderTransaction): Promise<PaymentRow | undefined> {
    const row = await load(paymentId);
    if (!row || row.status !== 'PENDING') return row;
    // A charge whose answer was lost has no reference yet: it is recorded with the settlement.
    const reference = row.providerReference ?? observed.providerReference;
    if (!reference) return row;
    const purpose = row.purpose as PaymentPurpose;
    let state = observed;
    let agreement: ProviderAgreement | null = null;
    let claimed = false;
    if (state.status === 'AUTHORIZED' && capturePurposes.includes(purpose) && row.ariaInvoiceNo !== null && (await fixedAvtaleGiroDraw(db, row.ariaInvoiceNo, osloToday(now())))) {
      // Approved, but not captured before the bank's AvtaleGiro draw became certain (a lost
      // callback, a late return): capturing now would pay the invoice twice. Let it go instead.
      state = await provider.cancel(reference);
      if (state.status === 'CANCELLED') {
        await finish(paymentId, { status: 'CANCELLED', errorCode: billingErrorCodes.invoiceDrawnByAvtaleGiro });
        return load(paymentId);
      }
      // Still approved and not cancellable right now: never captured here; the next look-up tries again.
      if (state.status === 'AUTHORIZED') {
        log.error({ paymentId, ariaInvoiceNo: row.ariaInvoiceNo }, 'an approved payment of an invoice the bank draws could not be cancelled; it is left uncaptured and tried again');
        return row;
      }
    }
    if (state.status === 'AUTHORIZED' && capturePurposes.includes(purpose)) {
      const at = now();
      const [claim] = await db
        .update(payment)
        .set({ claimedUntil: new Date(at.getTime() + CAPTURE_LEASE_MS), updatedAt: at })
        .where(and(eq(payment.id, paymentId), eq(payment.status, 'PENDING'), or(isNull(payment.claimedUntil), lt(payment.claimedUntil, at))))
        .returning({ id: payment.id });
      if (!claim) return load(paymentId);
      claimed = true;
      try {
        state = await provider.capture(reference, row.amountOre, `capture:${row.id}`);
      } catch (error) {
        await release(paymentId);
        throw error;
      }
    } else if (state.status === 'AUTHORIZED' && agreementPurposes.includes(purpose)) {
      agreement = state.agreementId ? await provider.agreement(state.agreementId) : null;
    }

    // A subscription bought with a Vipps agreement (its first charge is the order): the agreement becomes the new subscription's way to pay.
    let orderAgreement: ProviderAgreement | null = null;
    if (state.status === 'CAPTURED' && purpose === 'ORDER' && state.agreementId) {
      orderAgreement = await provider.agreement(state.agreementId);
    }

    let outcome: { status: PaymentStatus; errorCode: string | null } | null;
    switch (state.status) {
      case 'CAPTURED':
        outcome = { status: 'CAPTURED', errorCode: null };
        break;
      case 'AUTHORIZED':
        outcome = agreementPurposes.includes(purpose)
          ? agreement
            ? { status: 'CAPTURED', errorCode: null }
            : { status: 'FAILED', errorCode: row.method === 'SWEDBANK-PPG' ? billingErrorCodes.cardNotFound : 'AGREEMENT_NOT_FOUND' }
          : null;
        break;
      case 'CANCELLED':
      case 'FAILED':
      case 'TIMEOUT':
      case 'REFUNDED':
        outcome = { status: state.status, errorCode: null };
        break;
      default:
        outcome = null;
    }
    if (!outcome) {
      if (claimed) await release(paymentId);
      if (!row.providerReference) {
        await db.update(payment).set({ providerReference: reference, updatedAt: now() }).where(and(eq(payment.id, paymentId), isNull(payment.providerReference)));
      }
      return load(paymentId);
    }
    const settled = outcome;

    let duplicate = false;
    let storedFor: string | null = null;
    let settledHere = false;
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for('update');
      if (!locked || locked.status !== 'PENDING') return;
      settledHere = true;
      const at = now();
      await tx
        .update(payment)
        .set({ status: settled.status, errorCode: settled.errorCode, settledAt: at, updatedAt: at, claimedUntil: null, providerReference: locked.providerReference ?? reference })
        .where(eq(payment.id, paymentId));
      for (const listener of listeners.get(purpose) ?? []) await listener(tx, { ...locked, providerReference: locked.providerReference ?? reference, status: settled.status, errorCode: settled.errorCode, settledAt: at });
      if (settled.status !== 'CAPTURED') return;
      if (locked.ariaInvoiceNo !== null && capturePurposes.includes(purpose)) {
        const [target] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, locked.ariaInvoiceNo)).for('update');
        if (target?.paidAt) duplicate = true;
        else await tx.update(invoice).set({ paidAt: at, settledBy: locked.method }).where(eq(invoice.ariaInvoiceNo, locked.ariaInvoiceNo));
      }
      if (agreement) {
        const stored = await storeAgreement(tx, locked, agreement);
        // The subscriber chose this way to pay on Min Side: told in the same transaction. (An order's agreement is told by its receipt.)
        if (stored && locked.subscriptionId) {
          const change = agreement.method === 'VIPPS' ? { method: 'VIPPS' as const } : { method: 'CARD' as const, card: agreement.card ? { brand: agreement.card.brand, last4: agreement.card.last4 } : null };
          await mails.paymentMethodChanged(tx, { subscriptionId: locked.subscriptionId, ...stored, change });
        }
      }
      if (orderAgreement) {
        // The order's listener made the subscription (or found the buyer had one already: then nothing is kept).
        const [fulfilled] = await tx.select({ subscriptionId: payment.subscriptionId }).from(payment).where(eq(payment.id, paymentId));
        if (fulfilled?.subscriptionId) {
          await storeAgreement(tx, { ...locked, subscriptionId: fulfilled.subscriptionId }, orderAgreement);
          storedFor = fulfilled.subscriptionId;
        }
      }
    });
    // A new card or Vipps agreement replaced an older one: the older one is stopped at the provider.
    if (agreement && row.subscriptionId) await stopReplacedAgreements(row.subscriptionId);
    if (storedFor) await stopReplacedAgreements(storedFor);
    if (purpose === 'RENEWAL' && row.method === 'VIPPS' && (settled.status === 'FAILED' || settled.status === 'CANCELLED') && state.agreementId) {
      // A refused Vipps charge may mean the agreement was stopped in the app and its webhook lost: asked now, not at the next invoice.
      // (A card's failed charge says nothing of the card: it may work again at the next attempt.)
      await agreementChanged(state.agreementId).catch((error: unknown) => log.warn({ err: error, agreementId: state.agreementId }, 'could not ask the provider about an agreement after a refused charge'));
    }
    // Only the settler that made the decision: another (webhook and return page at once) found the row settled and must leave the agreement be.
    if (orderAgreement && settledHere && !storedFor && provider.stopAgreement) {
      // Paid, but no subscription came of it (the order is refunded by its repair job): no agreement may go on charging.
      await provider.stopAgreement(orderAgreement.agreementId).catch((error: unknown) => log.error({ err: error, paymentId }, 'could not stop the agreement of an order that was not fulfilled; stop it in the Vipps MobilePay portal'));
    }
    if (duplicate) {
      // Paid twice (two tabs, two methods): the invoice keeps the first; this money goes back.
      let refunded = false;
      try {
        refunded = (await provider.refund(reference, row.amountOre, `refund:${paymentId}:duplicate`)).status === 'REFUNDED';
      } catch (error) {
        log.error({ err: error, paymentId }, 'refund of a duplicate payment failed; an operator must refund it');
      }
      if (refunded) await markRefunded(paymentId, 'DUPLICATE_PAYMENT');
      else await db.update(payment).set({ errorCode: DUPLICATE_REFUND_FAILED, updatedAt: now() }).where(and(eq(payment.id, paymentId), eq(payment.status, 'CAPTURED')));
    }
    return load(paymentId);
  }

  /**
   * Records the provider's REFUNDED, once, and tells the refund listeners in the same transaction
   * (the payer's notice that the money is on its way back, issue 23).
   */
  async function markRefunded(paymentId: string, errorCode: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [updated] = await tx.update(payment).set({ status: 'REFUNDED', errorCode, updatedAt: now() }).where(and(eq(payment.id, paymentId), eq(payment.status, 'CAPTURED'))).returning();
      if (updated) for (const listener of refundedListeners) await listener(tx, updated);
    });
  }

  /** Lets go of a capture lease (the provider call failed or did not settle): the next look-up may try again. */
  async function release(paymentId: string): Promise<void> {
    await db.update(payment).set({ claimedUntil: null }).where(and(eq(payment.id, paymentId), eq(payment.status, 'PENDING')));
  }

  return {
    /**
     * Other areas start their own flows with `start` (e.g. issue 7: purpose ORDER, returnPath
     * `/completepurchase?paymentId={paymentId}`) and learn the outcome here, in the settling
     * transaction: a listener that throws rolls the settlement back (the next look-up retries).
     */
    onSettled(purpose: PaymentPurpose, listener: SettledListener): void {
      listeners.set(purpose, [...(listeners.get(purpose) ?? []), listener]);
    },
    /** Told, in the recording transaction, when the provider has refunded a payment. */
    onRefunded(listener: RefundedListener): void {
      refundedListeners.push(listener);
    },
    /** Told, in the ending transaction, when a stored agreement stopped at the provider (the jobs move the subscription to giro). */
    onAgreementEnded(listener: AgreementEndedListener): void {
      agreementEndedListeners.push(listener);
    },
    agreementChanged,
    stopReplacedAgreements,
    /** Ends a PENDING payment that was never sent to the provider (a renewal charge claimed for an agreement that turned out stopped). No listener runs. */
    giveUp: (paymentId: string, errorCode: string) => finish(paymentId, { status: 'CANCELLED', errorCode }),
    start,
    apply,
    cancel,
    load,
    logMethodChange,

    /** Gives a CAPTURED payment back (issue 7: an order paid but impossible to fulfil). `reason` is kept as its error code. */
    async refund(row: PaymentRow, reason: string): Promise<PaymentRow | undefined> {
      if (row.status !== 'CAPTURED' || !row.providerReference) return row;
      const refunded = await provider.refund(row.providerReference, row.amountOre, `refund:${row.id}:${reason}`);
      if (refunded.status === 'REFUNDED') await markRefunded(row.id, reason);
      return load(row.id);
    },

    /** A provider callback: verified, recorded once by event id, then settled from the provider's own status. */
    async handleCallback(request: CallbackRequest): Promise<{ duplicate: boolean }> {
      let event;
      try {
        event = await provider.verifyCallback(request);
      } catch (error) {
        if (error instanceof CallbackSignatureError) throw new AppError(401, billingErrorCodes.invalidSignature, billingErrorMessages.invalidSignature);
        throw error;
      }
      if (event.agreementId && !event.merchantReference) {
        try {
          // A flow waiting for this agreement (the payer approved it and closed the tab): settled now, not at the next reconciliation.
          const waiting = await db.select().from(payment).where(and(eq(payment.status, 'PENDING'), eq(payment.provider, provider.name), eq(payment.providerReference, event.agreementId)));
          for (const row of waiting) await apply(row.id, await provider.lookup(event.agreementId));
          await stopAbandonedFlows(event.agreementId);
          await agreementChanged(event.agreementId);
        } catch (error) {
          log.error({ err: error, agreementId: event.agreementId }, 'provider agreement callback could not be processed; the provider will retry it');
          throw providerUnavailable();
        }
        return { duplicate: false };
      }
      const row = await load(event.merchantReference);
      if (!row || row.provider !== provider.name || (row.providerReference !== null && row.providerReference !== event.providerReference)) {
        // Signed by the provider, but not about a payment of ours (another shop on the same merchant,
        // a payment made in its portal): acknowledged, so it is not sent again for days, and nothing moves.
        log.warn({ eventId: event.eventId, merchantReference: event.merchantReference }, 'provider callback about a payment we do not know; acknowledged and ignored');
        return { duplicate: false };
      }
      const [recorded] = await db
        .insert(paymentCallback)
        .values({ provider: provider.name, eventId: event.eventId, paymentId: row.id, status: event.status, receivedAt: now() })
        .onConflictDoNothing()
        .returning();
      if (!recorded) return { duplicate: true };
      try {
        // The callback says "look": the provider's own status is the truth, not the callback body.
        await apply(row.id, await provider.lookup(event.providerReference));
      } catch (error) {
        // Not processed: forget the event, so the provider's retry of it is processed, not dropped.
        await db.delete(paymentCallback).where(and(eq(paymentCallback.provider, provider.name), eq(paymentCallback.eventId, event.eventId)));
        log.error({ err: error, paymentId: row.id }, 'provider callback could not be processed; the provider will retry it');
        throw providerUnavailable();
      }
      return { duplicate: false };
    },

    /** The return page's look-up: a PENDING payment is asked about at the provider first. */
    async refresh(row: PaymentRow): Promise<PaymentRow> {
      if (row.status !== 'PENDING' || !row.providerReference) return row;
      try {
        return (await apply(row.id, await provider.lookup(row.providerReference))) ?? row;
      } catch (error) {
        log.warn({ err: error, paymentId: row.id }, 'provider look-up failed; answering what we know');
        return row;
      }
    },

    /**
     * The reconciliation job: PENDING payments older than RECONCILE_AFTER_MS are looked up at
     * the provider and settled; ones still open after PENDING_MAX_MS are cancelled there
     * (TIMEOUT). Returns how many changed.
     */
    async reconcile(): Promise<{ examined: number; settled: number }> {
      await stopReplacedAgreements();
      await stopAbandonedFlows();
      const at = now().getTime();
      const stale = await db
        .select()
        .from(payment)
        .where(
          and(
            eq(payment.status, 'PENDING'),
            lt(payment.createdAt, new Date(at - RECONCILE_AFTER_MS)),
            // A renewal charge the provider has (it waits days for its due date, and its webhook settles it) is asked about now and then, not every run.
            or(ne(payment.purpose, 'RENEWAL'), isNull(payment.providerReference), lt(payment.updatedAt, new Date(at - CHARGE_LOOKUP_INTERVAL_MS))),
          ),
        );
      let settled = 0;
      for (const row of stale) {
        try {
          let observed;
          if (row.providerReference) {
            try {
              observed = await provider.lookup(row.providerReference);
            } catch (error) {
              // Never heard of at the provider (a simulator restarted, a payment it deleted) — its own
              // "no such thing", not an error that says nothing: once it is old, nothing was charged.
              if (!(error instanceof ProviderNotFoundError) || at - row.createdAt.getTime() < PENDING_MAX_MS) throw error;
              await finish(row.id, { status: 'FAILED', errorCode: 'NOT_FOUND_AT_PROVIDER' });
              settled += 1;
              continue;
            }
          } else {
            // The create or charge call got no answer: only the provider knows whether it went through.
            const found = await provider.lookupByMerchantReference(row.id);
            if (!found) {
              await finish(row.id, { status: 'FAILED', errorCode: 'NOT_SENT_TO_PROVIDER' });
              settled += 1;
              continue;
            }
            observed = found;
          }
          let after = await apply(row.id, observed);
          // Only a flow the payer never finished is given up; an AUTHORIZED one is being captured.
          if (after?.status === 'PENDING' && observed.status === 'CREATED' && at - row.createdAt.getTime() >= PENDING_MAX_MS) {
            const cancelled = await provider.cancel(observed.providerReference);
            after = await apply(row.id, cancelled.status === 'CANCELLED' ? { ...cancelled, status: 'TIMEOUT' } : cancelled);
          }
          if (after && after.status !== 'PENDING') settled += 1;
          else if (row.purpose === 'RENEWAL') await db.update(payment).set({ updatedAt: now() }).where(and(eq(payment.id, row.id), eq(payment.status, 'PENDING')));
        } catch (error) {
          log.error({ err: error, paymentId: row.id }, 'reconciliation of a payment failed');
        }
      }
      return { examined: stale.length, settled };
    },

    /**
     * A newer payment-method choice is being made (giro, AvtaleGiro): the subscription's open card /
     * Vipps agreement flows are cancelled here, in the caller's transaction, so a late approval of
     * one of them settles nothing. The caller cancels them at the provider afterwards (cancelAtProvider).
     * Taken before the subscription row lock, in the same order as `apply` (payment, then subscription).
     */
    async supersedeAgreementFlows(tx: Tx, subscriptionId: string): Promise<PaymentRow[]> {
      const at = now();
      return tx
        .update(payment)
        .set({ status: 'CANCELLED', errorCode: SUPERSEDED, settledAt: at, updatedAt: at })
        .where(and(eq(payment.subscriptionId, subscriptionId), eq(payment.status, 'PENDING'), inArray(payment.purpose, agreementPurposes)))
        .returning();
    },

    cancelAtProvider,

    /** Every PENDING payment of an invoice, whatever its purpose (the renewal job leaves such an invoice alone). */
    async openForInvoice(tx: Tx, ariaInvoiceNo: number): Promise<PaymentRow[]> {
      return tx.select().from(payment).where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING')));
    },

    /** PENDING payments for one invoice (INVOICE purpose), locked with the invoice by the caller. */
    async pendingForInvoice(tx: Tx, ariaInvoiceNo: number): Promise<PaymentRow[]> {
      return tx.select().from(payment).where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING'), inArray(payment.purpose, ['INVOICE'])));
    },
  };
}

export type PaymentEngine = ReturnType<typeof createPaymentEngine>;
