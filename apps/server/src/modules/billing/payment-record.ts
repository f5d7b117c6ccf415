import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { billingErrorCodes, billingErrorMessages, paymentMessage, paymentReference, type Payment, type PaymentPurpose, type PaymentStatus } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { payment, type paymentAgreement } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ChangeMails } from '../subscription/index.ts';
import type { PaymentProvider, ProviderTransaction } from '../../integrations/payment/provider.ts';

// The payment row and what every part of the payment engine (engine.ts) says of it: its reading
// and its end without the provider, the listeners the engine tells, and its dependencies — one
// file, so that starting, settling, agreements and look-ups share one vocabulary.

export type PaymentRow = typeof payment.$inferSelect;

export const capturePurposes: PaymentPurpose[] = ['INVOICE', 'RENEWAL', 'ORDER'];
export const agreementPurposes: PaymentPurpose[] = ['CARD_CHANGE', 'PAYMENT_METHOD_CHANGE'];
/** A card / Vipps agreement flow overtaken by a newer payment-method choice. */
export const SUPERSEDED = 'SUPERSEDED';

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

export function providerUnavailable(): AppError {
  return new AppError(503, billingErrorCodes.paymentProviderUnavailable, billingErrorMessages.paymentProviderUnavailable);
}

/** Runs inside the transaction that settles a payment (issue 7 orders: activate on CAPTURED). */
export type SettledListener = (tx: Tx, payment: PaymentRow & { status: PaymentStatus }) => Promise<void>;

/** Runs inside the transaction that marks a stored agreement ended at the provider (stopped in its app, expired). */
export type AgreementEndedListener = (tx: Tx, agreement: typeof paymentAgreement.$inferSelect) => Promise<void>;

/** A refunded payment, told in the transaction that records it. */
export type RefundedListener = (tx: Tx, refunded: PaymentRow) => Promise<void>;

/**
 * The engine's listeners, in the order they were registered (they run in that order). One set per
 * engine, shared by reference: engine.ts registers into it, the settlement and the agreements tell it.
 */
export interface EngineListeners {
  settled: Map<PaymentPurpose, SettledListener[]>;
  refunded: RefundedListener[];
  agreementEnded: AgreementEndedListener[];
}

/** A payment's settlement from what the provider says (settlement.ts), handed to the parts that settle. */
export type Apply = (paymentId: string, observed: ProviderTransaction) => Promise<PaymentRow | undefined>;

/** Reading a payment row, and ending a PENDING one without the provider. */
export function createPaymentRecord({ db, now }: Pick<EngineDeps, 'db' | 'now'>) {
  const load = async (id: string) => (await db.select().from(payment).where(eq(payment.id, id)))[0];
  const loadByKey = async (key: string) => (await db.select().from(payment).where(eq(payment.idempotencyKey, key)))[0];

  async function finish(id: string, outcome: { status: PaymentStatus; errorCode: string | null }): Promise<void> {
    const at = now();
    await db
      .update(payment)
      .set({ status: outcome.status, errorCode: outcome.errorCode, settledAt: at, updatedAt: at })
      .where(and(eq(payment.id, id), eq(payment.status, 'PENDING')));
  }

  return { load, loadByKey, finish };
}

export type PaymentRecord = ReturnType<typeof createPaymentRecord>;
