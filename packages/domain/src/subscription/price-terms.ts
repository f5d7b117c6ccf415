import { z } from 'zod';

// The introductory price's schema (part of the subscription contract, identity.ts). The price
// terms themselves are plain code in price-terms-rules.ts, re-exported here.

const isoDate = z.iso.date();

/** The introductory offer a subscription was bought with; absent when it was bought at the regular price. */
export const introductoryPriceSchema = z.object({
  /** What the first period cost, øre (100 for the 1 kr month). */
  priceOre: z.number().int().nonnegative(),
  /** How many months the first period covers. */
  months: z.number().int().positive(),
  /** The renewal day from which the regular price applies (the first day after the offer). */
  endsOn: isoDate,
});
export type IntroductoryPrice = z.infer<typeof introductoryPriceSchema>;

export * from './price-terms-rules.ts';
