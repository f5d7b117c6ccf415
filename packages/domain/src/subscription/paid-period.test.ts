import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../core/dates.ts';
import { formatLongDate } from '../core/format.ts';
import { effectiveStatusCode } from './lifecycle.ts';
import { firstPeriodOf } from '../ordering/ordering.ts';
import { lastDayWithAccess, periodIsOver, renewalDay } from './paid-period.ts';
import { billingPeriodMonths } from './plans.ts';
import { instStatusCodes as S, userFacingState } from './subscription-rules.ts';

// Issue 25.2: "til og med" (last day with access) and "fornyes" (renewal day) are one rule,
// checked over every day of several years, so every month end, February in leap and common
// years, New Year and each billing period length are covered.

function everyDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

const days = everyDay('2023-01-01', '2029-12-31');
const periods = Object.entries(billingPeriodMonths);

describe('last day with access and renewal day (issue 25.2)', () => {
  it('papir@: a period renewing 7 December gives access to and with 6 December', () => {
    expect(lastDayWithAccess('2026-12-07')).toBe('2026-12-06');
    expect(renewalDay('2026-12-07')).toBe('2026-12-07');
    expect(formatLongDate(lastDayWithAccess('2026-12-07'))).toBe('6. desember 2026');
  });

  it('month ends: the last day is the day before the renewal day, also over a month or year boundary', () => {
    expect(lastDayWithAccess('2026-03-01')).toBe('2026-02-28');
    expect(lastDayWithAccess('2028-03-01')).toBe('2028-02-29');
    expect(lastDayWithAccess('2027-01-01')).toBe('2026-12-31');
    expect(lastDayWithAccess('2026-05-01')).toBe('2026-04-30');
  });

  it('every start day and every billing period: periods tile the calendar with no gap and no shared day', () => {
    for (const [, months] of periods) {
      for (const start of days) {
        const end = addMonths(start, months); // what billing and ordering store as currentPeriodEnd
        const last = lastDayWithAccess(end);
        // The renewal day is the day after the last day, and the first day of the next period.
        expect(addDays(last, 1)).toBe(renewalDay(end));
        expect(last >= start).toBe(true);
        // The invoice for the period (billing: periodTo = periodFrom + months − 1 day) ends on the last day.
        expect(addDays(addMonths(start, months), -1)).toBe(last);
        // Ordering's first period says the same.
        expect(firstPeriodOf(start, { firstPeriodMonths: months })).toEqual({ periodEnd: end, lastDay: last });
      }
    }
  });

  it('access: a cancelled subscription gives access on its last day, and not on the renewal day', () => {
    for (const end of days) {
      const last = lastDayWithAccess(end);
      const cancelled = { instStatusCode: S.PENDING_CANCELLATION, currentPeriodEnd: end, pendingChange: null };
      expect(periodIsOver(end, last)).toBe(false);
      expect(periodIsOver(end, renewalDay(end))).toBe(true);
      expect(effectiveStatusCode(cancelled, last)).toBe(S.PENDING_CANCELLATION);
      expect(effectiveStatusCode(cancelled, renewalDay(end))).toBe(S.CANCELLED);
      expect(userFacingState(cancelled, last)).toBe('cancelled');
      expect(userFacingState(cancelled, renewalDay(end))).toBe('expired');
    }
  });

  it('property: for any period end and any day, access and "til og med" agree', () => {
    const isoDay = fc.integer({ min: 0, max: days.length - 1 }).map((index) => days[index] as string);
    fc.assert(
      fc.property(isoDay, isoDay, (end, today) => {
        const hasAccessToday = !periodIsOver(end, today);
        // "Du har tilgang til og med X" is true exactly when today ≤ X.
        expect(hasAccessToday).toBe(today <= lastDayWithAccess(end));
        // And "fornyes Y" is never a day with access from the old period.
        expect(periodIsOver(end, renewalDay(end))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
