import { z } from 'zod';
import { planSchema, type Plan } from './plans.ts';
import { isPaperSubscription, isPaying, isUngSubscription, type ClassifiableSubscription } from './subscription.ts';
import { freeText } from '../core/fields.ts';
import { formatKroner } from '../core/format.ts';
import { requiredMessage } from '../core/validation.ts';

/**
 * Cancellation (issue 4): the reason survey, the one retention offer per subscription, and
 * the two action types of `DELETE /api/deleteSubscription` (SPEC §4 "Action types").
 */

/** SPEC §4 action types: cancel at the period end, or replace the cancellation with the retention offer. */
export const cancellationActionTypes = ['CANCELLATION', 'REPLACEMENT-ANN'] as const;
export type CancellationActionType = (typeof cancellationActionTypes)[number];

/** The reasons a publisher needs to know; `OTHER` asks for the subscriber's own words. */
export const cancellationReasons = {
  PRICE: 'Det er for dyrt',
  NOT_READING: 'Jeg leser ikke nok til at det lønner seg',
  MOVING: 'Jeg skal flytte',
  DELIVERY: 'Jeg er misfornøyd med leveringen av papiravisen',
  CONTENT: 'Jeg er misfornøyd med innholdet',
  OTHER: 'Annet',
} as const;
export type CancellationReason = keyof typeof cancellationReasons;
const cancellationReasonCodes = Object.keys(cancellationReasons) as CancellationReason[];

/** The delivery reason only makes sense for a paper subscription. */
export function cancellationReasonsFor(subscription: Pick<ClassifiableSubscription, 'planProductType'>): CancellationReason[] {
  return cancellationReasonCodes.filter((code) => code !== 'DELIVERY' || isPaperSubscription(subscription));
}

const OTHER_REASON_MAX_LENGTH = 1000;

export const cancellationMessages = {
  reasonRequired: requiredMessage('Årsak'),
  reasonTextRequired: requiredMessage('Beskrivelse'),
  reasonTextTooLong: `Beskrivelsen kan være på høyst ${OTHER_REASON_MAX_LENGTH} tegn`,
  offerRequired: requiredMessage('Tilbud'),
} as const;

/** The survey answer, as the form and the server validate it. */
export const cancellationSurveySchema = z
  .object({
    reasonCode: z.enum(cancellationReasonCodes as [CancellationReason, ...CancellationReason[]], { error: cancellationMessages.reasonRequired }),
    reasonText: freeText({ max: OTHER_REASON_MAX_LENGTH, multiline: true, tooLong: cancellationMessages.reasonTextTooLong }).optional(),
  })
  .superRefine((value, context) => {
    if (value.reasonCode === 'OTHER' && !value.reasonText) {
      context.addIssue({ code: 'custom', path: ['reasonText'], message: cancellationMessages.reasonTextRequired });
    }
  });
export type CancellationSurvey = z.infer<typeof cancellationSurveySchema>;

// ---------------------------------------------------------------------------------------
// Retention offers: one per subscription. Accepting one replaces the cancellation.
// ---------------------------------------------------------------------------------------

export const retentionOfferCodes = ['WINBACK_3_FOR_1', 'CHEAPER_PLAN'] as const;

/** SPEC §9: a winback of 3 months for the price of 1: the paid month, then two free ones. */
export const WINBACK_FREE_MONTHS = 2;

export const retentionOfferSchema = z.object({
  code: z.enum(retentionOfferCodes),
  headline: z.string(),
  description: z.string(),
  /** CHEAPER_PLAN: the plan offered instead, from the next period. */
  plan: planSchema.nullable(),
});
export type RetentionOffer = z.infer<typeof retentionOfferSchema>;

export interface RetentionCandidate extends ClassifiableSubscription {
  billingPeriod: string;
  /** Whether this subscription has accepted a retention offer before. */
  offerUsed: boolean;
}

/** "Digital" monthly plans are named `{TITLE}-DIGITAL-{M|Q|Y}`: the plain digital product. */
function isPlainDigital(plan: Plan): boolean {
  return plan.planProductType === 'DIGITAL' && /-DIGITAL-[MQY]$/.test(plan.ariaPlanID) && !isUngSubscription(plan);
}

/**
 * The one retention offer for a subscription being cancelled, or null: none once one has been
 * accepted, none for subscriptions that do not pay (trial, shared, business: SPEC §4 paying).
 * Paper subscribers are offered to keep the digital subscription at its lower price; everyone
 * else the winback of SPEC §9.
 */
export function chooseRetentionOffer(subscription: RetentionCandidate, plans: Plan[]): RetentionOffer | null {
  if (subscription.offerUsed || !isPaying(subscription)) return null;
  if (isPaperSubscription(subscription)) {
    const digital = plans
      .filter(isPlainDigital)
      .sort((a, b) => Number(b.billingPeriod === subscription.billingPeriod) - Number(a.billingPeriod === subscription.billingPeriod) || a.priceOre - b.priceOre)[0];
    if (digital) {
      return {
        code: 'CHEAPER_PLAN',
        headline: `Behold ${digital.name} for ${formatKroner(digital.priceOre)}`,
        description: `Du kan beholde alt det digitale – nyheter, plussaker og eAvisen – til en lavere pris. Papiravisen stopper når perioden du har betalt for er over, og ${digital.name} tar over fra da.`,
        plan: digital,
      };
    }
  }
  return {
    code: 'WINBACK_3_FOR_1',
    headline: '3 måneder for prisen av 1',
    description: `Bli hos oss, så får du de neste ${WINBACK_FREE_MONTHS} månedene gratis etter perioden du allerede har betalt for.`,
    plan: null,
  };
}

export const cancellationErrorCodes = {
  offerUsed: 'OFFER_ALREADY_USED',
  offerUnavailable: 'OFFER_NOT_AVAILABLE',
} as const;

export const retentionMessages = {
  offerUsed: 'Du har allerede tatt imot et tilbud for dette abonnementet.',
  offerUnavailable: 'Dette tilbudet gjelder ikke for abonnementet ditt.',
} as const;

// ---------------------------------------------------------------------------------------
// Reactivation (SPEC §4 "Reactivation result codes").
// ---------------------------------------------------------------------------------------

export const reactivationResultCodes = [
  'ok',
  'ERROR_IN_CREATING_ACCOUNT',
  'AMPS_RETURNED_NULL',
  'REQUEST_MISSING_VALUES',
  'EMAIL_DOES_NOT_EXIST',
  'NO_SPID_FOUND',
  'USER_HAS_ACTIVE_SUB',
  'USER_IS_ACTIVE',
] as const;
export type ReactivationResultCode = (typeof reactivationResultCodes)[number];

/** What each result tells the subscriber, in Norwegian, and the HTTP status it is answered with. */
export const reactivationResults: Record<ReactivationResultCode, { status: number; message: string }> = {
  ok: { status: 200, message: 'Abonnementet ditt er startet igjen.' },
  ERROR_IN_CREATING_ACCOUNT: {
    status: 409,
    message: 'Vi kunne ikke starte abonnementet igjen her på Min Side. Kontakt kundeservice, så hjelper vi deg.',
  },
  AMPS_RETURNED_NULL: { status: 404, message: 'Vi fant ikke noe tidligere abonnement å starte igjen.' },
  REQUEST_MISSING_VALUES: { status: 400, message: 'Det mangler opplysninger for å starte abonnementet igjen. Last inn siden og prøv på nytt.' },
  EMAIL_DOES_NOT_EXIST: { status: 404, message: 'Vi finner ingen bruker med denne e-postadressen.' },
  NO_SPID_FOUND: { status: 404, message: 'Vi finner ikke brukeren din hos innloggingstjenesten. Logg ut og inn igjen, og prøv på nytt.' },
  USER_HAS_ACTIVE_SUB: { status: 409, message: 'Du har allerede et aktivt abonnement, så det er ingenting å starte igjen.' },
  USER_IS_ACTIVE: {
    status: 409,
    message: 'Abonnementet ditt løper fortsatt ut perioden. Du kan angre oppsigelsen i stedet, så fortsetter det som før.',
  },
};
