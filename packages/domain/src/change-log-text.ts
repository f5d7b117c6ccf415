// The change log's words (actors, kinds, the sentence per entry) and the nb-NO date and money
// formats: plain code without zod, so pages that only show them take no schemas along.
// change-log.ts re-exports them beside the contracts.
import { billingPeriodLabels, type BillingPeriod } from './subscription-rules.ts';

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
  'expired',
  'reactivated',
  'planChanged',
  'planChangeScheduled',
  'planChangeWithdrawn',
  'retentionOfferAccepted',
  'paymentMethodChanged',
  'shareJoined',
  'shareEnded',
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

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-05" → "5. mars 2026" (nb-NO, the same words in every browser and on the server). */
export function formatLongDate(date: string): string {
  const match = isoDate.exec(date);
  if (!match) return date;
  const months = ['januar', 'februar', 'mars', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'desember'];
  return `${Number(match[3])}. ${months[Number(match[2]) - 1] ?? ''} ${match[1]}`;
}

/** Whole kroner with nb-NO grouping: 299000 øre → "2 990 kr". */
export function formatKroner(ore: number): string {
  const kroner = Math.round(ore / 100);
  const grouped = String(Math.abs(kroner)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${kroner < 0 ? '−' : ''}${grouped}\u00a0kr`;
}

function periodLabel(period: string | undefined): string {
  return period && period in billingPeriodLabels ? billingPeriodLabels[period as BillingPeriod].toLowerCase() : '';
}

/** The Norwegian sentence an entry shows in the change log. */
export function describeChange(kind: ChangeKind, details: ChangeDetails): string {
  const plan = details.planName ?? 'abonnementet';
  const on = details.on ? formatLongDate(details.on) : '';
  switch (kind) {
    case 'started':
      return `${plan} startet.`;
    case 'cancelled':
      return `Abonnementet ble sagt opp${on ? ` og løper ut ${on}` : ''}.${details.reason ? ` Årsak: ${details.reason}.` : ''}`;
    case 'cancellationUndone':
      return 'Oppsigelsen ble angret. Abonnementet fortsetter som før.';
    case 'expired':
      return `Abonnementet løp ut${on ? ` ${on}` : ''}.`;
    case 'reactivated':
      return `${plan} ble startet igjen${on ? `, med ny periode til ${on}` : ''}.`;
    case 'planChanged': {
      const amount = details.amountOre ? ` Mellomlegg for resten av perioden: ${formatKroner(details.amountOre)}.` : '';
      return `Byttet fra ${details.fromPlanName ?? 'forrige abonnement'} til ${plan}${details.billingPeriod ? ` (${periodLabel(details.billingPeriod)})` : ''}.${amount}`;
    }
    case 'planChangeScheduled':
      return `Bytte til ${plan}${details.billingPeriod ? ` (${periodLabel(details.billingPeriod)})` : ''} er bestilt fra ${on}.`;
    case 'planChangeWithdrawn':
      return `Det bestilte byttet til ${plan} ble trukket tilbake.`;
    case 'retentionOfferAccepted':
      return `Tok imot tilbudet «${details.offer ?? ''}» i stedet for å si opp.${on ? ` Betalt periode varer nå til ${on}.` : ''}`;
    case 'paymentMethodChanged':
      return `Betalingsmåten ble endret${details.paymentMethod ? ` til ${details.paymentMethod}` : ''}.`;
    case 'shareJoined':
      return `Ble med i delingen av ${plan}.`;
    case 'shareEnded':
      return `Delingen av ${plan} ble avsluttet.`;
  }
}
