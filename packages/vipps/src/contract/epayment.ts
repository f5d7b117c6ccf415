/**
 * ePayment API v1, spec 1.4.1 (`vippsas/vipps-epayment-api` @ e7a5c6e, `docs/epayment.v1.yml`),
 * with the prose rules of its guides @ 31a14f7 where they constrain a request.
 *
 * Request schemas strip unknown fields (the spec does not forbid them) and carry the documented
 * cross-field rules. Answer schemas accept extra fields (the provider adds fields over time) but
 * refuse a missing required field or an enum value they do not know.
 */
import { z } from 'zod';
import { Amount, DateTime, Msn } from './common.ts';

/** `Reference` (also the path parameter `Payment-Reference-ID`, whose `minLength: 1` contradicts its own pattern). */
export const Reference = z.string().regex(/^[a-zA-Z0-9-]{8,50}$/);
export type Reference = z.infer<typeof Reference>;

export const PaymentMethodType = z.enum(['WALLET', 'CARD']);
export type PaymentMethodType = z.infer<typeof PaymentMethodType>;

export const UserFlow = z.enum(['PUSH_MESSAGE', 'NATIVE_REDIRECT', 'WEB_REDIRECT', 'QR']);
export type UserFlow = z.infer<typeof UserFlow>;

export const CustomerInteraction = z.enum(['CUSTOMER_PRESENT', 'CUSTOMER_NOT_PRESENT']);
export type CustomerInteraction = z.infer<typeof CustomerInteraction>;

/**
 * `Customer` is a oneOf of `{phoneNumber}`, `{personalQr}` and `{customerToken}`: "Specifying more
 * than one of these will result in an error."
 */
export const Customer = z
  .object({
    phoneNumber: z
      .string()
      .regex(/^\d{10,15}$/)
      .optional(),
    personalQr: z.string().min(5).max(255).optional(),
    customerToken: z.string().optional(),
  })
  .superRefine((customer, ctx) => {
    const given = (['phoneNumber', 'personalQr', 'customerToken'] as const).filter((key) => customer[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'exactly one of phoneNumber, personalQr and customerToken is required' });
    }
  });
export type Customer = z.infer<typeof Customer>;

const Rfc3339 = /^((?:(\d{4}-\d{2}-\d{2})(T|t)(\d{2}:\d{2}:\d{2}(?:\.\d+)?))(Z|z|([+-](?:2[0-3]|[01][0-9]):[0-5][0-9])))$/;

export const QrFormat = z.object({
  format: z.enum(['TEXT/TARGETURL', 'IMAGE/SVG+XML', 'IMAGE/PNG']),
  size: z.int().min(100).max(2000).nullable().optional(),
});
export type QrFormat = z.infer<typeof QrFormat>;

export const AirlineData = z.object({
  agencyInvoiceNumber: z.string().min(1).max(6),
  airlineCode: z.string().length(3),
  airlineDesignatorCode: z.string().length(2),
  passengerName: z.string().min(1).max(49),
  ticketNumber: z.string().min(1).max(150).optional(),
});

export const CreatePaymentRequest = z
  .object({
    amount: Amount,
    paymentMethod: z.object({ type: PaymentMethodType }),
    customer: Customer.optional(),
    customerInteraction: CustomerInteraction.optional(),
    reference: Reference,
    /** "must use the `https://` scheme or a custom URL scheme" (prose; the schema says string). */
    returnUrl: z.string().optional(),
    userFlow: UserFlow,
    paymentDescription: z.string().min(3).max(100).optional(),
    /** RFC 3339; >10 min and <28 days ahead; only with PUSH_MESSAGE or QR; needs `receipt`. */
    expiresAt: z.string().regex(Rfc3339).nullable().optional(),
    qrFormat: QrFormat.nullable().optional(),
    profile: z.object({ scope: z.string().optional() }).optional(),
    metadata: z
      .record(z.string().max(100), z.string().max(500))
      .refine((metadata) => Object.keys(metadata).length <= 5, 'at most 5 properties')
      .nullable()
      .optional(),
    receiptUrl: z.string().nullable().optional(),
    /**
     * A `$ref` into the Order Management API's `Receipt`, which the pinned spec does not resolve;
     * passed on as an object without checking its inside.
     */
    receipt: z.looseObject({}).optional(),
    industryData: z.object({ airlineData: AirlineData.optional() }).optional(),
  })
  .superRefine((request, ctx) => {
    if (request.paymentMethod.type === 'CARD' && request.userFlow !== 'WEB_REDIRECT') {
      ctx.addIssue({ code: 'custom', path: ['userFlow'], message: '`CARD` has to be combined with a `userFlow` of `WEB_REDIRECT`' });
    }
    if (request.userFlow === 'PUSH_MESSAGE' && request.customer === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customer'], message: 'a valid customer is required when userFlow is PUSH_MESSAGE' });
    }
    if (request.userFlow === 'WEB_REDIRECT' && (request.returnUrl === undefined || request.returnUrl === '')) {
      ctx.addIssue({ code: 'custom', path: ['returnUrl'], message: 'a valid returnUrl is required when userFlow is WEB_REDIRECT' });
    }
    if (request.expiresAt !== undefined && request.expiresAt !== null) {
      if (request.userFlow !== 'PUSH_MESSAGE' && request.userFlow !== 'QR') {
        ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'expiresAt is only allowed with userFlow PUSH_MESSAGE or QR' });
      }
      if (request.receipt === undefined) {
        ctx.addIssue({ code: 'custom', path: ['receipt'], message: 'if expiresAt is set, receipt also must be set' });
      }
    }
    if (request.qrFormat !== undefined && request.qrFormat !== null && request.userFlow !== 'QR') {
      ctx.addIssue({ code: 'custom', path: ['qrFormat'], message: 'qrFormat is only allowed with userFlow QR' });
    }
  });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

/** "Nothing will be returned [in redirectUrl] when `userFlow` is `PUSH_MESSAGE`." */
export const CreatePaymentResponse = z.object({
  redirectUrl: z.string().optional(),
  reference: z.string(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

export const Aggregate = z.object({
  authorizedAmount: Amount,
  cancelledAmount: Amount,
  capturedAmount: Amount,
  refundedAmount: Amount,
});
export type Aggregate = z.infer<typeof Aggregate>;

/**
 * `State`. Capture, cancel and refund do not move a payment away from AUTHORIZED; progress shows
 * in `aggregate`. TERMINATED = the merchant cancelled it before the user acted.
 */
export const PaymentState = z.enum(['CREATED', 'ABORTED', 'EXPIRED', 'AUTHORIZED', 'TERMINATED']);
export type PaymentState = z.infer<typeof PaymentState>;

export const PaymentMethodResponse = z.object({
  type: PaymentMethodType,
  cardBin: z.string().length(6).optional(),
});
export type PaymentMethodResponse = z.infer<typeof PaymentMethodResponse>;

/** `ProfileResponse`: `sub` once AUTHORIZED, if a scope was asked for. The guide returns `{}`. */
export const ProfileResponse = z.object({ sub: z.string().optional() });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

export const GetPaymentResponse = z.object({
  aggregate: Aggregate,
  amount: Amount,
  state: PaymentState,
  paymentMethod: PaymentMethodResponse,
  profile: ProfileResponse,
  pspReference: z.string(),
  reference: z.string(),
  redirectUrl: z.string().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});
export type GetPaymentResponse = z.infer<typeof GetPaymentResponse>;

export const PaymentEventName = z.enum(['CREATED', 'ABORTED', 'EXPIRED', 'CANCELLED', 'CAPTURED', 'REFUNDED', 'AUTHORIZED', 'TERMINATED']);
export type PaymentEventName = z.infer<typeof PaymentEventName>;

/**
 * `PaymentEvent`, an item of the event log. The spec's `required` list names `paymentAction`, a
 * property it never defines, and leaves out `name`; that is a bug in the spec. The API sends
 * `name` on every event (every event in the guide's literal log has it, and the webhook payload,
 * "where the only property changing is the name", requires it), so `name` is required here and
 * `paymentAction` is not expected. Each event has its own `pspReference`.
 */
export const PaymentEvent = z.object({
  reference: z.string(),
  pspReference: z.string(),
  name: PaymentEventName,
  amount: Amount,
  timestamp: DateTime,
  idempotencyKey: z.string().max(50).nullable().optional(),
  success: z.boolean(),
});
export type PaymentEvent = z.infer<typeof PaymentEvent>;

export const GetPaymentEventLogResponse = z.array(PaymentEvent);
export type GetPaymentEventLogResponse = z.infer<typeof GetPaymentEventLogResponse>;

export const CaptureModificationRequest = z.object({ modificationAmount: Amount });
export type CaptureModificationRequest = z.infer<typeof CaptureModificationRequest>;

export const RefundModificationRequest = z.object({ modificationAmount: Amount });
export type RefundModificationRequest = z.infer<typeof RefundModificationRequest>;

/**
 * The 200 answer of cancel, capture and refund. The spec declares its content type as
 * `application/problem+json` (a quirk); the client reads any JSON content type.
 */
export const ModificationResponse = z.object({
  amount: Amount,
  state: PaymentState,
  aggregate: Aggregate,
  pspReference: z.string(),
  reference: z.string(),
});
export type ModificationResponse = z.infer<typeof ModificationResponse>;

/** Test environment only: `POST /epayment/v1/test/payments/{reference}/approve`. */
export const ForceApprove = z.object({
  customer: Customer.optional(),
  /** "The token value received in the `redirectUrl` property in the Create payment response". */
  token: z.string().optional(),
});
export type ForceApprove = z.infer<typeof ForceApprove>;

/**
 * `Problem` (`application/problem+json`). 1.4.1 has no `instance` and no `extraDetails`; the FAQ
 * says to tell errors apart by `type`, as titles may change.
 */
export const EpaymentProblem = z.object({
  type: z.string(),
  title: z.string(),
  detail: z.string().optional(),
  status: z.int(),
  traceId: z.string(),
});
export type EpaymentProblem = z.infer<typeof EpaymentProblem>;

/**
 * `WebhookEvent`: the body of every `epayments.payment.*.v1` callback. `name` is the
 * PaymentEventName (`AUTHORIZED`), not the event type string.
 */
export const EpaymentWebhookEvent = z.object({
  msn: Msn,
  reference: z.string(),
  pspReference: z.string(),
  name: PaymentEventName,
  amount: Amount,
  timestamp: DateTime,
  idempotencyKey: z.string().nullable().optional(),
  success: z.boolean(),
});
export type EpaymentWebhookEvent = z.infer<typeof EpaymentWebhookEvent>;
