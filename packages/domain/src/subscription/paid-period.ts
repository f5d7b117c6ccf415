import { addDays } from '../core/dates.ts';

/**
 * The two dates of a paid period, decided once (issue 25.2). A subscription stores one date,
 * `currentPeriodEnd`, and it is the **renewal day**: the first day of the next period. Billing
 * starts the next period on it (the next invoice's `periodFrom` is this date and the invoice
 * before it ends the day before), a scheduled plan change takes effect on it, and a cancelled
 * subscription no longer gives access on it. So:
 *
 * - "last day with access" (`til og med …`, the day a cancelled subscription runs out, the
 *   last day an invoice covers) is the day **before** the renewal day;
 * - "renewal day" (`fornyes …`, `Neste fornyelse`, a downgrade's `fra …`) is the date itself.
 *
 * Every page, mail and document that shows either date takes it from here, so no two of them
 * can be a day apart again.
 */

/** The last day the paid period gives access: the day before the renewal day. */
export function lastDayWithAccess(currentPeriodEnd: string): string {
  return addDays(currentPeriodEnd, -1);
}

/** The day the next period starts (and is charged): the stored period end itself. */
export function renewalDay(currentPeriodEnd: string): string {
  return currentPeriodEnd;
}

/** True once the paid period is over on `today`: the last day with access has passed. */
export function periodIsOver(currentPeriodEnd: string, today: string): boolean {
  return lastDayWithAccess(currentPeriodEnd) < today;
}
