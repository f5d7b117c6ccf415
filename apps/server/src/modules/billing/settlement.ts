import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { billingErrorCodes, type PaymentPurpose, type PaymentStatus, osloToday } from '@minside/domain';
import { invoice, payment } from '../../db/schema.ts';
import { fixedAvtaleGiroDraw } from './claim-window.ts';
import type { ProviderAgreement, ProviderTransaction } from '../../integrations/payment/provider.ts';
import type { PaymentAgreements } from './payment-agreements.ts';
import { agreementPurposes, capturePurposes, type EngineDeps, type EngineListeners, type PaymentRecord, type PaymentRow } from './payment-record.ts';

// Settling a payment on the provider's word (a callback, the return page, reconciliation, the
// renewal run): the capture under a lease, the PENDING row settled once under its lock with the
// settled listeners in the same transaction, the invoice marked paid by one payment only (a second
// capture refunded), an approved agreement stored. Apart from engine.ts: this is where money is
// decided, and it reads best alone.

/** How long one settler may talk to the provider about a capture before another may try (a crashed one lets go by itself). */
const CAPTURE_LEASE_MS = 2 * 60 * 1000;
/** A second capture of a paid invoice whose refund did not go through: an operator must refund it. */
const DUPLICATE_REFUND_FAILED = 'DUPLICATE_PAYMENT_REFUND_FAILED';

export function createSettlement(
  deps: Pick<EngineDeps, 'db' | 'provider' | 'now' | 'log' | 'mails'> &
    Pick<PaymentRecord, 'load' | 'finish'> & {
      listeners: Pick<EngineListeners, 'settled' | 'refunded'>;
      agreements: Pick<PaymentAgreements, 'storeAgreement' | 'stopReplacedAgreements' | 'agreementChanged'>;
    },
) {
  const { db, provider, now, log, mails, load, finish } = deps;
  const { storeAgreement, stopReplacedAgreements, agreementChanged } = deps.agreements;
  const listeners = deps.listeners.settled;
  const refundedListeners = deps.listeners.refunded;

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
        await db
          .update(payment)
          .set({ providerReference: reference, updatedAt: now() })
          .where(and(eq(payment.id, paymentId), isNull(payment.providerReference)));
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
      for (const listener of listeners.get(purpose) ?? [])
        await listener(tx, { ...locked, providerReference: locked.providerReference ?? reference, status: settled.status, errorCode: settled.errorCode, settledAt: at });
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
          const change =
            agreement.method === 'VIPPS' ? { method: 'VIPPS' as const } : { method: 'CARD' as const, card: agreement.card ? { brand: agreement.card.brand, last4: agreement.card.last4 } : null };
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
      await agreementChanged(state.agreementId).catch((error: unknown) =>
        log.warn({ err: error, agreementId: state.agreementId }, 'could not ask the provider about an agreement after a refused charge'),
      );
    }
    // Only the settler that made the decision: another (webhook and return page at once) found the row settled and must leave the agreement be.
    if (orderAgreement && settledHere && !storedFor && provider.stopAgreement) {
      // Paid, but no subscription came of it (the order is refunded by its repair job): no agreement may go on charging.
      await provider
        .stopAgreement(orderAgreement.agreementId)
        .catch((error: unknown) => log.error({ err: error, paymentId }, 'could not stop the agreement of an order that was not fulfilled; stop it in the Vipps MobilePay portal'));
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
      else
        await db
          .update(payment)
          .set({ errorCode: DUPLICATE_REFUND_FAILED, updatedAt: now() })
          .where(and(eq(payment.id, paymentId), eq(payment.status, 'CAPTURED')));
    }
    return load(paymentId);
  }

  /**
   * Records the provider's REFUNDED, once, and tells the refund listeners in the same transaction
   * (the payer's notice that the money is on its way back, issue 23).
   */
  async function markRefunded(paymentId: string, errorCode: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(payment)
        .set({ status: 'REFUNDED', errorCode, updatedAt: now() })
        .where(and(eq(payment.id, paymentId), eq(payment.status, 'CAPTURED')))
        .returning();
      if (updated) for (const listener of refundedListeners) await listener(tx, updated);
    });
  }

  /** Lets go of a capture lease (the provider call failed or did not settle): the next look-up may try again. */
  async function release(paymentId: string): Promise<void> {
    await db
      .update(payment)
      .set({ claimedUntil: null })
      .where(and(eq(payment.id, paymentId), eq(payment.status, 'PENDING')));
  }

  return { apply, markRefunded };
}
