// The plans' rules (age limits, plan changes, prices over time, features) as plain code without
// zod, so the subscription pages use them without taking schemas along (docs/decisions/020).
// plans.ts re-exports them beside the plan schemas.
import type { Plan, PlanChangeQuote, PriceChange } from './plans.ts';
import type { FeatureSet } from './subscription.ts';
import { billingPeriods, instStatusCodes, isUngSubscription, type BillingPeriod } from './subscription-rules.ts';

/**
 * The plans a title sells, the age rules on them (SPEC §5, §9) and what a change from one
 * plan to another costs (issue 4: upgrade at once with a prorated amount in whole kroner,
 * downgrade at the next period start).
 */

export const billingPeriodMonths: Record<BillingPeriod, number> = { YEAR: 12, QUARTER: 3, MONTH: 1, MONTH_PREMIUM: 1 };

/** SPEC §9: a value of 34 is used (the Ung age limit). */
const UNG_AGE_LIMIT = 34;
/** SPEC §5 / §9: the buyer must be at least 18. */
const MINIMUM_AGE = 18;

/** Whole days from `from` to `to` (ISO dates); negative when `to` is earlier. */
export function calendarDaysBetween(from: string, to: string): number {
  const toUtc = (iso: string) => {
    const [year, month, day] = iso.split('-').map(Number);
    return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1);
  };
  return Math.round((toUtc(to) - toUtc(from)) / 86_400_000);
}

/** Full years of age on `today` for someone born on `birthdate`. */
export function ageOn(birthdate: string, today: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  if (!by || !bm || !bd || !ty || !tm || !td) throw new RangeError(`Not ISO dates: ${birthdate}, ${today}`);
  const hadBirthday = tm > bm || (tm === bm && td >= bd);
  return ty - by - (hadBirthday ? 0 : 1);
}

export const planErrorCodes = {
  ungAgeLimit: 'UNG_AGE_LIMIT',
  birthdateRequired: 'BIRTHDATE_REQUIRED',
  underMinimumAge: 'UNDER_MINIMUM_AGE',
  planMinimumAge: 'PLAN_MINIMUM_AGE',
  samePlan: 'SAME_PLAN',
  unknownPlan: 'UNKNOWN_PLAN',
} as const;

export const planMessages = {
  ungAgeLimit: `Ung er for deg under ${UNG_AGE_LIMIT} år. Digital passer for deg i stedet.`,
  birthdateRequired: 'Vi trenger fødselsdatoen din for å vite om du kan ha Ung. Legg den inn under Endre profil.',
  /** A plan with an age limit of its own (Digital Honnør from 67). */
  planMinimumAge: (planName: string, age: number) => `${planName} gjelder for deg som er ${age} år eller eldre.`,
  /** The same question as for Ung, for a plan with an age limit of its own. */
  birthdateRequiredFor: (planName: string) => `Vi trenger fødselsdatoen din for å vite om du kan ha ${planName}. Legg den inn under Endre profil.`,
  underMinimumAge: `Du må være minst ${MINIMUM_AGE} år for å kjøpe et abonnement.`,
  samePlan: 'Du har allerede dette abonnementet.',
  unknownPlan: 'Dette abonnementet selges ikke av avisen.',
} as const;

export type PlanEligibility = { eligible: true } | { eligible: false; code: (typeof planErrorCodes)[keyof typeof planErrorCodes]; message: string };

/**
 * SPEC §5: the Ung subscription is for people under 34, otherwise a digital subscription is
 * offered; the buyer must be at least 18. A plan may have a higher minimum age of its own
 * (Digital Honnør, 67 and older: ADR 006). Without a birthdate nobody can tell, so Ung and
 * age-limited plans wait for one; other plans need none (the subscriber was of age when
 * they first bought).
 */
export function planEligibility(plan: Pick<Plan, 'ariaPlanID' | 'name' | 'minimumAge'>, birthdate: string | null, today: string): PlanEligibility {
  const age = birthdate === null ? null : ageOn(birthdate, today);
  if (age !== null && age < MINIMUM_AGE) {
    return { eligible: false, code: planErrorCodes.underMinimumAge, message: planMessages.underMinimumAge };
  }
  if (plan.minimumAge !== null && plan.minimumAge > MINIMUM_AGE) {
    if (age === null) return { eligible: false, code: planErrorCodes.birthdateRequired, message: planMessages.birthdateRequiredFor(plan.name) };
    if (age < plan.minimumAge) return { eligible: false, code: planErrorCodes.planMinimumAge, message: planMessages.planMinimumAge(plan.name, plan.minimumAge) };
  }
  if (!isUngSubscription(plan)) return { eligible: true };
  if (age === null) return { eligible: false, code: planErrorCodes.birthdateRequired, message: planMessages.birthdateRequired };
  if (age >= UNG_AGE_LIMIT) return { eligible: false, code: planErrorCodes.ungAgeLimit, message: planMessages.ungAgeLimit };
  return { eligible: true };
}

/** Whether the plan has an age limit beyond the buyer's 18 (Ung; Honnør from 67): SPEC §5. */
export function hasAgeLimit(plan: Pick<Plan, 'ariaPlanID' | 'minimumAge'>): boolean {
  return isUngSubscription(plan) || (plan.minimumAge !== null && plan.minimumAge > MINIMUM_AGE);
}

/** The price per day of a plan, in øre (fractional): a year is 365 days, a month a twelfth of it. */
function dailyRateOre(priceOre: number, period: BillingPeriod): number {
  return (priceOre * 12) / (billingPeriodMonths[period] * 365);
}

/** Rounds øre to whole kroner (SPEC §9: prices are whole kroner). */
export function roundToWholeKroner(ore: number): number {
  return Math.round(ore / 100) * 100;
}

/** What the subscriber has now, as far as a plan change is concerned. */
export interface CurrentPlan {
  ariaPlanID: string;
  priceOre: number;
  billingPeriod: string;
  instStatusCode: number;
  /** The renewal day (ISO date, paid-period.ts): renewals and downgrades take effect on it. */
  currentPeriodEnd: string;
}

export const planChangeKinds = ['current', 'upgrade', 'downgrade', 'afterTrial'] as const;
export type PlanChangeKind = (typeof planChangeKinds)[number];

function asBillingPeriod(period: string): BillingPeriod {
  return (billingPeriods as string[]).includes(period) ? (period as BillingPeriod) : 'MONTH';
}

/**
 * What changing from `current` to `target` means on `today`.
 * - The same plan: nothing (kind current).
 * - A trial keeps its 1 kr month; the chosen plan starts when the trial ends (afterTrial).
 * - Upgrade (a higher price per day): at once, charging the difference in daily price for the
 *   days left of the paid period, rounded to whole kroner. The period end stays; the next
 *   renewal is at the new plan's price and period.
 * - Otherwise a downgrade (cheaper, or the same per day in another period): from the end of
 *   the paid period, nothing to pay now.
 */
export function quotePlanChange(current: CurrentPlan, target: Pick<Plan, 'ariaPlanID' | 'priceOre' | 'billingPeriod'>, today: string): PlanChangeQuote {
  const daysLeft = Math.max(0, calendarDaysBetween(today, current.currentPeriodEnd));
  if (target.ariaPlanID === current.ariaPlanID) return { kind: 'current', effectiveOn: today, amountOre: 0, daysLeft };
  if (current.instStatusCode === instStatusCodes.TRIAL) return { kind: 'afterTrial', effectiveOn: current.currentPeriodEnd, amountOre: 0, daysLeft };
  const currentRate = dailyRateOre(current.priceOre, asBillingPeriod(current.billingPeriod));
  const targetRate = dailyRateOre(target.priceOre, target.billingPeriod);
  if (targetRate > currentRate) {
    return { kind: 'upgrade', effectiveOn: today, amountOre: roundToWholeKroner((targetRate - currentRate) * daysLeft), daysLeft };
  }
  return { kind: 'downgrade', effectiveOn: current.currentPeriodEnd, amountOre: 0, daysLeft };
}

/** The price that applies on `day`: the announced one once its date has come. */
export function priceOn(plan: Pick<Plan, 'priceOre' | 'nextPrice'>, day: string): number {
  return plan.nextPrice && plan.nextPrice.from <= day ? plan.nextPrice.priceOre : plan.priceOre;
}

/**
 * The price from `day` on (issue 25.3): the one that applies that day, and the announced change
 * still to come after it, if any. A period that starts on or after the announced date is billed
 * at the new price (the renewal job's rule), so this is what the subscriber will pay, not only
 * what the list says today. Pages, receipts and the order summary all read prices through it.
 */
export interface PriceOutlook {
  priceOre: number;
  /** An announced change that takes effect after `day`; null when none is coming. */
  then: PriceChange | null;
}

export function priceOutlook(plan: Pick<Plan, 'priceOre' | 'nextPrice'>, day: string): PriceOutlook {
  const coming = plan.nextPrice && plan.nextPrice.from > day && plan.nextPrice.priceOre !== plan.priceOre ? plan.nextPrice : null;
  return { priceOre: priceOn(plan, day), then: coming };
}

export const featureKeys = ['plusContent', 'ePaper', 'paper', 'familySharing', 'thirdPartyBundle'] as const satisfies readonly (keyof FeatureSet)[];

/** What a change from one product to another takes away: the features `from` has and `to` has not, in the catalogue's order. */
export function lostFeatures(from: FeatureSet, to: FeatureSet): (keyof FeatureSet)[] {
  return featureKeys.filter((feature) => from[feature] && !to[feature]);
}
