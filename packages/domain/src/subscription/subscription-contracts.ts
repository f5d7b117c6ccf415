import { z } from 'zod';
import { cancellationActionTypes, cancellationSurveySchema, reactivationResultCodes, retentionOfferCodes, retentionOfferSchema } from './cancellation.ts';
import { planChangeQuoteSchema, planSchema } from './plans.ts';
import { subscriptionSchema } from '../identity/identity.ts';

/**
 * Contracts of the "my subscription" calls (issue 4). SPEC §7 names `DELETE
 * deleteSubscription` and `POST reactivateSubscription/`; the rest are resource paths under
 * the subscription they act on: `/api/subscription/{accountNo}/{titleCode}/...`.
 */

const titleCode = z
  .string()
  .min(1)
  .max(16)
  .regex(/^[A-Za-z0-9]+$/);
const accountNo = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** DELETE /api/deleteSubscription (SPEC §7, "with a body payload"). */
export const deleteSubscriptionBodySchema = z
  .object({
    ariaAccountNo: accountNo,
    titleCode,
    actionType: z.enum(cancellationActionTypes),
    /** REPLACEMENT-ANN: the retention offer accepted instead of cancelling. */
    offerCode: z.enum(retentionOfferCodes).optional(),
  })
  .and(cancellationSurveySchema);
export type DeleteSubscriptionBody = z.infer<typeof deleteSubscriptionBodySchema>;

/**
 * What a cancellation did to an invoice already issued for a period after the access ends (ADR
 * 026): `credited` — cancelled by a credit note, not to be paid; `refunded` — it was paid, and the
 * provider has paid it back; `pending` — it will be credited (and paid back, if paid) when the
 * provider answers.
 */
const creditedInvoiceOutcomes = ['credited', 'refunded', 'pending'] as const;
const creditedInvoiceSchema = z.object({
  ariaInvoiceNo: z.number().int().positive(),
  outcome: z.enum(creditedInvoiceOutcomes),
});
export type CreditedInvoice = z.infer<typeof creditedInvoiceSchema>;

export const deleteSubscriptionResponseSchema = z.object({
  actionType: z.enum(cancellationActionTypes),
  subscription: subscriptionSchema,
  /** CANCELLATION: the invoices for the periods the subscriber will not have, credited; empty when none was issued. */
  creditedInvoices: z.array(creditedInvoiceSchema),
});
export type DeleteSubscriptionResponse = z.infer<typeof deleteSubscriptionResponseSchema>;

/**
 * POST /api/reactivateSubscription/ (SPEC §7). Every field is optional in the contract: a
 * missing one is answered with the SPEC §4 result code REQUEST_MISSING_VALUES, not a generic
 * validation error. The identity id travels under the provider's name (`spidId`).
 */
export const reactivateSubscriptionBodySchema = z.looseObject({
  ariaAccountNo: accountNo.optional(),
  titleCode: titleCode.optional(),
  email: z.string().max(320).optional(),
});
export type ReactivateSubscriptionBody = z.infer<typeof reactivateSubscriptionBodySchema>;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * How a period's invoice gets paid, as the subscriber is told: `card` / `vipps` — the stored card
 * or Vipps agreement is charged on the due date; `avtalegiro` — the bank draws it on the due date;
 * `invoice` — the payer pays it from the invoice e-mail (KID, a pay-link); `settled` — nothing to
 * pay (a discount or a credit covers it).
 */
const billedPeriodPayments = ['card', 'vipps', 'avtalegiro', 'invoice', 'settled'] as const;

/** A period billed the moment it starts (a reactivation's first period, ADR 006): its invoice. */
const billedPeriodSchema = z.object({
  ariaInvoiceNo: z.number().int().positive(),
  /** What is to pay, øre: the invoice's amount less a credit set off against it. */
  amountOre: z.number().int().nonnegative(),
  periodFrom: isoDate,
  /** Last day of the period (inclusive). */
  periodTo: isoDate,
  dueOn: isoDate,
  payment: z.enum(billedPeriodPayments),
});
export type BilledPeriod = z.infer<typeof billedPeriodSchema>;

export const reactivateSubscriptionResponseSchema = z.object({
  result: z.enum(reactivationResultCodes),
  message: z.string(),
  subscription: subscriptionSchema,
  /** The new period's invoice, issued with the reactivation; null when the period is not billed (no price, or billed already). */
  invoice: billedPeriodSchema.nullable(),
});
export type ReactivateSubscriptionResponse = z.infer<typeof reactivateSubscriptionResponseSchema>;

/** The subscription an action under `/api/subscription/{accountNo}/{titleCode}/…` is about. */
export const subscriptionActionParamsSchema = z.object({
  accountNo: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  titleCode,
});

/** POST …/undo-cancellation: the answer is the subscription as it now is. */
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema });
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

/** GET …/retention-offer: the one offer this subscription may still accept, if any. */
export const retentionOfferResponseSchema = z.object({ offer: retentionOfferSchema.nullable() });
export type RetentionOfferResponse = z.infer<typeof retentionOfferResponseSchema>;

/** One plan the title sells, with what switching to it would mean for this subscriber. */
const planOptionSchema = z.object({
  plan: planSchema,
  quote: planChangeQuoteSchema,
  /** Null when the subscriber may choose it; otherwise why not, in Norwegian. */
  unavailable: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type PlanOption = z.infer<typeof planOptionSchema>;

/** GET …/plans. */
export const planOptionsResponseSchema = z.object({ options: z.array(planOptionSchema) });
export type PlanOptionsResponse = z.infer<typeof planOptionsResponseSchema>;

/** POST …/plan: switch to another plan (or back to the current one, withdrawing a scheduled change). */
export const changePlanBodySchema = z.object({ ariaPlanID: z.string().min(1).max(64) });
export const changePlanResponseSchema = z.object({
  subscription: subscriptionSchema,
  quote: planChangeQuoteSchema,
  plan: planSchema,
  /** The previous plan's name, for the receipt. */
  fromPlanName: z.string(),
});
export type ChangePlanResponse = z.infer<typeof changePlanResponseSchema>;

/** GET /api/plans/{titleCode}/price-changes (public, /nye-priser). */
export const priceChangesResponseSchema = z.object({ plans: z.array(planSchema) });
export type PriceChangesResponse = z.infer<typeof priceChangesResponseSchema>;
export const planCatalogueParamsSchema = z.object({ titleCode });
