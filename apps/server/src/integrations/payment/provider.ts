import type { InvoicePaymentMethod, StoredCard } from '@minside/domain';

/**
 * The seam between the billing engine and a payment provider (Vipps, Swedbank Pay for cards).
 * The bank is no provider: OCR Giro and AvtaleGiro move through its files (modules/bank, issue 21). Product code talks to this interface only; which provider is
 * behind it is configuration (PAYMENT_PROVIDER), never an `if (test)` in billing code.
 */

/** A provider's view of one transaction. AUTHORIZED: the payer approved; money is reserved until captured. */
export type ProviderStatus = 'CREATED' | 'AUTHORIZED' | 'CAPTURED' | 'CANCELLED' | 'FAILED' | 'TIMEOUT' | 'REFUNDED';

export interface ProviderTransaction {
  providerReference: string;
  status: ProviderStatus;
  /** For AGREEMENT flows: the stored card / Vipps agreement, once approved. */
  agreementId: string | null;
}

/** What a recurring agreement is for (Vipps MobilePay Recurring shows it to the payer): the plan, its price and period. */
export interface AgreementTerms {
  productName: string;
  priceOre: number;
  intervalMonths: number;
  /** The portal page where the subscriber manages the agreement. */
  agreementPath: string;
}

interface CreatePaymentInput {
  /** Our payment id: the provider sends it back in callbacks. */
  merchantReference: string;
  /** Sent to the provider too, so a retried create at the provider is the same transaction. */
  idempotencyKey: string;
  method: InvoicePaymentMethod;
  /** PAYMENT: charge once. AGREEMENT: store a card or a Vipps recurring agreement (amount 0). */
  kind: 'PAYMENT' | 'AGREEMENT';
  amountOre: number;
  description: string;
  /** Portal path the provider sends the browser back to… */
  returnUrl: string;
  /** …on this origin (the title's portal): a provider on another host needs the whole URL. */
  portalOrigin: string;
  /** Whose payment it is: a title may have its own merchant at the provider (a Vipps MobilePay sales unit). */
  titleCode: string;
  /** AGREEMENT flows: what the agreement is for. */
  agreementTerms?: AgreementTerms;
}

export interface ProviderAgreement {
  agreementId: string;
  method: InvoicePaymentMethod;
  /** Null when the provider has no card on the agreement (SPEC §8 "Finner ikke kortdetaljer"). */
  card: Omit<StoredCard, 'maskedNumber'> | null;
  phoneNumber: string | null;
}

/** A verified provider callback (webhook). `eventId` is unique per event: replays carry the same one. */
export interface CallbackEvent {
  eventId: string;
  providerReference: string;
  merchantReference: string;
  status: ProviderStatus;
  /** Set for an event about a stored agreement itself (accepted, stopped in the provider's app): no payment of ours is named. */
  agreementId?: string;
}

export interface CallbackRequest {
  /** As received: a provider may sign the method, the path and query and the host (Vipps MobilePay does). */
  method: string;
  pathAndQuery: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

export interface PaymentProvider {
  /** Configuration name, stored with each payment (`test`, …). */
  readonly name: string;
  /** Whether it keeps a card to charge later (a subscription paid by card); Vipps MobilePay does not. */
  readonly storesCards: boolean;
  createPayment(input: CreatePaymentInput): Promise<{ providerReference: string; redirectUrl: string }>;
  /** Throws CallbackSignatureError unless the request is signed by the provider and fresh. */
  verifyCallback(request: CallbackRequest): Promise<CallbackEvent>;
  /**
   * Captures an AUTHORIZED payment. `idempotencyKey` (`capture:<paymentId>`) lets a provider that
   * supports it answer a repeated capture with the first one; the engine also never asks twice
   * at once (it claims the payment first), because some providers refuse a second capture.
   */
  capture(providerReference: string, amountOre: number, idempotencyKey: string): Promise<ProviderTransaction>;
  /** `idempotencyKey` is the engine's (`refund:<paymentId>:<why>`): a retry after an unknown outcome is the same refund, never a second one. */
  refund(providerReference: string, amountOre: number, idempotencyKey: string): Promise<ProviderTransaction>;
  cancel(providerReference: string): Promise<ProviderTransaction>;
  /** Status look-up by reference: the return page and the reconciliation job ask this. */
  lookup(providerReference: string): Promise<ProviderTransaction>;
  /**
   * Look-up by our payment id, for a payment whose create/charge call got no answer (timeout):
   * null only when the provider has no such transaction, i.e. nothing was charged.
   */
  lookupByMerchantReference(merchantReference: string): Promise<ProviderTransaction | null>;
  agreement(agreementId: string): Promise<ProviderAgreement | null>;
  /** Stops a stored agreement at the provider (the subscription chose another way to pay); absent where the provider keeps none to stop. */
  stopAgreement?(agreementId: string): Promise<void>;
  /** Upkeep the reconciliation job runs first (a webhook registration that failed at start-up is tried again). */
  maintain?(): Promise<void>;
  /**
   * Days before an invoice's due date its recurring charge must be made (Vipps MobilePay draws a
   * charge on its own due date, at least this far ahead); absent: charged at once, on the due date.
   */
  readonly chargeLeadDays?: number;
  /** A recurring charge on a stored agreement, without the payer present, drawn on `dueOn` (or as soon after as the provider allows). */
  chargeAgreement(input: { agreementId: string; amountOre: number; idempotencyKey: string; merchantReference: string; description: string; dueOn: string }): Promise<ProviderTransaction>;
}

export class CallbackSignatureError extends Error {
  override name = 'CallbackSignatureError';
}

/** The provider says it has no transaction by this reference (not "could not answer"): nothing was charged under it. */
export class ProviderNotFoundError extends Error {
  override name = 'ProviderNotFoundError';
}

/** The provider could not be reached or refused the request: nothing was charged. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
}
