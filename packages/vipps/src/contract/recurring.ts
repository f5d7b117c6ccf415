/**
 * Recurring API v3 as in spec 2.6.17 (`vippsas/vipps-recurring-api` @ 3f6ac6b, `docs/openapi.yaml`)
 * and its guide at the same commit. The v2 endpoints in the same file are deprecated and left out.
 *
 * Answer schemas require what the spec requires, with two kinds of departures, each marked:
 * a field the spec requires but the guide's literal answers leave out is optional here (we do not
 * need it and the provider evidently omits it), and a field the spec leaves optional that every
 * documented answer carries and without which we cannot act is required (an answer without it is
 * useless to us, so it is a broken contract).
 */
import { z } from 'zod';
import { DateTime } from './common.ts';

/** `CurrencyV3`: NOK only in 2.6.17 (LATER: the SDK types add EUR and DKK). */
export const CurrencyV3 = z.enum(['NOK']);
export type CurrencyV3 = z.infer<typeof CurrencyV3>;

export const TimePeriodUnit = z.enum(['YEAR', 'MONTH', 'WEEK', 'DAY']);
export type TimePeriodUnit = z.infer<typeof TimePeriodUnit>;

export const TimePeriod = z.object({ unit: TimePeriodUnit, count: z.int().min(1).max(31) });
export type TimePeriod = z.infer<typeof TimePeriod>;

export const TransactionType = z.enum(['DIRECT_CAPTURE', 'RESERVE_CAPTURE']);
export type TransactionType = z.infer<typeof TransactionType>;

/** `YYYY-MM-DD`, a real calendar day. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be in the format YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'must be a calendar date');

/**
 * `pricingRequest`: `amount` "required if type is LEGACY or not present", `suggestedMaxAmount`
 * "required if type is VARIABLE". LATER: the SDK types add `FLEXIBLE`.
 */
export const PricingRequest = z
  .object({
    type: z.enum(['LEGACY', 'VARIABLE']).optional(),
    amount: z.int().min(100).optional(),
    suggestedMaxAmount: z.int().min(100).max(2_000_000).optional(),
    currency: CurrencyV3,
  })
  .superRefine((pricing, ctx) => {
    if ((pricing.type ?? 'LEGACY') === 'LEGACY' && pricing.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'required if type is LEGACY or not present' });
    }
    if (pricing.type === 'VARIABLE' && pricing.suggestedMaxAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['suggestedMaxAmount'], message: 'required if type is VARIABLE' });
    }
  });
export type PricingRequest = z.infer<typeof PricingRequest>;

/**
 * `InitialChargeV3`. The spec's own example also sends `currency`, which is not a property of
 * this schema; it is stripped like any unknown field.
 */
export const InitialCharge = z.object({
  amount: z.int(),
  description: z.string(),
  transactionType: TransactionType,
  orderId: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-zA-Z\d-]+/)
    .optional(),
  externalId: z.string().min(1).max(64).optional(),
});
export type InitialCharge = z.infer<typeof InitialCharge>;

export const CampaignType = z.enum(['PRICE_CAMPAIGN', 'PERIOD_CAMPAIGN', 'EVENT_CAMPAIGN', 'FULL_FLEX_CAMPAIGN']);

/**
 * The four campaign shapes (oneOf, discriminator `type`). Their dates are plain strings here:
 * the spec's own "With Price Campaign" example writes `"end": "2022/02/28T00:00:00Z"`.
 */
export const CampaignRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PRICE_CAMPAIGN'), price: z.int(), end: z.string() }),
  z.object({ type: z.literal('PERIOD_CAMPAIGN'), price: z.int(), period: TimePeriod }),
  z.object({ type: z.literal('EVENT_CAMPAIGN'), price: z.int(), eventDate: z.string(), eventText: z.string() }),
  z.object({ type: z.literal('FULL_FLEX_CAMPAIGN'), price: z.int(), interval: TimePeriod, end: z.string() }),
]);
export type CampaignRequest = z.infer<typeof CampaignRequest>;

/** `DraftAgreementV3`. LATER (SDK types): `interval` and `merchantAgreementUrl` optional. */
export const DraftAgreementRequest = z.object({
  pricing: PricingRequest,
  interval: TimePeriod,
  /** "HTTPS and deeplinks are allowed". */
  merchantRedirectUrl: z.string().min(1).max(1024),
  /** "Only HTTPS scheme is allowed". */
  merchantAgreementUrl: z.string().min(1).max(1024),
  /** The spec gives only `maxLength: 45`; its validation example answers "must not be empty". */
  productName: z.string().min(1).max(45),
  productDescription: z.string().max(100).optional(),
  phoneNumber: z.string().max(15).optional(),
  initialCharge: InitialCharge.optional(),
  campaign: CampaignRequest.optional(),
  isApp: z.boolean().optional(),
  skipLandingPage: z.boolean().optional(),
  scope: z.string().optional(),
  externalId: z
    .string()
    .regex(/^.{1,64}$/)
    .optional(),
  countryCode: z.enum(['NO']).optional(),
});
export type DraftAgreementRequest = z.infer<typeof DraftAgreementRequest>;

/**
 * `DraftAgreementResponseV3`. Departures: the spec requires `uuid`, but the guide's literal answer
 * ("Accept an agreement") has none, so it is optional; the spec leaves `vippsConfirmationUrl`
 * optional, but it is where the user must be sent and every documented answer has it, so it is
 * required.
 */
export const DraftAgreementResponse = z.object({
  agreementId: z.string(),
  vippsConfirmationUrl: z.string(),
  uuid: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    .optional(),
  /**
   * "The Id of the initialCharge if given, otherwise `null`". The pattern has no underscore although
   * the schema's example is `chr_5kSeqz`; real ids use a hyphen (the guide's history shows the
   * system key `chr-4assY8f-agr_FJw2Anb-ProcessPayment`), so the pattern is kept as written.
   */
  chargeId: z
    .string()
    .regex(/^[a-zA-Z0-9-]{1,50}$/)
    .nullable()
    .optional(),
});
export type DraftAgreementResponse = z.infer<typeof DraftAgreementResponse>;

/**
 * `AgreementStatus`. Guide: PENDING → ACTIVE (user approves and the initial charge, if any,
 * succeeds), PENDING → EXPIRED (ignored, or the initial charge failed), PENDING → STOPPED (the user
 * declines), ACTIVE → STOPPED (merchant PATCH or the user cancels). STOPPED is final.
 */
export const AgreementStatus = z.enum(['PENDING', 'ACTIVE', 'STOPPED', 'EXPIRED']);
export type AgreementStatus = z.infer<typeof AgreementStatus>;

export const PricingResponse = z.discriminatedUnion('type', [
  z.object({ type: z.literal('LEGACY'), currency: CurrencyV3, amount: z.int() }),
  z.object({ type: z.literal('VARIABLE'), currency: CurrencyV3, suggestedMaxAmount: z.int(), maxAmount: z.int() }),
]);
export type PricingResponse = z.infer<typeof PricingResponse>;

/** `TimePeriodResponse`, e.g. `{ unit: 'WEEK', count: 2, text: 'every 2 weeks' }`. */
export const TimePeriodResponse = z.object({ unit: TimePeriodUnit, count: z.int(), text: z.string() });
export type TimePeriodResponse = z.infer<typeof TimePeriodResponse>;

/** `campaignResponseV3`: the request's shapes plus `explanation` and the type `LEGACY_CAMPAIGN`. */
export const CampaignResponse = z.object({
  type: z.enum([...CampaignType.options, 'LEGACY_CAMPAIGN']),
  price: z.int(),
  end: z.string().nullable().optional(),
  period: TimePeriod.nullable().optional(),
  interval: TimePeriod.nullable().optional(),
  eventDate: z.string().nullable().optional(),
  eventText: z.string().nullable().optional(),
  explanation: z.string().nullable().optional(),
});
export type CampaignResponse = z.infer<typeof CampaignResponse>;

/**
 * `AgreementResponseV3`. Departures: `status` is not in the spec's `required` list, but the guide's
 * answers always carry it and an agreement without a status cannot be acted on, so it is required;
 * `merchantRedirectUrl` is required by the spec but missing from the guide's literal answer
 * ("Retrieve an agreement"), so it is optional.
 */
export const Agreement = z.object({
  id: z.string(),
  status: AgreementStatus,
  pricing: PricingResponse,
  interval: TimePeriodResponse,
  productName: z.string(),
  productDescription: z.string().nullable().optional(),
  created: DateTime,
  start: DateTime.nullable().optional(),
  stop: DateTime.nullable().optional(),
  campaign: CampaignResponse.nullable().optional(),
  merchantAgreementUrl: z.string(),
  merchantRedirectUrl: z.string().optional(),
  sub: z.string().nullable().optional(),
  userinfoUrl: z.string().nullable().optional(),
  externalId: z.string().nullable().optional(),
  countryCode: z.enum(['NO']),
  uuid: z.string(),
  vippsConfirmationUrl: z.string().optional(),
});
export type Agreement = z.infer<typeof Agreement>;

export const AgreementList = z.array(Agreement);
export type AgreementList = z.infer<typeof AgreementList>;

/**
 * `PatchAgreementV3`. Guide: "when setting an agreement status to `STOPPED` no other changes are
 * allowed… will result in a `400 Bad Request`".
 */
export const PatchAgreementRequest = z
  .object({
    productName: z.string().min(1).max(45).optional(),
    productDescription: z.string().max(100).optional(),
    merchantAgreementUrl: z.string().max(1024).optional(),
    externalId: z.string().min(1).max(64).optional(),
    status: z.enum(['STOPPED']).optional(),
    pricing: z
      .object({
        amount: z.int().min(100).optional(),
        suggestedMaxAmount: z.int().min(100).max(2_000_000).optional(),
      })
      .optional(),
    interval: z.object({ type: z.enum(['RECURRING']).optional(), period: TimePeriod }).optional(),
  })
  .superRefine((patch, ctx) => {
    if (patch.status !== 'STOPPED') return;
    for (const key of Object.keys(patch)) {
      if (key !== 'status' && patch[key as keyof typeof patch] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'no other changes are allowed when setting status to STOPPED' });
      }
    }
  });
export type PatchAgreementRequest = z.infer<typeof PatchAgreementRequest>;

/** Test environment only: `PATCH /recurring/v3/agreements/{agreementId}/accept`. */
export const ForceAcceptAgreement = z.object({ phoneNumber: z.string() });
export type ForceAcceptAgreement = z.infer<typeof ForceAcceptAgreement>;

/**
 * `CreateChargeV3`. No `currency` and no `type` in 2.6.17 (LATER: `type` RECURRING|UNSCHEDULED).
 * `due` must be at least two days ahead in production and one day in the test environment, and at
 * most two years. `orderId`, if given, becomes the chargeId (its pattern is unanchored at the end
 * in the spec, kept as is).
 */
export const CreateChargeRequest = z.object({
  amount: z.int().min(100),
  transactionType: TransactionType,
  /** The spec misuses `minimum: 1, maximum: 45` on a string; the guide: "cannot be longer than 45 characters". */
  description: z.string().min(1).max(45),
  due: IsoDate,
  retryDays: z.int().min(0).max(14),
  orderId: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-zA-Z\d-]+/)
    .optional(),
  externalId: z
    .string()
    .regex(/^.{1,64}$/)
    .optional(),
});
export type CreateChargeRequest = z.infer<typeof CreateChargeRequest>;

/**
 * `ChargeReference`. Departure: `chargeId` is optional in the spec, but it is the only thing the
 * answer is for and every documented answer has it, so it is required. Its `maxLength: 15` is not
 * checked: an `orderId` of up to 50 characters becomes the chargeId.
 */
export const CreateChargeResponse = z.object({ chargeId: z.string() });
export type CreateChargeResponse = z.infer<typeof CreateChargeResponse>;

/**
 * `ChargeStatus`. The guide's state table also lists `UNKNOWN` ("usually very transient"), which
 * the enum does not have; such an answer is refused as a broken contract, and the caller reads the
 * charge again.
 */
export const ChargeStatus = z.enum(['PENDING', 'DUE', 'RESERVED', 'CHARGED', 'PARTIALLY_CAPTURED', 'FAILED', 'CANCELLED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'PROCESSING']);
export type ChargeStatus = z.infer<typeof ChargeStatus>;

/** `ChargeType`: INITIAL | RECURRING (LATER: UNSCHEDULED). */
export const ChargeType = z.enum(['INITIAL', 'RECURRING']);
export type ChargeType = z.infer<typeof ChargeType>;

export const ChargeFailureReason = z.enum(['user_action_required', 'charge_amount_too_high', 'non_technical_error', 'technical_error']);
export type ChargeFailureReason = z.infer<typeof ChargeFailureReason>;

export const ChargeEvent = z.object({
  occurred: DateTime,
  event: z.enum(['CREATE', 'RESERVE', 'CAPTURE', 'REFUND', 'CANCEL', 'FAIL']),
  amount: z.int(),
  idempotencyKey: z.string(),
  success: z.boolean(),
});
export type ChargeEvent = z.infer<typeof ChargeEvent>;

/**
 * `ChargeResponseV3`. `due` is a date-time here (`2019-06-01T00:00:00Z`), unlike the request's
 * `YYYY-MM-DD`. `transactionId` is required but "contains null until the status has reached
 * CHARGED", so the key is required and may be null.
 */
export const Charge = z.object({
  id: z.string(),
  agreementId: z.string(),
  amount: z.int(),
  currency: CurrencyV3,
  description: z.string(),
  due: DateTime,
  status: ChargeStatus,
  type: ChargeType,
  transactionType: TransactionType,
  transactionId: z.string().nullable(),
  retryDays: z.int(),
  externalId: z.string(),
  externalAgreementId: z.string().optional(),
  failureReason: ChargeFailureReason.nullable().optional(),
  failureDescription: z.string().optional(),
  summary: z.object({ captured: z.int(), refunded: z.int(), cancelled: z.int() }),
  history: z.array(ChargeEvent),
});
export type Charge = z.infer<typeof Charge>;

export const ChargeList = z.array(Charge);
export type ChargeList = z.infer<typeof ChargeList>;

/** `CaptureRequestV3`. */
export const CaptureChargeRequest = z.object({ amount: z.int().min(100), description: z.string() });
export type CaptureChargeRequest = z.infer<typeof CaptureChargeRequest>;

/** `RefundRequest`. */
export const RefundChargeRequest = z.object({ amount: z.int().min(100), description: z.string() });
export type RefundChargeRequest = z.infer<typeof RefundChargeRequest>;

/** `ErrorV3`: no `required` list and no `traceId`; `extraDetails` name the fields. */
export const RecurringErrorV3 = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.int().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  contextId: z.string().optional(),
  extraDetails: z.array(z.object({ field: z.string(), text: z.string() })).optional(),
});

/** `ErrorFromAzure`: what the gateway in front of the API answers. */
export const RecurringErrorFromAzure = z.object({
  responseInfo: z.object({ responseCode: z.int(), responseMessage: z.string() }),
  result: z.object({ message: z.string() }),
});

/** `ErrorResponseV3` (oneOf), content type `application/json;charset=UTF-8`. */
export const RecurringProblem = z.union([RecurringErrorV3, RecurringErrorFromAzure]);
export type RecurringProblem = z.infer<typeof RecurringProblem>;

/** `type` of an ErrorV3: this prefix and one of the identifiers of `recurring-api-problems.md`. */
export const RECURRING_PROBLEM_TYPE_PREFIX = 'https://developer.vippsmobilepay.com/docs/APIs/recurring-api/recurring-api-problems#';
