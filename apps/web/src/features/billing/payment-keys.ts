import { z } from 'zod';

/**
 * SPEC §3 "Temporary payment keys held during a payment flow": payment method id, invoice
 * due amount, invoice number, agreement id, source. They live in sessionStorage only while
 * the browser is away at the payment provider, so the return page knows what it was doing;
 * the flow clears them at its end. Never card data: the provider keeps that. The server is
 * the authority on the outcome (the return may open in another browser, where these keys
 * are missing), so nothing here decides whether a payment succeeded.
 */
export const PAYMENT_KEYS_STORAGE_KEY = 'minside.paymentFlow';

const paymentFlowSources = ['payInvoice', 'payLink', 'changePaymentMethod', 'addPaymentCard'] as const;
export type PaymentFlowSource = (typeof paymentFlowSources)[number];

const paymentKeysSchema = z
  .object({
    /** The provider method chosen for this flow (VIPPS, SWEDBANK-PPG, AVTALEGIRO, …). */
    paymentMethodId: z.string().min(1).max(40),
    /** Whole øre due on the invoice being paid; absent outside invoice payments. */
    invoiceDueAmount: z.number().int().nonnegative().optional(),
    /** The ariaInvoiceNo being paid. */
    invoiceNo: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    /** The provider's reference for this payment or agreement (our paymentId). */
    agreementId: z.string().min(1).max(200).optional(),
    /** Which flow started it, so a return lands where it belongs. */
    source: z.enum(paymentFlowSources),
  })
  .strict();
export type PaymentKeys = z.infer<typeof paymentKeysSchema>;

/** What the keys need from the browser's storage; sessionStorage in the app, a fake in tests. */
export type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function sessionStorageOrNull(): KeyStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off (privacy modes): the flow still works, the server knows the payment.
    return null;
  }
}

export function savePaymentKeys(keys: PaymentKeys, storage: KeyStorage | null = sessionStorageOrNull()): void {
  const parsed = paymentKeysSchema.parse(keys);
  try {
    storage?.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify(parsed));
  } catch {
    // A full or disabled storage only loses the convenience, never the payment.
  }
}

/** The keys of the flow in progress, or null when there are none or they are not ours (tampered, old format). */
export function readPaymentKeys(storage: KeyStorage | null = sessionStorageOrNull()): PaymentKeys | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(PAYMENT_KEYS_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const parsed = paymentKeysSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The end of a flow, whatever its outcome. */
export function clearPaymentKeys(storage: KeyStorage | null = sessionStorageOrNull()): void {
  try {
    storage?.removeItem(PAYMENT_KEYS_STORAGE_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}
