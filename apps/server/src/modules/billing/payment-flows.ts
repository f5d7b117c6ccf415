import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { billingErrorCodes, billingErrorMessages, type InvoicePaymentMethod, type PaymentPurpose, type PaymentRedirect } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { invoice, payment } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AgreementTerms } from '../../integrations/payment/provider.ts';
import { agreementPurposes, providerUnavailable, type Apply, type EngineDeps, type PaymentRecord, type PaymentRow } from './payment-record.ts';

// Starting a payment or an agreement flow: the row committed under its idempotency key before the
// provider is called, the same key resuming the same row, the attempts it supersedes cancelled —
// and cancelling a PENDING payment at the provider. Apart from engine.ts because a flow's start is
// its own job; what the provider then says is settled by settlement.ts.

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

export function createPaymentFlows(deps: Pick<EngineDeps, 'db' | 'provider' | 'now' | 'log' | 'portalOrigin'> & Pick<PaymentRecord, 'loadByKey' | 'finish'> & { apply: Apply }) {
  const { db, provider, now, log, portalOrigin, loadByKey, finish, apply } = deps;

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

  return { start, cancel };
}
