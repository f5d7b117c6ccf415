// Paper delivery's messages, error codes and change-type labels: no zod, so pages
// that only show them (the paper-only notice, the change list) take no schemas along.
// delivery.ts re-exports them beside the rules that need the schemas' types and the contracts.
import { formatWeekdayDate } from '../core/format.ts';

// ---------------------------------------------------------------------------------------
// Messages (SPEC texts exactly where the spec quotes them)
// ---------------------------------------------------------------------------------------

export const deliveryMessages = {
  /** SPEC §6. */
  paperOnly: 'Du må ha papirabonnement for å benytte denne tjenesten.',
  /** SPEC §5 delivery address. */
  nameRequired: 'Navn er påkrevd på leveringsadresse',
  streetRequired: 'Adresse er påkrevd',
  streetNumberRequired: 'Gatenummer er påkrevd',
  /** SPEC §5 "{info} er påkrevd". */
  postalCodeRequired: 'Postnummer er påkrevd',
  postalCodeFormat: 'Postnummeret må ha fire sifre',
  unknownPostalCode: 'Vi finner ikke dette postnummeret. Sjekk at det er riktig.',
  notAnIssueDay: 'Det kommer ingen avis denne dagen. Velg en dag med avis.',
  toBeforeFrom: 'Sluttdatoen kan ikke være før startdatoen.',
  toRequired: 'Velg når endringen skal slutte, eller kryss av for at den varer til du gir beskjed.',
  tooFarAhead: 'Du kan ikke legge inn endringer mer enn ett år fram i tid.',
  tooLong: 'En endring kan vare i høyst ett år. Ta kontakt med kundeservice for lengre opphold.',
  overlap: 'Du har allerede en endring i denne perioden. Endre eller slett den først.',
  sameAsCurrent: 'Dette er allerede leveringsadressen din fra denne dagen.',
  started: 'Endringen har startet og kan bare forkortes.',
  permanentStarted: 'Flyttingen er allerede gjennomført og kan ikke endres her. Legg inn en ny adresseendring.',
  notFound: 'Fant ikke endringen.',
  complaintTextRequired: 'Beskriv kort hva som var galt',
  complaintDaysRequired: 'Velg minst én dag',
  complaintDayNotAllowed: 'Du kan bare melde fra om dager med avis de siste 7 dagene.',
  complaintDuplicate: 'Du har allerede meldt fra om dette for denne dagen.',
  remedyNotOffered: 'Denne løsningen tilbys ikke for denne avisen eller disse dagene.',
} as const;

/** SPEC §5 cutoff: "If the date has passed, the user is told to use the next possible delivery day." */
export function cutoffPassedMessage(nextPossible: string): string {
  return `Fristen for å endre leveringen denne dagen har gått ut. Første mulige dag er ${formatWeekdayDate(nextPossible)}.`;
}

/** Issue 25.14: when the paper comes again after a stop, or home again after a redirect. */
export function deliveryResumesMessage(type: 'STOP' | 'TRANSFER', resumesOn: string): string {
  const day = formatWeekdayDate(resumesOn, 'dayMonth');
  return type === 'STOP' ? `Avisen kommer igjen ${day}.` : `Avisen kommer til den vanlige adressen igjen ${day}.`;
}

export function shortenNotBeforeMessage(earliestEnd: string): string {
  return `Endringen kan tidligst avsluttes ${formatWeekdayDate(earliestEnd)}.`;
}

export const deliveryErrorCodes = {
  paperOnly: 'PAPER_SUBSCRIPTION_REQUIRED',
  cutoffPassed: 'CUTOFF_PASSED',
  notAnIssueDay: 'NOT_AN_ISSUE_DAY',
  invalidPeriod: 'INVALID_PERIOD',
  overlap: 'DELIVERY_CHANGE_OVERLAP',
  started: 'DELIVERY_CHANGE_STARTED',
  unknownPostalCode: 'UNKNOWN_POSTAL_CODE',
  sameAsCurrent: 'SAME_ADDRESS',
  complaintDuplicate: 'COMPLAINT_DUPLICATE',
  complaintDayNotAllowed: 'COMPLAINT_DAY_NOT_ALLOWED',
  remedyNotOffered: 'REMEDY_NOT_OFFERED',
} as const;

// ---------------------------------------------------------------------------------------
// Vacation and delivery changes (SPEC §3)
// ---------------------------------------------------------------------------------------

export const deliveryChangeTypes = ['TRANSFER', 'PERMANENT', 'STOP'] as const;
export type DeliveryChangeType = (typeof deliveryChangeTypes)[number];

export const deliveryChangeTypeLabels: Record<DeliveryChangeType, string> = {
  STOP: 'Stopp avisen',
  TRANSFER: 'Send avisen til en annen adresse',
  PERMANENT: 'Flytting (ny fast adresse)',
};

/** A change that can still be moved or deleted, or one that has begun and can only be shortened. */
export type DeliveryChangeState = 'upcoming' | 'started' | 'locked';
