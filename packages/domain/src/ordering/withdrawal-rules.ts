// The right of withdrawal's rules, texts and states as plain code without zod, so the home page's
// notice uses them without taking schemas along (docs/decisions/020). withdrawal.ts re-exports
// them beside the response schemas.
import { addDays } from '../core/dates.ts';
import { formatLongDate } from '../core/format.ts';

/**
 * The right of withdrawal ("angrerett", issue 25.8; docs/decisions/030-right-of-withdrawal.md).
 * A subscription sold online is a distance contract for a service: angrerettloven gives the
 * buyer 14 days from the day the agreement was made to withdraw without giving a
 * reason, and the seller pays back what it received within 14 days of the notice.
 */

/** Angrerettloven: "14 dager fra avtalen ble inngått". */
export const WITHDRAWAL_DAYS = 14;

/**
 * The last day the buyer may withdraw: 14 days after the day the agreement was made (that day
 * itself not counted). A deadline on a Saturday, Sunday or public holiday moves to the next
 * working day, as time limits in days are read in Norway and the EEA (the generous reading:
 * never shorter than the law's). `isHoliday` comes from the server's holiday calendar, which the
 * browser does not load.
 */
export function withdrawalDeadline(agreedOn: string, isHoliday: (day: string) => boolean): string {
  let day = addDays(agreedOn, WITHDRAWAL_DAYS);
  for (;;) {
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !isHoliday(day)) return day;
    day = addDays(day, 1);
  }
}

/** Whether a withdrawal given on `today` is within the deadline (the deadline day included). */
export function withinWithdrawalPeriod(deadline: string, today: string): boolean {
  return today <= deadline;
}

export const withdrawalErrorCodes = {
  /** The 14 days (and the next working day) are over: normal cancellation instead. */
  periodExpired: 'WITHDRAWAL_PERIOD_EXPIRED',
  /** The subscription was not bought online here (shared, student, business, bought elsewhere). */
  notAvailable: 'WITHDRAWAL_NOT_AVAILABLE',
} as const;

export const withdrawalMessages = {
  periodExpired: (deadline: string) => `Fristen for å angre kjøpet gikk ut ${formatLongDate(deadline)}. Du kan fortsatt si opp abonnementet, så løper det ut perioden du har betalt for.`,
  notAvailable: 'Angreretten gjelder abonnement du har kjøpt selv her på nett. Dette abonnementet kan du si opp som vanlig, eller kontakte kundeservice.',
} as const;

/**
 * The standard information on the right of withdrawal (the form of angrerettloven's regulations,
 * for a service), with this purchase's dates: used on the order page, the receipt and the
 * withdrawal page, so they say the same.
 */
export const withdrawalTexts = {
  /** Before the buy button. */
  beforeBuying: 'Du har 14 dagers angrerett etter angrerettloven. Du kan gå fra avtalen innen 14 dager fra den ble inngått, uten å oppgi noen grunn, og får da tilbake det du har betalt.',
  right: 'Du har rett til å gå fra denne avtalen innen 14 dager uten å oppgi noen grunn. Angrefristen utløper 14 dager etter den dagen avtalen ble inngått.',
  refund:
    'Går du fra avtalen, betaler vi tilbake alle betalinger vi har mottatt fra deg for den, uten unødig opphold og senest 14 dager fra den dagen vi fikk beskjed om at du vil gå fra avtalen. Vi bruker samme betalingsmiddel som du brukte da du betalte.',
} as const;

/** How one invoice of the withdrawn agreement stands: refunded or cancelled by a credit note, waiting for the provider, or with a person. */
export const withdrawalRefundOutcomes = ['refunded', 'cancelled', 'pending', 'manual'] as const;

export const withdrawalStates = ['open', 'expired', 'withdrawn', 'notAvailable'] as const;
