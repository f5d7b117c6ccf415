import { and, eq, isNull, lt, ne, or } from 'drizzle-orm';
import { billingErrorCodes, billingErrorMessages } from '@minside/domain';
import { payment, paymentCallback } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { CallbackSignatureError, ProviderNotFoundError, type CallbackRequest } from '../../integrations/payment/provider.ts';
import type { PaymentAgreements } from './payment-agreements.ts';
import { providerUnavailable, type Apply, type EngineDeps, type PaymentRecord, type PaymentRow } from './payment-record.ts';

// What the provider tells the engine, and when we ask: a signed callback (recorded once by its event
// id), the return page's look-up, and the reconciliation job's look-ups of payments still PENDING
// (given up when the provider never heard of them or the payer never finished). Apart from
// engine.ts: each ends in settlement.ts's `apply`, and only the provider's own status counts.

/** After this long a PENDING payment is looked up by the reconciliation job; after MAX it is given up. */
const RECONCILE_AFTER_MS = 10 * 60 * 1000;
const PENDING_MAX_MS = 60 * 60 * 1000;
/** How often reconciliation asks about a renewal charge the provider holds until its due date. */
const CHARGE_LOOKUP_INTERVAL_MS = 6 * 60 * 60 * 1000;

export function createPaymentLookups(
  deps: Pick<EngineDeps, 'db' | 'provider' | 'now' | 'log'> &
    Pick<PaymentRecord, 'load' | 'finish'> & { apply: Apply; agreements: Pick<PaymentAgreements, 'stopReplacedAgreements' | 'stopAbandonedFlows' | 'agreementChanged'> },
) {
  const { db, provider, now, log, load, finish, apply } = deps;
  const { stopReplacedAgreements, stopAbandonedFlows, agreementChanged } = deps.agreements;

  /** A provider callback: verified, recorded once by event id, then settled from the provider's own status. */
  async function handleCallback(request: CallbackRequest): Promise<{ duplicate: boolean }> {
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
        const waiting = await db
          .select()
          .from(payment)
          .where(and(eq(payment.status, 'PENDING'), eq(payment.provider, provider.name), eq(payment.providerReference, event.agreementId)));
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
  }

  /** The return page's look-up: a PENDING payment is asked about at the provider first. */
  async function refresh(row: PaymentRow): Promise<PaymentRow> {
    if (row.status !== 'PENDING' || !row.providerReference) return row;
    try {
      return (await apply(row.id, await provider.lookup(row.providerReference))) ?? row;
    } catch (error) {
      log.warn({ err: error, paymentId: row.id }, 'provider look-up failed; answering what we know');
      return row;
    }
  }

  /**
   * The reconciliation job: PENDING payments older than RECONCILE_AFTER_MS are looked up at
   * the provider and settled; ones still open after PENDING_MAX_MS are cancelled there
   * (TIMEOUT). Returns how many changed.
   */
  async function reconcile(): Promise<{ examined: number; settled: number }> {
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
        else if (row.purpose === 'RENEWAL')
          await db
            .update(payment)
            .set({ updatedAt: now() })
            .where(and(eq(payment.id, row.id), eq(payment.status, 'PENDING')));
      } catch (error) {
        log.error({ err: error, paymentId: row.id }, 'reconciliation of a payment failed');
      }
    }
    return { examined: stale.length, settled };
  }

  return { handleCallback, refresh, reconcile };
}
