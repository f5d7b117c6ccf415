import { z } from 'zod';
import { errorCodes, errorMessages } from '../core/api-error-rules.ts';
import { freeText } from '../core/fields.ts';
import { formatLongDate } from '../core/format.ts';
import { paymentMethods } from '../subscription/subscription.ts';

/**
 * Contracts of invoices and payments (issue 6; SPEC §3 Invoice, §7 `subscription/card`,
 * `subscription/paymentMethod`, `addDiscount`, `getDiscountDetails`, §8 payment errors,
 * §9 payment provider codes and labels). Calls the spec does not show live under
 * `/api/invoice`, `/api/payment` and `/api/paylink`. Money is øre (integers); dates are
 * ISO calendar dates (YYYY-MM-DD, Europe/Oslo); instants are ISO timestamps.
 * Additive changes only: the web client parses every response with these schemas.
 */

const accountNo = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const accountNoParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const titleCode = z
  .string()
  .min(1)
  .max(16)
  .regex(/^[A-Za-z0-9]+$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A client-made UUID that makes a charge idempotent: the same key never charges twice. */
const idempotencyKey = z.uuid();

// ---------------------------------------------------------------------------------------
// SPEC §9: payment provider codes and labels
// ---------------------------------------------------------------------------------------

/** SPEC §9 payment provider codes. SWEDBANK-PPG is the card acquirer. */
const paymentProviderCodes = ['VIPPS', 'SWEDBANK-PPG', 'BANKGIRO', 'AVTALEGIRO', 'STREX'] as const;
export type PaymentProviderCode = (typeof paymentProviderCodes)[number];

/** Norwegian labels of the provider codes; `Betalingskort` and `Vipps` are SPEC §9's own. */
export const paymentProviderLabels: Record<PaymentProviderCode, string> = {
  'SWEDBANK-PPG': 'Betalingskort',
  VIPPS: 'Vipps',
  AVTALEGIRO: 'AvtaleGiro',
  BANKGIRO: 'Giro / eFaktura',
  STREX: 'Strex (mobilregning)',
};

/** Which subscription payment method (subscription.paymentMethod) a provider code results in. */
export const subscriptionMethodOfProvider: Record<Exclude<PaymentProviderCode, 'STREX'>, (typeof paymentMethods)[number]> = {
  'SWEDBANK-PPG': 'CARD',
  VIPPS: 'VIPPS',
  AVTALEGIRO: 'AVTALEGIRO',
  BANKGIRO: 'INVOICE',
};

// ---------------------------------------------------------------------------------------
// Invoices
// ---------------------------------------------------------------------------------------

/** PAID, UNPAID, or OVERDUE (unpaid and the due date has passed, Europe/Oslo). */
const invoiceStatuses = ['PAID', 'UNPAID', 'OVERDUE'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** The labels of issue 6: Betalt / Ikke betalt / Forfalt. */
export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  PAID: 'Betalt',
  UNPAID: 'Ikke betalt',
  OVERDUE: 'Forfalt',
};

/**
 * How an invoice is on its way to being paid (issue 25.6): what the invoice list groups it by and
 * whether it offers "Betal nå". Decided by the server from the bank's word (ADR 024), so the page
 * never guesses from a payment method:
 * - PAID;
 * - DUE: the payer pays it (giro with KID, eFaktura/EHF, Vipps or card here) by its due date;
 * - OVERDUE: unpaid past its due date, nothing under way;
 * - AVTALEGIRO_SCHEDULED: the bank draws it with AvtaleGiro on `scheduledDrawOn` (a confirmed
 *   mandate, and the claim is at the bank or goes there in time): nothing to do, paying another way
 *   would risk paying twice;
 * - AVTALEGIRO_AWAITING_BANK: the draw date has passed and the bank's answer may still come;
 * - AVTALEGIRO_FAILED: the bank did not draw it (no draw in the days a draw can take) or took the
 *   draw back: the payer's to pay, and only then is "Betal nå" offered on an AvtaleGiro invoice.
 */
const invoiceCollections = ['PAID', 'DUE', 'OVERDUE', 'AVTALEGIRO_SCHEDULED', 'AVTALEGIRO_AWAITING_BANK', 'AVTALEGIRO_FAILED'] as const;
export type InvoiceCollection = (typeof invoiceCollections)[number];

/** The invoice list's three groups, in the order shown: what needs the payer first. */
export const invoiceGroups = ['OVERDUE', 'UPCOMING', 'PAID'] as const;
export type InvoiceGroup = (typeof invoiceGroups)[number];

export const invoiceGroupHeadings: Record<InvoiceGroup, string> = {
  OVERDUE: 'Forfalt',
  UPCOMING: 'Kommende',
  PAID: 'Betalt',
};

export const invoiceGroupOf: Record<InvoiceCollection, InvoiceGroup> = {
  PAID: 'PAID',
  DUE: 'UPCOMING',
  OVERDUE: 'OVERDUE',
  AVTALEGIRO_SCHEDULED: 'UPCOMING',
  AVTALEGIRO_AWAITING_BANK: 'UPCOMING',
  AVTALEGIRO_FAILED: 'OVERDUE',
};

/**
 * What the list says of one invoice: a short word for its badge (the group's) and what is under way,
 * e.g. Kommende + "trekkes automatisk 5. desember 2026". `invoiceCollectionLabel` joins them.
 */
export function invoiceCollectionText(invoice: { collection: InvoiceCollection; dueOn: string; scheduledDrawOn: string | null }): { badge: string; detail: string | null } {
  const badge = invoiceGroupHeadings[invoiceGroupOf[invoice.collection]];
  switch (invoice.collection) {
    case 'PAID':
    case 'OVERDUE':
      return { badge, detail: null };
    case 'DUE':
      return { badge, detail: `forfaller ${formatLongDate(invoice.dueOn)}` };
    case 'AVTALEGIRO_SCHEDULED':
      return { badge, detail: `trekkes automatisk ${formatLongDate(invoice.scheduledDrawOn ?? invoice.dueOn)}` };
    case 'AVTALEGIRO_AWAITING_BANK':
      return { badge, detail: `trekk med AvtaleGiro ${formatLongDate(invoice.scheduledDrawOn ?? invoice.dueOn)}, venter på svar fra banken` };
    case 'AVTALEGIRO_FAILED':
      return { badge, detail: 'AvtaleGiro-trekket gikk ikke gjennom' };
  }
}

/** "Kommende – trekkes automatisk 5. desember 2026", "Forfalt", "Betalt". */
export function invoiceCollectionLabel(invoice: { collection: InvoiceCollection; dueOn: string; scheduledDrawOn: string | null }): string {
  const { badge, detail } = invoiceCollectionText(invoice);
  return detail ? `${badge} – ${detail}` : badge;
}

/**
 * Whether the page offers "Betal nå": an invoice the payer has to pay (due, overdue, or after a
 * failed AvtaleGiro draw) that the server takes a payment for. An invoice the bank draws is not
 * offered, even while the claim could still be withdrawn: the subscriber would risk paying twice.
 */
export function offersPayNow(invoice: { payable: boolean; collection: InvoiceCollection }): boolean {
  return invoice.payable && (invoice.collection === 'DUE' || invoice.collection === 'OVERDUE' || invoice.collection === 'AVTALEGIRO_FAILED');
}

/** How a paid invoice was settled: a provider code, or CREDIT when a credit note covered it. */
const invoiceSettlements = [...paymentProviderCodes, 'CREDIT'] as const;
export type InvoiceSettlement = (typeof invoiceSettlements)[number];

/** SPEC §3 Invoice, one row of the overview (`/fakturaoversikt`). */
export const invoiceSchema = z.object({
  ariaInvoiceNo: z.number().int().positive(),
  ariaAccountNo: accountNo,
  /** The subscription's title, for the title name on the invoice. */
  titleCode: z.string(),
  /** KID with a MOD10 check digit (packages/domain kid.ts). */
  kid: z.string(),
  /** The invoice's amount, after discounts (credit notes set off against it are in `creditedOre`). */
  amountOre: z.number().int().nonnegative(),
  status: z.enum(invoiceStatuses),
  description: z.string(),
  periodFrom: isoDate,
  /** Last day of the period (inclusive). */
  periodTo: isoDate,
  dueOn: isoDate,
  /** Our bank account the invoice is paid to, e.g. 1503.12.34567. */
  bankAccountNumber: z.string(),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  /** How it was paid, when it is paid. */
  settledBy: z.enum(invoiceSettlements).nullable(),
  /** True when the subscriber can pay it now with Vipps or card (`/betal-faktura/{no}`). */
  payable: z.boolean(),
  /** What has come in so far (a part-payment in the netbank, say); the amount when paid. */
  paidOre: z.number().int().nonnegative(),
  /** Credit notes set off against it: a complaint credited "på neste faktura" (issue 23). */
  creditedOre: z.number().int().nonnegative(),
  /** What is still to pay: the amount less what has come in and what was set off; 0 when paid. */
  openOre: z.number().int().nonnegative(),
  /** The day the bank draws it with AvtaleGiro, once the claim has gone to the bank (until the draw's answer is due); null otherwise. */
  avtaleGiroDrawOn: isoDate.nullable(),
  /** What the bank draws then (the claim's amount); null without a claim. */
  avtaleGiroDrawOre: z.number().int().nonnegative().nullable(),
  /** How it gets paid (issue 25.6): the list's group and whether "Betal nå" is offered (`offersPayNow`). */
  collection: z.enum(invoiceCollections),
  /** The day the bank draws it with AvtaleGiro (AVTALEGIRO_SCHEDULED and _AWAITING_BANK): the claim's due date, or the invoice's before the claim has gone; null otherwise. */
  scheduledDrawOn: isoDate.nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** GET /api/invoice/{accountNo} and /api/invoice/{accountNo}/{ariaInvoiceNo}/pdf. */
export const invoiceListParamsSchema = z.object({ accountNo: accountNoParam });
export const invoiceParamsSchema = z.object({ accountNo: accountNoParam, ariaInvoiceNo: accountNoParam });
export const creditNoteParamsSchema = z.object({ accountNo: accountNoParam, number: accountNoParam });

/** One credit note (kreditnota, issue 23): numbered in the invoices' series, crediting one invoice. */
const creditNoteSchema = z.object({
  number: z.number().int(),
  ariaInvoiceNo: z.number().int(),
  issuedOn: z.string(),
  amountOre: z.number().int(),
});
export type CreditNote = z.infer<typeof creditNoteSchema>;
export const creditNoteListResponseSchema = z.object({ creditNotes: z.array(creditNoteSchema) });
export type CreditNoteList = z.infer<typeof creditNoteListResponseSchema>;

/** POST /api/operator/invoice/{ariaInvoiceNo}/credit: why, as printed on the credit note. */
export const creditInvoiceBodySchema = z.object({ reason: freeText({ max: 200, required: 'Skriv hvorfor fakturaen krediteres.' }) });
export const creditInvoiceResponseSchema = z.object({ creditNoteNumber: z.number().int(), refunded: z.boolean() });

/** The most invoices one page returns: ten years of monthly invoices fit in one page. */
export const INVOICE_PAGE_MAX = 120;

/**
 * Query of GET /api/invoice/{accountNo}: newest first, `limit` per page (default and maximum
 * INVOICE_PAGE_MAX), `before` = the `nextBefore` of the previous page.
 */
export const invoiceListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(INVOICE_PAGE_MAX).optional(),
  before: accountNoParam.optional(),
});

/** Response of GET /api/invoice/{accountNo}: newest first; `nextBefore` null on the last page. */
export const invoiceListResponseSchema = z.object({
  invoices: z.array(invoiceSchema),
  nextBefore: z.number().int().positive().nullable(),
});
export type InvoiceListResponse = z.infer<typeof invoiceListResponseSchema>;

// ---------------------------------------------------------------------------------------
// Payments
// ---------------------------------------------------------------------------------------

/** The two ways a subscriber pays one invoice at `/betal-faktura/{no}` and `/betaling`. */
export const invoicePaymentMethods = ['VIPPS', 'SWEDBANK-PPG'] as const;
export type InvoicePaymentMethod = (typeof invoicePaymentMethods)[number];

/** POST /api/invoice/{ariaInvoiceNo}/payment. Params: {ariaInvoiceNo}. */
export const invoicePaymentParamsSchema = z.object({ ariaInvoiceNo: accountNoParam });

/** Body of POST /api/invoice/{ariaInvoiceNo}/payment and POST /api/paylink/{token}/payment. */
export const createInvoicePaymentBodySchema = z.object({
  method: z.enum(invoicePaymentMethods),
  idempotencyKey,
});
export type CreateInvoicePaymentBody = z.infer<typeof createInvoicePaymentBodySchema>;

/**
 * A payment started at the provider: send the browser to `redirectUrl` (the provider's
 * hosted page; `/_dev/pay/{id}` with the embedded test provider). The same idempotency key
 * answers the same payment again.
 */
export const paymentRedirectSchema = z.object({
  paymentId: z.string(),
  redirectUrl: z.string(),
});
export type PaymentRedirect = z.infer<typeof paymentRedirectSchema>;

/** REFUNDED: captured, then paid back (e.g. a second capture of an already paid invoice). */
const paymentStatuses = ['PENDING', 'CAPTURED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'REFUNDED'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * What a payment is for. INVOICE: one invoice by the subscriber or by pay-link; RENEWAL: the
 * renewal job charging a stored card/Vipps agreement; CARD_CHANGE: `/legg-til-betalingskort`;
 * PAYMENT_METHOD_CHANGE: `/endre-betalingsmetode` (card or Vipps agreement); ORDER: issue 7.
 */
const paymentPurposes = ['INVOICE', 'RENEWAL', 'CARD_CHANGE', 'PAYMENT_METHOD_CHANGE', 'ORDER'] as const;
export type PaymentPurpose = (typeof paymentPurposes)[number];

// Crockford's base32: no I, L, O or U, so a reference read out on the phone is not misheard.
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A payment's reference as the subscriber reads it on the receipt and tells customer service,
 * "BET-4K7Q-MZ2A", like a complaint's "RK-100001": the first 40 bits of the payment's UUID in
 * base32, so the same payment always has the same reference and customer service finds it by
 * the id's first ten hex digits. Not a UUID: returned as it is.
 */
export function paymentReference(paymentId: string): string {
  const hex = /^([0-9a-f]{8})-([0-9a-f]{2})/i.exec(paymentId);
  if (!hex) return paymentId;
  let bits = BigInt(`0x${hex[1] ?? ''}${hex[2] ?? ''}`);
  let code = '';
  for (let index = 0; index < 8; index += 1) {
    code = (crockford[Number(bits & 31n)] ?? '') + code;
    bits >>= 5n;
  }
  return `BET-${code.slice(0, 4)}-${code.slice(4)}`;
}

/** GET /api/payment/{paymentId}[?token=<pay-link token>]. */
/** Our payment ids are UUIDs; anything else (a NUL byte, free text) is refused before it reaches storage. */
const paymentIdSchema = z.uuid();
export const paymentParamsSchema = z.object({ paymentId: paymentIdSchema });
export const paymentQuerySchema = z.object({ token: z.string().max(512).optional() });

/**
 * The payment as the server knows it, looked up by reference (the return page may open in
 * another browser). A PENDING payment is looked up at the provider before answering.
 */
export const paymentSchema = z.object({
  paymentId: z.string(),
  /** What the receipt calls the payment, "BET-4K7Q-MZ2A" (`paymentReference`), never the UUID. */
  reference: z.string(),
  status: z.enum(paymentStatuses),
  purpose: z.enum(paymentPurposes),
  ariaInvoiceNo: z.number().int().positive().nullable(),
  amountOre: z.number().int().nonnegative(),
  method: z.enum(paymentProviderCodes),
  /** Norwegian text for the user (paymentMessage below). */
  message: z.string(),
  /** E.g. CARD_NOT_FOUND when the provider could not find the card afterwards. */
  errorCode: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  settledAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

/**
 * POST /api/payment/callback/{provider}: the provider's event, as JSON. The route keeps its exact
 * bytes (the signature is over them) and the payment engine reads the event once the signature
 * holds, so nothing about its fields is checked here; what a provider sends is its own contract
 * (Vipps MobilePay: the ePayment and Recurring webhooks).
 */
export const paymentCallbackBodySchema = z.looseObject({});
export const paymentCallbackResponseSchema = z.object({ received: z.boolean(), duplicate: z.boolean() });

// ---------------------------------------------------------------------------------------
// Payment method (SPEC §7 subscription/paymentMethod and subscription/card)
// ---------------------------------------------------------------------------------------

/** GET /api/subscription/{accountNo}/{titleCode}/paymentMethod. */
export const paymentMethodParamsSchema = z.object({ accountNo: accountNoParam, titleCode });

/** A stored card: never more than brand, last four digits and expiry. */
const storedCardSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  /** `**** **** **** 4242`. */
  maskedNumber: z.string(),
  expiryMonth: z.number().int().min(1).max(12),
  expiryYear: z.number().int(),
});
export type StoredCard = z.infer<typeof storedCardSchema>;

/** PENDING until the bank confirms the AvtaleGiro agreement; invoices are giro until then. */
export const agreementStatuses = ['PENDING', 'ACTIVE'] as const;

/**
 * The subscription's current payment method. `method` is subscription.paymentMethod (what
 * `/` shows); the detail objects are set for the method in use.
 */
export const paymentMethodDetailsSchema = z.object({
  ariaAccountNo: accountNo,
  titleCode: z.string(),
  method: z.enum(paymentMethods),
  /** SPEC §9 provider code of the method, null for NONE. */
  providerCode: z.enum(paymentProviderCodes).nullable(),
  /** Norwegian label: Betalingskort, Vipps, AvtaleGiro, Giro / eFaktura, Ingen. */
  label: z.string(),
  card: storedCardSchema.nullable(),
  vippsAgreement: z.object({ agreementId: z.string(), phoneNumber: z.string().nullable() }).nullable(),
  /**
   * AvtaleGiro: what the payer types in their netbank to confirm it (issue 21) — the mandate's
   * customer KID, the title's name and account — and whether the bank has confirmed it.
   */
  avtaleGiro: z
    .object({
      kid: z.string(),
      payeeName: z.string(),
      /** The title's account, as printed (xxxx.xx.xxxxx). */
      payeeAccountNumber: z.string(),
      status: z.enum(agreementStatuses),
    })
    .nullable(),
  /** False for shared members, business employees and non-paying subscriptions: nothing to change. */
  changeable: z.boolean(),
  /** The methods it can switch to with the payment provider the portal runs (a stored card needs one that keeps cards). */
  choices: z.array(z.enum(['SWEDBANK-PPG', 'VIPPS', 'AVTALEGIRO', 'BANKGIRO'])),
});
export type PaymentMethodDetails = z.infer<typeof paymentMethodDetailsSchema>;

/** The methods a subscriber can switch to at `/endre-betalingsmetode`. */
export const changeablePaymentMethods = ['SWEDBANK-PPG', 'VIPPS', 'AVTALEGIRO', 'BANKGIRO'] as const;
export type ChangeablePaymentMethod = (typeof changeablePaymentMethods)[number];

/**
 * PUT /api/subscription/paymentMethod (SPEC §7). AVTALEGIRO needs no account number: the payer
 * confirms the mandate in their own netbank, on the account they choose there (issue 21).
 */
// Strict: a client still sending the old `bankAccountNumber` learns it is gone instead of being ignored.
export const changePaymentMethodBodySchema = z.strictObject({
  ariaAccountNo: accountNo,
  titleCode,
  method: z.enum(changeablePaymentMethods),
  idempotencyKey,
});
export type ChangePaymentMethodBody = z.infer<typeof changePaymentMethodBodySchema>;

/**
 * CHANGED: done at once (BANKGIRO). PENDING_BANK_CONFIRMATION: AvtaleGiro agreement recorded,
 * the subscription's method is AVTALEGIRO, giro until the bank confirms. REDIRECT: card or
 * Vipps agreement: send the browser to `redirectUrl`; it returns to
 * `/endre-betalingsmetode/verify?paymentId=…`.
 */
const changePaymentMethodResults = ['CHANGED', 'PENDING_BANK_CONFIRMATION', 'REDIRECT'] as const;

export const changePaymentMethodResponseSchema = z.object({
  result: z.enum(changePaymentMethodResults),
  redirectUrl: z.string().nullable(),
  paymentId: z.string().nullable(),
  /** The method as it now is (unchanged while a REDIRECT is under way). */
  paymentMethod: paymentMethodDetailsSchema,
});
export type ChangePaymentMethodResponse = z.infer<typeof changePaymentMethodResponseSchema>;

/**
 * PUT /api/subscription/card (SPEC §7): add or replace the card. Answers paymentRedirectSchema;
 * the provider returns to `/legg-til-betalingskort/verify?paymentId=…`.
 */
export const changeCardBodySchema = z.object({
  ariaAccountNo: accountNo,
  titleCode,
  idempotencyKey,
});
export type ChangeCardBody = z.infer<typeof changeCardBodySchema>;

// ---------------------------------------------------------------------------------------
// Discounts (SPEC §7 addDiscount, getDiscountDetails)
// ---------------------------------------------------------------------------------------

/** POST /api/addDiscount. */
export const addDiscountBodySchema = z.object({
  ariaAccountNo: accountNo,
  titleCode,
  discountCode: z.string().trim().min(1).max(40),
});
export type AddDiscountBody = z.infer<typeof addDiscountBodySchema>;

/** POST /api/getDiscountDetails. */
export const getDiscountDetailsBodySchema = z.object({ ariaAccountNo: accountNo, titleCode });

/** The active discount of a subscription: applied to the next `remainingPeriods` invoices. */
const discountSchema = z.object({
  discountCode: z.string(),
  description: z.string(),
  /** One of these is set. */
  percentOff: z.number().int().min(1).max(100).nullable(),
  amountOffOre: z.number().int().positive().nullable(),
  remainingPeriods: z.number().int().nonnegative(),
  addedAt: z.iso.datetime({ offset: true }),
});
export type Discount = z.infer<typeof discountSchema>;

/** Response of both discount calls; null from getDiscountDetails when none is active. */
export const discountResponseSchema = z.object({ discount: discountSchema.nullable() });
export type DiscountResponse = z.infer<typeof discountResponseSchema>;

// ---------------------------------------------------------------------------------------
// Pay-link (`/betaling?token=…`, public)
// ---------------------------------------------------------------------------------------

/** GET /api/paylink/{token} and POST /api/paylink/{token}/payment (body createInvoicePaymentBodySchema). */
export const paylinkParamsSchema = z.object({ token: z.string().min(1).max(512) });

/** What a pay-link shows without a session: enough to recognise the invoice, nothing more. */
export const paylinkDetailsSchema = z.object({
  ariaInvoiceNo: z.number().int().positive(),
  titleCode: z.string(),
  kid: z.string(),
  amountOre: z.number().int().nonnegative(),
  description: z.string(),
  dueOn: isoDate,
  status: z.enum(invoiceStatuses),
  payable: z.boolean(),
  /** What has come in so far (a part-payment in the netbank). */
  paidOre: z.number().int().nonnegative(),
  /** A complaint's credit note set off against it ("Fratrukket kreditnota"). */
  creditedOre: z.number().int().nonnegative(),
  /** What is still to pay (the amount less a part-payment and a set-off credit note). */
  openOre: z.number().int().nonnegative(),
  /** Set when the bank draws it with AvtaleGiro on that day (then it is not payable here). */
  avtaleGiroDrawOn: isoDate.nullable(),
  avtaleGiroDrawOre: z.number().int().nonnegative().nullable(),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type PaylinkDetails = z.infer<typeof paylinkDetailsSchema>;

/** POST /api/operator/paylink (operator bearer token): make a pay-link for one invoice. */
export const createPaylinkBodySchema = z.object({
  ariaInvoiceNo: accountNo,
  validDays: z.number().int().min(1).max(90).optional(),
});
export const createPaylinkResponseSchema = z.object({
  token: z.string(),
  /** Path on the title's portal host: `/betaling?token=…`. */
  path: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
});

// ---------------------------------------------------------------------------------------
// Errors and messages
// ---------------------------------------------------------------------------------------

export const billingErrorCodes = {
  invoiceAlreadyPaid: 'INVOICE_ALREADY_PAID',
  invoiceNotPayable: 'INVOICE_NOT_PAYABLE',
  invoiceDrawnByAvtaleGiro: 'INVOICE_DRAWN_BY_AVTALEGIRO',
  invoiceAmountChanged: 'INVOICE_AMOUNT_CHANGED',
  invoiceBeingCharged: 'INVOICE_BEING_CHARGED',
  cardNotFound: 'CARD_NOT_FOUND',
  paymentMethodNotChangeable: 'PAYMENT_METHOD_NOT_CHANGEABLE',
  paymentMethodNotOffered: 'PAYMENT_METHOD_NOT_OFFERED',
  idempotencyKeyReused: errorCodes.idempotencyKeyReused,
  paymentProviderUnavailable: 'PAYMENT_PROVIDER_UNAVAILABLE',
  invalidSignature: 'INVALID_SIGNATURE',
  paylinkInvalid: 'PAYLINK_INVALID',
  paylinkExpired: 'PAYLINK_EXPIRED',
  discountCodeInvalid: 'DISCOUNT_CODE_INVALID',
  discountAlreadyActive: 'DISCOUNT_ALREADY_ACTIVE',
  discountCodeUsed: 'DISCOUNT_CODE_USED',
  invoiceAlreadyCredited: 'INVOICE_ALREADY_CREDITED',
  invoicePartlyPaid: 'INVOICE_PARTLY_PAID',
  invoicePartlyCredited: 'INVOICE_PARTLY_CREDITED',
  refundNeedsBank: 'REFUND_NEEDS_BANK',
  refundFailed: 'REFUND_FAILED',
} as const;

export const billingErrorMessages = {
  invoiceAlreadyPaid: 'Fakturaen er allerede betalt.',
  invoiceNotPayable: 'Denne fakturaen kan ikke betales her.',
  invoiceDrawnByAvtaleGiro: 'Fakturaen trekkes med AvtaleGiro på forfallsdatoen og kan ikke lenger betales på annen måte.',
  invoiceAmountChanged: 'Det har kommet inn en delbetaling på fakturaen. Last siden på nytt for å se hva som gjenstår.',
  invoiceBeingCharged: 'Fakturaen trekkes nå fra betalingsavtalen din. Vent til trekket er ferdig før du betaler på annen måte.',
  cardNotFound: 'Finner ikke kortdetaljer',
  paymentMethodNotChangeable: 'Betalingsmetoden for dette abonnementet kan ikke endres her.',
  paymentMethodNotOffered: 'Betalingskort kan ikke lagres for abonnementet her. Velg Vipps, AvtaleGiro eller giro.',
  idempotencyKeyReused: errorMessages.idempotencyKeyReused,
  paymentProviderUnavailable: 'Betalingstjenesten svarer ikke akkurat nå. Prøv igjen om litt.',
  invalidSignature: 'Ugyldig signatur.',
  paylinkInvalid: 'Betalingslenken er ugyldig.',
  paylinkExpired: 'Betalingslenken er utløpt. Kontakt kundeservice for å få en ny.',
  discountCodeInvalid: 'Rabattkoden er ugyldig eller utløpt.',
  discountAlreadyActive: 'Abonnementet har allerede en aktiv rabatt.',
  discountCodeUsed: 'Rabattkoden er allerede brukt på dette abonnementet.',
  invoiceAlreadyCredited: 'Fakturaen er allerede kreditert.',
  invoicePartlyPaid: 'Fakturaen er delvis betalt. Krediter den i økonomisystemet og betal tilbake det som er innbetalt.',
  invoicePartlyCredited: 'Fakturaen er allerede delvis kreditert etter en reklamasjon. Krediter resten i økonomisystemet og betal tilbake fra banken.',
  refundNeedsBank: 'Fakturaen er betalt i banken eller utenom Min Side. Pengene må betales tilbake derfra; krediter den i økonomisystemet.',
  refundFailed: 'Betalingstjenesten kunne ikke betale tilbake nå. Ingenting er endret; prøv igjen om litt.',
} as const;

/** The Norwegian text of a payment's state, per purpose (shown on the return pages). */
export function paymentMessage(status: PaymentStatus, purpose: PaymentPurpose, errorCode: string | null): string {
  if (errorCode === billingErrorCodes.cardNotFound) return billingErrorMessages.cardNotFound;
  const change = purpose === 'CARD_CHANGE' || purpose === 'PAYMENT_METHOD_CHANGE';
  switch (status) {
    case 'PENDING':
      return change ? 'Vi venter på svar fra betalingstjenesten.' : 'Betalingen er ikke fullført ennå.';
    case 'CAPTURED':
      if (purpose === 'CARD_CHANGE') return 'Betalingskortet er lagret.';
      if (purpose === 'PAYMENT_METHOD_CHANGE') return 'Betalingsmetoden er endret.';
      return 'Betalingen er gjennomført. Takk!';
    case 'CANCELLED':
      return change ? 'Endringen ble avbrutt. Betalingsmetoden er ikke endret.' : 'Betalingen ble avbrutt. Fakturaen er ikke betalt.';
    case 'FAILED':
      return change ? 'Betalingstjenesten kunne ikke godkjenne endringen. Betalingsmetoden er ikke endret.' : 'Betalingen feilet. Prøv igjen, eller velg en annen betalingsmåte.';
    case 'TIMEOUT':
      return change ? 'Det tok for lang tid, og endringen ble avbrutt. Prøv igjen.' : 'Betalingen tok for lang tid og ble avbrutt. Prøv igjen.';
    case 'REFUNDED':
      return 'Betalingen er tilbakebetalt.';
  }
}

/** Norwegian bank account number: 11 digits, the last a MOD11 check digit; dots and spaces allowed. */
export { isValidBankAccountNumber as isValidNorwegianAccountNumber } from '@minside/titles/bank-account';

/** 12345678903 → 1234.56.78903 (how Norwegian account numbers are written). */
export function formatNorwegianAccountNumber(input: string): string {
  const digits = input.replace(/[\s.]/g, '');
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 4)}.${digits.slice(4, 6)}.${digits.slice(6)}` : input;
}
