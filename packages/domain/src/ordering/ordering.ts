import { z } from 'zod';
import { deliveryAddressInputSchema, deliveryAddressSchema } from '../delivery/delivery.ts';
import { invoicePaymentMethods } from '../billing/billing.ts';
import { accountSchema, subscriptionSchema, userSchema } from '../identity/identity.ts';
import { billingPeriodMonths, planEligibility, planSchema, roundToWholeKroner, type Plan } from '../subscription/plans.ts';
import { addMonths } from '../core/dates.ts';
import { lastDayWithAccess } from '../subscription/paid-period.ts';

/**
 * Buying a subscription (issue 7, SPEC §2 /bestill-abonnement … /kvittering, §5 age rules,
 * §8 purchase errors, §9 offers and the campaign code). The offers are priced here, once, for
 * the browser and the server (docs/decisions/014-ordering-and-connect.md).
 */

/** SPEC §9: "Campaign code CAMP-2020-03-003". What it gives is ours to decide (ADR 014). */
export const CAMPAIGN_CODE = 'CAMP-2020-03-003';
/** The campaign: this share off the first billing period (whole kroner). */
const CAMPAIGN_PERCENT_OFF = 50;
/** SPEC §9: "digital at 1 kr for the first month". */
export const INTRO_PRICE_ORE = 100;
/** SPEC §9: "a winback of 3 months for the price of 1". */
const WINBACK_MONTHS = 3;

const offerCodes = ['INTRO_1KR', CAMPAIGN_CODE, 'WINBACK_3FOR1'] as const;
export type OfferCode = (typeof offerCodes)[number];

export const offerLabels: Record<OfferCode, string> = {
  INTRO_1KR: 'Første måned for 1 kr',
  [CAMPAIGN_CODE]: `Kampanje: ${CAMPAIGN_PERCENT_OFF} % rabatt på første periode`,
  WINBACK_3FOR1: '3 måneder for prisen av 1',
};

/** What the buyer pays now and later: the price of an order. */
const orderQuoteSchema = z.object({
  offerCode: z.enum(offerCodes).nullable(),
  offerLabel: z.string().nullable(),
  /** Paid now: the first period, whole kroner in øre. */
  amountNowOre: z.number().int().nonnegative(),
  /** How many months the first payment covers. */
  firstPeriodMonths: z.number().int().positive(),
  /** Each later period, whole kroner in øre. */
  priceLaterOre: z.number().int().nonnegative(),
  /** The months each later payment covers (the plan's billing period). */
  laterPeriodMonths: z.number().int().positive(),
});
export type OrderQuote = z.infer<typeof orderQuoteSchema>;

export interface OfferContext {
  /** CAMP-2020-03-003 came with the link. */
  campaign: boolean;
  /** A former subscriber of this title asked for the winback. */
  winback: boolean;
}

function isIntroPlan(plan: Pick<Plan, 'planProductType' | 'billingPeriod' | 'ariaPlanID'>): boolean {
  return plan.planProductType === 'DIGITAL' && plan.billingPeriod === 'MONTH' && /^[A-Z0-9]+-DIGITAL-M$/.test(plan.ariaPlanID);
}

function isMonthly(plan: Pick<Plan, 'billingPeriod'>): boolean {
  return plan.billingPeriod === 'MONTH' || plan.billingPeriod === 'MONTH_PREMIUM';
}

/**
 * The price of buying `plan` (`priceOre` is the plan's price on the day). Offers never stack:
 * the winback when asked for and the plan is monthly; else whichever of the 1 kr month (plain
 * Digital, monthly) and the campaign (50 % off the first period) makes the first payment lower.
 */
export function quoteOrder(plan: Pick<Plan, 'ariaPlanID' | 'planProductType' | 'billingPeriod'>, priceOre: number, context: OfferContext): OrderQuote {
  const months = billingPeriodMonths[plan.billingPeriod];
  const later = roundToWholeKroner(priceOre);
  const plain: OrderQuote = { offerCode: null, offerLabel: null, amountNowOre: later, firstPeriodMonths: months, priceLaterOre: later, laterPeriodMonths: months };
  const make = (offerCode: OfferCode, amountNowOre: number, firstPeriodMonths: number): OrderQuote => ({
    ...plain,
    offerCode,
    offerLabel: offerLabels[offerCode],
    amountNowOre,
    firstPeriodMonths,
  });
  if (context.winback && isMonthly(plan)) return make('WINBACK_3FOR1', later, WINBACK_MONTHS);
  const candidates: OrderQuote[] = [plain];
  if (isIntroPlan(plan)) candidates.push(make('INTRO_1KR', INTRO_PRICE_ORE, 1));
  if (context.campaign) candidates.push(make(CAMPAIGN_CODE, roundToWholeKroner((priceOre * (100 - CAMPAIGN_PERCENT_OFF)) / 100), months));
  return candidates.reduce((best, candidate) => (candidate.amountNowOre < best.amountNowOre ? candidate : best));
}

/** The first paid period of an order fulfilled on `startOn`: its last day and when the later price applies. */
export function firstPeriodOf(startOn: string, quote: Pick<OrderQuote, 'firstPeriodMonths'>): { periodEnd: string; lastDay: string } {
  const periodEnd = addMonths(startOn, quote.firstPeriodMonths);
  return { periodEnd, lastDay: lastDayWithAccess(periodEnd) };
}

/** SPEC §5 for a purchase: buyer 18+, Ung under 34, a plan's own minimum age. Same answer as a plan change. */
export function orderEligibility(plan: Pick<Plan, 'ariaPlanID' | 'name' | 'minimumAge'>, birthdate: string | null, today: string) {
  if (birthdate === null) return { eligible: false as const, code: orderErrorCodes.birthdateRequired, message: orderMessages.birthdateRequired };
  return planEligibility(plan, birthdate, today);
}

const orderStates = ['created', 'awaiting_payment', 'paid', 'fulfilled', 'cancelled', 'failed', 'timed_out'] as const;
export type OrderState = (typeof orderStates)[number];

export const orderErrorCodes = {
  alreadySubscriber: 'ALREADY_SUBSCRIBER',
  birthdateRequired: 'BIRTHDATE_REQUIRED',
  unknownPlan: 'UNKNOWN_PLAN',
  addressRequired: 'DELIVERY_ADDRESS_REQUIRED',
  unknownPostalCode: 'UNKNOWN_POSTAL_CODE',
  notEligibleForWinback: 'NOT_ELIGIBLE_FOR_WINBACK',
  winbackLinkInvalid: 'WINBACK_LINK_INVALID',
  winbackLinkExpired: 'WINBACK_LINK_EXPIRED',
  orderClosed: 'ORDER_CLOSED',
  orderNotCancellable: 'ORDER_NOT_CANCELLABLE',
  /** Another order of the same offer (plan at the title) is still open: one open purchase at a time. */
  orderAlreadyOpen: 'ORDER_ALREADY_OPEN',
  /** The title takes no self-declared age for this offer: the buyer confirms it with an issuer that verifies it (issue 24). */
  ageVerificationRequired: 'AGE_VERIFICATION_REQUIRED',
} as const;

export const orderMessages = {
  alreadySubscriber: 'Du har allerede et aktivt abonnement på denne avisen.',
  birthdateRequired: 'Vi trenger fødselsdatoen din for å vite at du er over 18 år.',
  addressRequired: 'Papiravisen trenger en leveringsadresse.',
  unknownPostalCode: 'Vi finner ikke dette postnummeret.',
  notEligibleForWinback: 'Tilbudet gjelder for deg som har hatt abonnement på avisen før.',
  winbackLinkInvalid: 'Lenken til tilbudet er ikke gyldig.',
  winbackLinkExpired: 'Lenken til tilbudet er utløpt.',
  orderClosed: 'Denne bestillingen er avsluttet. Start en ny bestilling.',
  orderNotCancellable: 'Bestillingen er fullført og kan ikke avbrytes her. Du kan si opp abonnementet på Min Side.',
  orderAlreadyOpen: 'Du har allerede en påbegynt bestilling av dette abonnementet. Fullfør betalingen der du startet den, eller prøv igjen om en time.',
  ageVerificationRequired: (issuerLabel: string) => `Dette tilbudet har en aldersgrense, og avisen trenger en bekreftet fødselsdato. Bekreft alderen med ${issuerLabel}, så kan du fullføre kjøpet.`,
  /** SPEC §8 purchase errors. */
  timeout: 'Serveren brukte for lang tid på å svare. Prøv igjen litt senere.',
  purchaseFailed: 'Kjøp feilet',
  cancelled: 'Kjøpet ditt ble avbrutt',
} as const;

const isoDate = z.iso.date();

const orderOfferSchema = z.object({
  plan: planSchema,
  quote: orderQuoteSchema,
  /** Null when the buyer may choose it; else why not (SPEC §5 age rules). */
  unavailable: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type OrderOffer = z.infer<typeof orderOfferSchema>;

export const orderOffersQuerySchema = z.object({
  titleCode: z
    .string()
    .min(1)
    .max(16)
    .regex(/^[A-Za-z0-9]+$/)
    .optional(),
  campaign: z.string().max(64).optional(),
  winback: z.string().max(512).optional(),
});

export const orderOffersResponseSchema = z.object({
  titleCode: z.string(),
  offers: z.array(orderOfferSchema),
  campaign: z.object({ code: z.literal(CAMPAIGN_CODE), label: z.string() }).nullable(),
  /** The winback was asked for and this buyer (signed in, or the link's) may have it. */
  winback: z.boolean(),
  /** The signed-in buyer has access at the title already (→ /allerede-abonnent). */
  hasAccess: z.boolean(),
  /** The profile has no birthdate: the order form asks for it. */
  birthdateRequired: z.boolean(),
  /** The first day a paper ordered now can come (publication calendar and cutoff). */
  paperStartsOn: isoDate,
});
export type OrderOffersResponse = z.infer<typeof orderOffersResponseSchema>;

export const createOrderBodySchema = z.object({
  idempotencyKey: z.uuid(),
  ariaPlanID: z.string().min(1).max(64),
  campaignCode: z.string().max(64).optional(),
  /** Winback: the signed link's token, or `signed-in` to ask as the signed-in former subscriber. */
  winback: z.string().max(512).optional(),
  /** When the profile has none (SPEC §5: the buyer must be at least 18). Saved to the profile. */
  birthdate: isoDate.optional(),
  deliveryAddress: deliveryAddressInputSchema.optional(),
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

export const orderSchema = z.object({
  orderId: z.string(),
  state: z.enum(orderStates),
  titleCode: z.string(),
  plan: z.object({ ariaPlanID: z.string(), name: z.string(), planProductType: z.string(), billingPeriod: z.string() }),
  quote: orderQuoteSchema,
  deliveryAddress: deliveryAddressSchema.nullable(),
  /** Paper: the first day the paper comes. */
  paperStartsOn: isoDate.nullable(),
  paymentMethod: z.enum(invoicePaymentMethods).nullable(),
  /** The last payment attempt's outcome, for the return pages. */
  lastPaymentStatus: z.string().nullable(),
  /** Once fulfilled: the day the subscription started and the end of the first period. */
  startedOn: isoDate.nullable(),
  firstPeriodEnd: isoDate.nullable(),
  createdAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

export const orderParamsSchema = z.object({ orderId: z.uuid() });

export const orderPaymentBodySchema = z.object({ method: z.enum(invoicePaymentMethods) });

/** GET /api/order/{id}: the order, and once fulfilled the session that now has the subscription. */
export const orderResponseSchema = z.object({
  order: orderSchema,
  session: z.object({ user: userSchema, account: accountSchema, subscription: subscriptionSchema.nullable() }).nullable(),
});
export type OrderResponse = z.infer<typeof orderResponseSchema>;

/** GET /api/winback?token=: the public offer page. */
export const winbackQuerySchema = z.object({ token: z.string().max(512).optional(), titleCode: z.string().max(16).optional() });
export const winbackResponseSchema = z.object({
  titleCode: z.string(),
  /** Signed link or signed-in former subscriber. */
  eligible: z.boolean(),
  /** Signed in with access at the title: → /allerede-abonnent. */
  activeSubscriber: z.boolean(),
  givenName: z.string().nullable(),
  offer: orderOfferSchema.nullable(),
  reason: z.string().nullable(),
});
export type WinbackResponse = z.infer<typeof winbackResponseSchema>;

export const winbackLinkBodySchema = z.object({ ariaAccountNo: z.number().int().positive(), titleCode: z.string().min(1).max(16), validDays: z.number().int().min(1).max(90).optional() });
export const winbackLinkResponseSchema = z.object({ token: z.string(), url: z.string(), expiresAt: z.string() });
