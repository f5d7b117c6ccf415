import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, ne } from 'drizzle-orm';
import { paymentProviderLabels, subscriptionMethodOfProvider } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { payment, paymentAgreement, subscription, subscriptionChange } from '../../db/schema.ts';
import type { ProviderAgreement } from '../../integrations/payment/provider.ts';
import { agreementPurposes, SUPERSEDED, type Apply, type EngineDeps, type EngineListeners, type PaymentRow } from './payment-record.ts';

// The payment engine's stored agreements (a card, a Vipps agreement): storing an approved one as
// the subscription's way to pay with its change-log entry, setting aside the flows a newer choice
// overtook, stopping at the provider what we set aside or gave up, and hearing that one ended.
// Apart from engine.ts because it is its own job: it moves no money, it keeps the way to pay true.

/** How long after giving up an agreement flow reconciliation still checks that the provider let it go (a payer has minutes to approve). */
const ABANDONED_FLOW_WINDOW_MS = 6 * 60 * 60 * 1000;

export function createPaymentAgreements(deps: Pick<EngineDeps, 'db' | 'provider' | 'now' | 'log'> & { listeners: Pick<EngineListeners, 'agreementEnded'>; apply: Apply }) {
  const { db, provider, now, log, apply } = deps;
  const agreementEndedListeners = deps.listeners.agreementEnded;

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
      .where(
        and(
          eq(paymentAgreement.provider, provider.name),
          eq(paymentAgreement.method, 'VIPPS'),
          eq(paymentAgreement.status, 'REPLACED'),
          subscriptionId ? eq(paymentAgreement.subscriptionId, subscriptionId) : undefined,
        ),
      );
    for (const row of rows) {
      if (!row.providerAgreementId) continue;
      try {
        await provider.stopAgreement(row.providerAgreementId);
        await db
          .update(paymentAgreement)
          .set({ status: 'STOPPED', updatedAt: now() })
          .where(and(eq(paymentAgreement.id, row.id), eq(paymentAgreement.status, 'REPLACED')));
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
      .where(
        and(
          inArray(paymentAgreement.method, ['VIPPS', 'SWEDBANK-PPG']),
          eq(paymentAgreement.providerAgreementId, agreementId),
          eq(paymentAgreement.provider, provider.name),
          eq(paymentAgreement.status, 'ACTIVE'),
        ),
      );
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
        .where(
          and(eq(payment.subscriptionId, row.subscriptionId), eq(payment.status, 'PENDING'), eq(payment.purpose, 'RENEWAL'), eq(payment.provider, provider.name), isNotNull(payment.providerReference)),
        );
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
    // The subscription row serialises every change of its payment method (payment-method.ts takes it too).
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
   * A newer payment-method choice is being made (giro, AvtaleGiro): the subscription's open card /
   * Vipps agreement flows are cancelled here, in the caller's transaction, so a late approval of
   * one of them settles nothing. The caller cancels them at the provider afterwards (cancelAtProvider).
   * Taken before the subscription row lock, in the same order as `apply` (payment, then subscription).
   */
  async function supersedeAgreementFlows(tx: Tx, subscriptionId: string): Promise<PaymentRow[]> {
    const at = now();
    return tx
      .update(payment)
      .set({ status: 'CANCELLED', errorCode: SUPERSEDED, settledAt: at, updatedAt: at })
      .where(and(eq(payment.subscriptionId, subscriptionId), eq(payment.status, 'PENDING'), inArray(payment.purpose, agreementPurposes)))
      .returning();
  }

  return { stopReplacedAgreements, stopAbandonedFlows, cancelAtProvider, agreementChanged, logMethodChange, storeAgreement, supersedeAgreementFlows };
}

export type PaymentAgreements = ReturnType<typeof createPaymentAgreements>;
