/**
 * Webhooks API v1 (`vippsas/webhooks-api` @ d1c57d2, `docs/swagger.yaml`, `events.md`): register,
 * list and delete registrations; the event types; and the bodies the callbacks carry. The ePayment
 * callback body is `EpaymentWebhookEvent` in `epayment.ts`.
 */
import { z } from 'zod';
import { DateTime } from './common.ts';

/** events.md @ d1c57d2. */
export const EPAYMENT_EVENT_TYPES = [
  'epayments.payment.created.v1',
  'epayments.payment.aborted.v1',
  'epayments.payment.expired.v1',
  'epayments.payment.cancelled.v1',
  'epayments.payment.captured.v1',
  'epayments.payment.refunded.v1',
  'epayments.payment.authorized.v1',
  'epayments.payment.terminated.v1',
] as const;

export const RECURRING_AGREEMENT_EVENT_TYPES = ['recurring.agreement-activated.v1', 'recurring.agreement-rejected.v1', 'recurring.agreement-stopped.v1', 'recurring.agreement-expired.v1'] as const;

/**
 * `canceled` with one "l", as events.md spells it. `recurring.charge-refunded.v1` is not in the
 * pinned events.md; it is named in the later Recurring changelog (December 2025), and the
 * simulator sends it when a charge is refunded.
 */
export const RECURRING_CHARGE_EVENT_TYPES = [
  'recurring.charge-reserved.v1',
  'recurring.charge-captured.v1',
  'recurring.charge-canceled.v1',
  'recurring.charge-failed.v1',
  'recurring.charge-refunded.v1',
] as const;

export const QR_EVENT_TYPES = ['user.checked-in.v1'] as const;

export const WEBHOOK_EVENT_TYPES = [...EPAYMENT_EVENT_TYPES, ...RECURRING_AGREEMENT_EVENT_TYPES, ...RECURRING_CHARGE_EVENT_TYPES, ...QR_EVENT_TYPES] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/**
 * `RegisterRequest` (`additionalProperties: false`). The URL "must use HTTPS", be world-reachable
 * and not redirect; `events` is a plain string array in the spec.
 */
export const RegisterWebhookRequest = z.strictObject({
  url: z.url(),
  events: z.array(z.string()),
});
export type RegisterWebhookRequest = z.infer<typeof RegisterWebhookRequest>;

/** `RegisterResponse`. The secret is unique per registration and signs every callback of it. */
export const RegisterWebhookResponse = z.object({ id: z.string(), secret: z.string() });
export type RegisterWebhookResponse = z.infer<typeof RegisterWebhookResponse>;

export const Webhook = z.object({ id: z.string(), url: z.string(), events: z.array(z.string()) });
export type Webhook = z.infer<typeof Webhook>;

/** `QueryResponse`. */
export const WebhookList = z.object({ webhooks: z.array(Webhook) });
export type WebhookList = z.infer<typeof WebhookList>;

/** `ProblemDetails` (`application/problem+json`): every field nullable, none required. */
export const WebhooksProblem = z.object({
  type: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  status: z.int().nullable().optional(),
  detail: z.string().nullable().optional(),
  instance: z.string().nullable().optional(),
  traceId: z.string().nullable().optional(),
  extraDetails: z
    .array(z.object({ name: z.string(), reason: z.string() }))
    .nullable()
    .optional(),
});
export type WebhooksProblem = z.infer<typeof WebhooksProblem>;

/**
 * INFERRED. The pinned events.md says "Recurring webhooks payload will be available soon" and the
 * pinned Recurring spec has no webhook schema. These fields are the ones public integrations read
 * (agreementId, eventType, occurred, and for charges chargeId, amount, chargeType); only those
 * three (four) are required, everything else is optional so that the real payload cannot fail on
 * our guesses. Read the agreement or charge again before acting on one.
 */
export const RecurringAgreementWebhookEvent = z.object({
  agreementId: z.string(),
  eventType: z.enum(RECURRING_AGREEMENT_EVENT_TYPES),
  occurred: DateTime,
  msn: z.string().optional(),
  agreementExternalId: z.string().nullable().optional(),
  /** LATER (changelog, July 2026): an `Actor` on agreement-stopped, e.g. `ADMIN`. */
  actor: z.string().nullable().optional(),
});
export type RecurringAgreementWebhookEvent = z.infer<typeof RecurringAgreementWebhookEvent>;

/** INFERRED, like `RecurringAgreementWebhookEvent`. */
export const RecurringChargeWebhookEvent = z.object({
  agreementId: z.string(),
  chargeId: z.string(),
  eventType: z.enum(RECURRING_CHARGE_EVENT_TYPES),
  occurred: DateTime,
  msn: z.string().optional(),
  amount: z.int().optional(),
  // Strings, not the charge's enums: a guessed field must not refuse a value we did not foresee.
  currency: z.string().optional(),
  chargeType: z.string().optional(),
  chargeExternalId: z.string().nullable().optional(),
  agreementExternalId: z.string().nullable().optional(),
  failureReason: z.string().nullable().optional(),
  failureDescription: z.string().nullable().optional(),
  /** LATER (changelog, December 2025): a nullable `transactionId` on charge payloads. */
  transactionId: z.string().nullable().optional(),
});
export type RecurringChargeWebhookEvent = z.infer<typeof RecurringChargeWebhookEvent>;
