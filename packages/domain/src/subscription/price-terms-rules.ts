// The price terms (issue 25.1) as plain code without zod, so the home page and the subscription
// pages use them without taking schemas along (docs/decisions/020). price-terms.ts re-exports
// them beside the introductory price's schema.
import { formatKroner, formatLongDate } from '../core/format.ts';
import { addMonths } from '../core/dates.ts';
// Types only: ordering.ts reaches this module through identity.ts's subscription contract.
import type { OrderQuote } from '../ordering/ordering.ts';
import type { IntroductoryPrice } from './price-terms.ts';
import type { BillingPeriod } from './subscription-rules.ts';

/**
 * What a subscriber pays now and what follows (issue 25.1), decided once for the receipt, the
 * home page and the subscription pages. The rule: the subscription keeps its **regular** price
 * (`priceOre`, what every later period costs) and, when it was bought with an introductory
 * offer (the 1 kr month, the campaign, the winback), the offer beside it: the first period's
 * price, its months, and the renewal day from which the regular price applies. Until that day
 * the subscriber pays the introductory price; from it, the regular one.
 */

export interface PricedSubscription {
  /** The regular price per billing period, øre. */
  priceOre: number;
  billingPeriod: string;
  introductoryPrice: IntroductoryPrice | null;
}

export type PriceTerms =
  | { kind: 'regular'; priceOre: number; billingPeriod: string }
  | {
      kind: 'introductory';
      introPriceOre: number;
      introMonths: number;
      /** The regular price, from `regularFrom`. */
      priceOre: number;
      billingPeriod: string;
      regularFrom: string;
    };

/** The price terms on `today`: the offer while it runs (before its end day), else the regular price. */
export function priceTerms(subscription: PricedSubscription, today: string): PriceTerms {
  const intro = subscription.introductoryPrice;
  if (intro && today < intro.endsOn) {
    return { kind: 'introductory', introPriceOre: intro.priceOre, introMonths: intro.months, priceOre: subscription.priceOre, billingPeriod: subscription.billingPeriod, regularFrom: intro.endsOn };
  }
  return { kind: 'regular', priceOre: subscription.priceOre, billingPeriod: subscription.billingPeriod };
}

/** The same terms for an order: bought on `startedOn` (or today, before paying) with its quote; the first period ends as `firstPeriodOf` says. */
export function orderPriceTerms(quote: OrderQuote, billingPeriod: string, startedOn: string): PriceTerms {
  if (quote.offerCode === null) return { kind: 'regular', priceOre: quote.priceLaterOre, billingPeriod };
  return {
    kind: 'introductory',
    introPriceOre: quote.amountNowOre,
    introMonths: quote.firstPeriodMonths,
    priceOre: quote.priceLaterOre,
    billingPeriod,
    regularFrom: addMonths(startedOn, quote.firstPeriodMonths),
  };
}

/** The introductory price a subscription records when it is bought with `quote` on `startedOn`; null without an offer. */
export function introductoryPriceOf(quote: OrderQuote, startedOn: string): IntroductoryPrice | null {
  if (quote.offerCode === null) return null;
  return { priceOre: quote.amountNowOre, months: quote.firstPeriodMonths, endsOn: addMonths(startedOn, quote.firstPeriodMonths) };
}

const perPeriod: Record<BillingPeriod, string> = { YEAR: 'per år', QUARTER: 'per kvartal', MONTH: 'per måned', MONTH_PREMIUM: 'per måned' };

/** "per måned", "per år": the unit of a billing period's price. */
function perPeriodLabel(billingPeriod: string): string {
  return billingPeriod in perPeriod ? perPeriod[billingPeriod as BillingPeriod] : 'per periode';
}

/** "299 kr per måned". */
export function regularPriceText(priceOre: number, billingPeriod: string): string {
  return `${formatKroner(priceOre)} ${perPeriodLabel(billingPeriod)}`;
}

/** "første måned", "første år", "de første 3 månedene". */
function introPeriodText(months: number): string {
  if (months === 1) return 'første måned';
  if (months === 12) return 'første år';
  return `de første ${months} månedene`;
}

/** "1 kr første måned": what the offer costs, without what follows. */
function introPriceText(terms: Extract<PriceTerms, { kind: 'introductory' }>): string {
  return `${formatKroner(terms.introPriceOre)} ${introPeriodText(terms.introMonths)}`;
}

/** "1 kr første måned, deretter 299 kr per måned fra 26. desember 2026", or "299 kr per måned". */
export function priceTermsText(terms: PriceTerms): string {
  const regular = regularPriceText(terms.priceOre, terms.billingPeriod);
  if (terms.kind === 'regular') return regular;
  return `${introPriceText(terms)}, deretter ${regular} fra ${formatLongDate(terms.regularFrom)}`;
}
