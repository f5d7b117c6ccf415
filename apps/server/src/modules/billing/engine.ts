import { and, eq, inArray } from 'drizzle-orm';
import type { PaymentPurpose } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { payment } from '../../db/schema.ts';
import { createPaymentAgreements } from './payment-agreements.ts';
import { createPaymentFlows } from './payment-flows.ts';
import { createPaymentLookups } from './payment-lookups.ts';
import { createPaymentRecord, type AgreementEndedListener, type Apply, type EngineDeps, type EngineListeners, type PaymentRow, type RefundedListener, type SettledListener } from './payment-record.ts';
import { createSettlement } from './settlement.ts';

/**
 * The payment engine: every charge and provider flow goes through here. The rules:
 * - a payment row with a UNIQUE idempotency key is committed BEFORE the provider is called;
 *   the same key finds the same row (double click, retried request, job run twice);
 * - the provider's answer (callback, return-page look-up, reconciliation) settles a PENDING
 *   row once, under a row lock; a settled row is never settled again (replayed callbacks);
 * - an invoice is marked paid by one payment only: a second capture is refunded.
 *
 * Its jobs are in files of their own, composed here: starting a flow (payment-flows.ts),
 * settling what the provider says (settlement.ts), stored agreements (payment-agreements.ts),
 * callbacks, the return page and reconciliation (payment-lookups.ts), the row (payment-record.ts).
 */

export type { PaymentRow } from './payment-record.ts';

export function createPaymentEngine(deps: EngineDeps) {
  const { provider } = deps;
  // The listeners, told in the order they were registered; every part reads this one set.
  const listeners: EngineListeners = { settled: new Map<PaymentPurpose, SettledListener[]>(), refunded: [], agreementEnded: [] };
  const { load, loadByKey, finish } = createPaymentRecord(deps);
  // The parts settle through each other (an ended agreement settles its waiting charges, a refused
  // charge asks about its agreement): `apply` is the settlement's, made below, and called only later.
  const apply: Apply = (paymentId, observed) => settlement.apply(paymentId, observed);
  const agreements = createPaymentAgreements({ ...deps, listeners, apply });
  const settlement = createSettlement({ ...deps, load, finish, listeners, agreements });
  const { start, cancel } = createPaymentFlows({ ...deps, loadByKey, finish, apply });
  const { handleCallback, refresh, reconcile } = createPaymentLookups({ ...deps, load, finish, apply, agreements });
  const { markRefunded } = settlement;

  return {
    /**
     * Other areas start their own flows with `start` (e.g. issue 7: purpose ORDER, returnPath
     * `/completepurchase?paymentId={paymentId}`) and learn the outcome here, in the settling
     * transaction: a listener that throws rolls the settlement back (the next look-up retries).
     */
    onSettled(purpose: PaymentPurpose, listener: SettledListener): void {
      listeners.settled.set(purpose, [...(listeners.settled.get(purpose) ?? []), listener]);
    },
    /** Told, in the recording transaction, when the provider has refunded a payment. */
    onRefunded(listener: RefundedListener): void {
      listeners.refunded.push(listener);
    },
    /** Told, in the ending transaction, when a stored agreement stopped at the provider (the jobs move the subscription to giro). */
    onAgreementEnded(listener: AgreementEndedListener): void {
      listeners.agreementEnded.push(listener);
    },
    agreementChanged: agreements.agreementChanged,
    stopReplacedAgreements: agreements.stopReplacedAgreements,
    /** Ends a PENDING payment that was never sent to the provider (a renewal charge claimed for an agreement that turned out stopped). No listener runs. */
    giveUp: (paymentId: string, errorCode: string) => finish(paymentId, { status: 'CANCELLED', errorCode }),
    start,
    apply: settlement.apply,
    cancel,
    load,
    logMethodChange: agreements.logMethodChange,

    /** Gives a CAPTURED payment back (issue 7: an order paid but impossible to fulfil). `reason` is kept as its error code. */
    async refund(row: PaymentRow, reason: string): Promise<PaymentRow | undefined> {
      if (row.status !== 'CAPTURED' || !row.providerReference) return row;
      const refunded = await provider.refund(row.providerReference, row.amountOre, `refund:${row.id}:${reason}`);
      if (refunded.status === 'REFUNDED') await markRefunded(row.id, reason);
      return load(row.id);
    },

    // What the provider says, and when we ask (payment-lookups.ts): a signed callback, the return page's look-up, the reconciliation job.
    handleCallback,
    refresh,
    reconcile,
    supersedeAgreementFlows: agreements.supersedeAgreementFlows,
    cancelAtProvider: agreements.cancelAtProvider,

    /** Every PENDING payment of an invoice, whatever its purpose (the renewal job leaves such an invoice alone). */
    async openForInvoice(tx: Tx, ariaInvoiceNo: number): Promise<PaymentRow[]> {
      return tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING')));
    },

    /** PENDING payments for one invoice (INVOICE purpose), locked with the invoice by the caller. */
    async pendingForInvoice(tx: Tx, ariaInvoiceNo: number): Promise<PaymentRow[]> {
      return tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, ariaInvoiceNo), eq(payment.status, 'PENDING'), inArray(payment.purpose, ['INVOICE'])));
    },
  };
}

export type PaymentEngine = ReturnType<typeof createPaymentEngine>;
