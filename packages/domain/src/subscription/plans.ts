import { z } from 'zod';
import { planChangeKinds } from './plans-rules.ts';
import { billingPeriods, featureSetSchema, planProductTypes, type BillingPeriod } from './subscription.ts';

// The plan schemas: what a title sells (SPEC §5, §9) and what a plan change costs (issue 4). The
// rules on them are plain code in plan-rules.ts, re-exported here.

const isoDate = z.iso.date();

/** A price that applies from a date (SPEC /nye-priser: old and new price and the date it applies). */
const priceChangeSchema = z.object({ priceOre: z.number().int().nonnegative(), from: isoDate });

/** One plan a title sells: a product (name, type, features) in one billing period. */
export const planSchema = z.object({
  ariaPlanID: z.string(),
  titleCode: z.string(),
  /** The product's name, the same for all its billing periods ("Digital", "Komplett"). */
  name: z.string(),
  description: z.string(),
  planProductType: z.enum(planProductTypes),
  billingPeriod: z.enum(billingPeriods as [BillingPeriod, ...BillingPeriod[]]),
  /** Price per billing period today, øre. */
  priceOre: z.number().int().nonnegative(),
  features: featureSetSchema,
  /** A price change that has been announced and not yet taken effect. */
  nextPrice: priceChangeSchema.nullable(),
  /** Youngest age the plan is sold to (Digital Honnør: 67); null = only the general 18. */
  minimumAge: z.number().int().positive().nullable(),
});
export type Plan = z.infer<typeof planSchema>;

export const planChangeQuoteSchema = z.object({
  kind: z.enum(planChangeKinds),
  /** The day the new plan applies from. */
  effectiveOn: isoDate,
  /** Charged now: the difference for the rest of the paid period, whole kroner in øre. */
  amountOre: z.number().int().nonnegative(),
  /** Days of the paid period the amount covers. */
  daysLeft: z.number().int().nonnegative(),
});
export type PlanChangeQuote = z.infer<typeof planChangeQuoteSchema>;

export type PriceChange = z.infer<typeof priceChangeSchema>;

export * from './plans-rules.ts';
