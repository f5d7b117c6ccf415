// The change log's words (actors, kinds, the sentence per entry): plain code without zod, so
// pages that only show them take no schemas along. change-log.ts re-exports them beside the
// contracts; the money and date formats are format.ts's.
import { formatKroner, formatLongDate } from '../core/format.ts';
import { lastDayWithAccess } from './paid-period.ts';
import { billingPeriodLabels, perBillingPeriod, type BillingPeriod } from './subscription-rules.ts';

export const changeActors = ['self', 'customerCentre', 'system'] as const;
export type ChangeActor = (typeof changeActors)[number];

export const changeActorLabels: Record<ChangeActor, string> = {
  self: 'Du, på Min Side',
  customerCentre: 'Kundesenteret',
  system: 'Automatisk',
};

export const changeKinds = [
  'started',
  'cancelled',
  'cancellationUndone',
  'withdrawn',
  'expired',
  'reactivated',
  'planChanged',
  'planChangeScheduled',
  'planChangeWithdrawn',
  'retentionOfferAccepted',
  'paymentMethodChanged',
  'shareJoined',
  'shareEnded',
  'trialEnded',
] as const;
export type ChangeKind = (typeof changeKinds)[number];

/**
 * What an entry may record besides its kind. Every field is optional; each kind uses some.
 * Declared here, without zod, so this module needs nothing from change-log.ts (which holds
 * `changeDetailsSchema` and checks that it parses exactly this shape).
 */
export type ChangeDetails = {
  planName?: string;
  fromPlanName?: string;
  billingPeriod?: string;
  /** An ISO date the change applies from or runs to. */
  on?: string;
  amountOre?: number;
  reason?: string;
  offer?: string;
  paymentMethod?: string;
};

function periodLabel(period: string | undefined): string {
  return period && period in billingPeriodLabels ? billingPeriodLabels[period as BillingPeriod].toLowerCase() : '';
}

/** The Norwegian sentence an entry shows in the change log. */
export function describeChange(kind: ChangeKind, details: ChangeDetails): string {
  const plan = details.planName ?? 'abonnementet';
  const on = details.on ? formatLongDate(details.on) : '';
  // `on` of a cancellation, expiry, restart or retention offer is the period end as stored, the
  // renewal day: what the subscriber reads is the last day with access (issue 25.2).
  const lastDay = details.on ? formatLongDate(lastDayWithAccess(details.on)) : '';
  switch (kind) {
    case 'started':
      return `${plan} startet.`;
    case 'cancelled':
      return `Abonnementet ble sagt opp${on ? ` og løper ut ${lastDay}` : ''}.${details.reason ? ` Årsak: ${details.reason}.` : ''}`;
    case 'cancellationUndone':
      return 'Oppsigelsen ble angret. Abonnementet fortsetter som før.';
    case 'withdrawn':
      return `Kjøpet av ${plan} ble angret (angrerett). Abonnementet er avsluttet${details.amountOre ? `, og ${formatKroner(details.amountOre)} betales tilbake` : ''}.`;
    case 'expired':
      return `Abonnementet løp ut${lastDay ? ` ${lastDay}` : ''}.`;
    case 'reactivated':
      return `${plan} ble startet igjen${lastDay ? `, med ny periode til og med ${lastDay}` : ''}.`;
    case 'planChanged': {
      const amount = details.amountOre ? ` Mellomlegg for resten av perioden: ${formatKroner(details.amountOre)}.` : '';
      return `Byttet fra ${details.fromPlanName ?? 'forrige abonnement'} til ${plan}${details.billingPeriod ? ` (${periodLabel(details.billingPeriod)})` : ''}.${amount}`;
    }
    case 'planChangeScheduled':
      return `Bytte til ${plan}${details.billingPeriod ? ` (${periodLabel(details.billingPeriod)})` : ''} er bestilt fra ${on}.`;
    case 'planChangeWithdrawn':
      return `Det bestilte byttet til ${plan} ble trukket tilbake.`;
    case 'retentionOfferAccepted':
      return `Tok imot tilbudet «${details.offer ?? ''}» i stedet for å si opp.${lastDay ? ` Betalt periode varer nå til og med ${lastDay}.` : ''}`;
    case 'paymentMethodChanged':
      return `Betalingsmåten ble endret${details.paymentMethod ? ` til ${details.paymentMethod}` : ''}.`;
    case 'shareJoined':
      return `Ble med i delingen av ${plan}.`;
    case 'shareEnded':
      return `Delingen av ${plan} ble avsluttet.`;
    case 'trialEnded': {
      // The 1 kr month is over and the subscription renewed at the price the order promised after it.
      const price = details.amountOre
        ? `, ${formatKroner(details.amountOre)} ${details.billingPeriod && details.billingPeriod in perBillingPeriod ? perBillingPeriod[details.billingPeriod as BillingPeriod] : 'per periode'}`
        : '';
      return `Prøveperioden er over. ${details.planName ?? 'Abonnementet'} fortsetter til ordinær pris${price}.`;
    }
  }
}
