import { addDays, addMonths, type BillingPeriod, type ChangeActor, type ChangeDetails, type ChangeKind, type FeatureSet } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import type { Db } from './client.ts';
import { cancellationSurvey, plan, subscriptionChange } from './schema.ts';

/**
 * Demo data of the "my subscription" area: the plans every title sells (with one announced
 * price change, for /nye-priser) and a change history for the demo subscribers. Like the
 * rest of the seed it only adds what is missing.
 */

interface PlanTemplate {
  suffix: string;
  name: string;
  description: string;
  planProductType: 'COMBO' | 'DIGITAL';
  billingPeriod: BillingPeriod;
  priceOre: number;
  features: FeatureSet;
  /** An announced new price, from the first day of the month after next. */
  nextPriceOre?: number;
  /** Youngest age the plan is sold to, above the general 18. */
  minimumAge?: number;
}

const digital: FeatureSet = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };
const complete: FeatureSet = { plusContent: true, ePaper: true, paper: true, familySharing: true, thirdPartyBundle: true };

const digitalText = 'Alle nyheter og plussaker på nett og i appen, og eAvisen hver dag.';
const familyText = 'Alt i Digital, og del tilgangen gratis med dem du bor sammen med.';
const completeText = 'Papiravisen levert hjem, alt det digitale, familiedeling og et partnerabonnement på strømmetjenester.';
const ungText = 'Alt i Digital til ungdomspris, for deg under 34 år.';
const honnorText = 'Alt i Digital til honnørpris, for deg som er 67 år eller eldre.';

export const planTemplates: PlanTemplate[] = [
  { suffix: 'DIGITAL-M', name: 'Digital', description: digitalText, planProductType: 'DIGITAL', billingPeriod: 'MONTH', priceOre: 29_900, features: digital, nextPriceOre: 32_900 },
  { suffix: 'DIGITAL-Y', name: 'Digital', description: digitalText, planProductType: 'DIGITAL', billingPeriod: 'YEAR', priceOre: 299_000, features: digital },
  {
    suffix: 'DIGITAL-FAMILIE-M',
    name: 'Digital Familie',
    description: familyText,
    planProductType: 'DIGITAL',
    billingPeriod: 'MONTH_PREMIUM',
    priceOre: 39_900,
    features: { ...digital, familySharing: true },
  },
  { suffix: 'KOMPLETT-M', name: 'Komplett', description: completeText, planProductType: 'COMBO', billingPeriod: 'MONTH', priceOre: 64_900, features: complete, nextPriceOre: 68_900 },
  { suffix: 'KOMPLETT-Q', name: 'Komplett', description: completeText, planProductType: 'COMBO', billingPeriod: 'QUARTER', priceOre: 189_900, features: complete },
  { suffix: 'KOMPLETT-Y', name: 'Komplett', description: completeText, planProductType: 'COMBO', billingPeriod: 'YEAR', priceOre: 729_000, features: complete },
  { suffix: 'UNG-DIGITAL-M', name: 'Ung digital', description: ungText, planProductType: 'DIGITAL', billingPeriod: 'MONTH', priceOre: 9_900, features: digital },
  // Last, so the sort order of the plans seeded before it stays as it was.
  { suffix: 'DIGITAL-HONNOR-M', name: 'Digital Honnør', description: honnorText, planProductType: 'DIGITAL', billingPeriod: 'MONTH', priceOre: 19_900, features: digital, minimumAge: 67 },
];

type Inserter = Pick<Db, 'insert'>;

function firstOfMonthAfterNext(today: string): string {
  return `${addMonths(today, 2).slice(0, 7)}-01`;
}

export async function seedPlans(tx: Inserter, today: string, titleCodes: string[] = defaultCatalogue.offered().map((entry) => entry.titleCode)): Promise<void> {
  const nextPriceFrom = firstOfMonthAfterNext(today);
  const rows = titleCodes.flatMap((titleCode) =>
    planTemplates.map((template, index) => ({
      ariaPlanId: `${titleCode}-${template.suffix}`,
      titleCode,
      name: template.name,
      description: template.description,
      planProductType: template.planProductType,
      billingPeriod: template.billingPeriod,
      priceOre: template.priceOre,
      features: template.features,
      nextPriceOre: template.nextPriceOre ?? null,
      nextPriceFrom: template.nextPriceOre ? nextPriceFrom : null,
      minimumAge: template.minimumAge ?? null,
      sortOrder: index,
    })),
  );
  await tx.insert(plan).values(rows).onConflictDoNothing();
}

interface HistoryEntry {
  persona: string;
  kind: ChangeKind;
  actor: ChangeActor;
  /** Days before today. */
  daysAgo: number;
  from?: number | null;
  to?: number | null;
  details?: ChangeDetails;
}

/** Change history of the demo subscriptions (ids `demo-<persona>-<title>`), for the "Endringslogg". */
export async function seedSubscriptionHistory(
  tx: Inserter,
  today: string,
  subscriptions: { persona: string; titleCode: string; planName: string; startedMonthsAgo: number; periodEndsInDays: number; sharedFrom?: string }[],
): Promise<void> {
  const idOf = (persona: string) => {
    const found = subscriptions.find((entry) => entry.persona === persona);
    return found ? `demo-${persona}-${found.titleCode.toLowerCase()}` : null;
  };
  const periodEnd = (persona: string) => addDays(today, subscriptions.find((entry) => entry.persona === persona)?.periodEndsInDays ?? 0);
  const entries: HistoryEntry[] = [
    ...subscriptions.map((entry): HistoryEntry => ({
      persona: entry.persona,
      kind: 'started',
      actor: entry.persona === 'admin' ? 'customerCentre' : 'self',
      daysAgo: Math.round(entry.startedMonthsAgo * 30.4),
      details: { planName: entry.planName },
    })),
    { persona: 'papir', kind: 'paymentMethodChanged', actor: 'customerCentre', daysAgo: 600, details: { paymentMethod: 'AvtaleGiro' } },
    { persona: 'oppsagt', kind: 'cancelled', actor: 'self', daysAgo: 6, from: 1, to: 2, details: { on: periodEnd('oppsagt'), reason: 'Det er for dyrt' } },
    { persona: 'utlopt', kind: 'cancelled', actor: 'customerCentre', daysAgo: 70, from: 1, to: 2, details: { on: periodEnd('utlopt'), reason: 'Jeg leser ikke nok til at det lønner seg' } },
    { persona: 'utlopt', kind: 'expired', actor: 'system', daysAgo: 45, from: 2, to: -2, details: { on: periodEnd('utlopt') } },
    { persona: 'tidligere', kind: 'cancelled', actor: 'self', daysAgo: 50, from: 1, to: 2, details: { on: periodEnd('tidligere'), reason: 'Jeg skal flytte' } },
    { persona: 'tidligere', kind: 'expired', actor: 'system', daysAgo: 20, from: 2, to: -2, details: { on: periodEnd('tidligere') } },
  ];
  const rows = entries.flatMap((entry, index) => {
    const subscriptionId = idOf(entry.persona);
    if (!subscriptionId) return [];
    return [
      {
        id: `demo-change-${entry.persona}-${entry.kind}-${index}`,
        subscriptionId,
        at: new Date(`${addDays(today, -entry.daysAgo)}T09:30:00Z`),
        actor: entry.actor,
        actorUserId: entry.actor === 'self' ? `user-${entry.persona}` : null,
        kind: entry.kind,
        fromStatusCode: entry.from ?? null,
        toStatusCode: entry.to ?? null,
        details: entry.details ?? {},
      },
    ];
  });
  await tx.insert(subscriptionChange).values(rows).onConflictDoNothing();

  const surveys = [
    { persona: 'oppsagt', reasonCode: 'PRICE', daysAgo: 6 },
    { persona: 'utlopt', reasonCode: 'NOT_READING', daysAgo: 70 },
  ].flatMap((survey) => {
    const subscriptionId = idOf(survey.persona);
    return subscriptionId
      ? [
          {
            id: `demo-survey-${survey.persona}`,
            subscriptionId,
            reasonCode: survey.reasonCode,
            reasonText: null,
            actionType: 'CANCELLATION',
            createdAt: new Date(`${addDays(today, -survey.daysAgo)}T09:30:00Z`),
          },
        ]
      : [];
  });
  await tx.insert(cancellationSurvey).values(surveys).onConflictDoNothing();
}
