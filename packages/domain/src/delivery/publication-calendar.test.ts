import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, osloToday, osloWallClock } from '../core/dates.ts';
import { norwegianPublicHolidays } from '../core/holidays.ts';
import { createPublicationCalendar, cutoffFor, isBeforeCutoff, isoWeekday, nextPossibleDeliveryDay } from './publication-calendar.ts';

const mondayToSaturday = createPublicationCalendar({ weekdays: [1, 2, 3, 4, 5, 6], holidaysOf: norwegianPublicHolidays });
const tueThuSat = createPublicationCalendar({ weekdays: [2, 4, 6], holidaysOf: norwegianPublicHolidays });

/** An instant given as Oslo wall-clock time with an explicit UTC offset. */
const at = (iso: string) => new Date(iso);

describe('Norwegian public holidays (date-holidays)', () => {
  it('has the fixed and the Easter-based days of 2026, and not the observances', () => {
    const days = norwegianPublicHolidays(2026);
    for (const day of ['2026-01-01', '2026-04-02', '2026-04-03', '2026-04-05', '2026-04-06', '2026-05-01', '2026-05-14', '2026-05-17', '2026-05-24', '2026-05-25', '2026-12-25', '2026-12-26']) {
      expect(days.has(day), day).toBe(true);
    }
    expect(days.has('2026-12-24')).toBe(false);
    expect(days.has('2026-05-08')).toBe(false);
  });
  it('moves Easter with the year', () => {
    expect(norwegianPublicHolidays(2027).has('2027-03-26')).toBe(true); // Langfredag 2027
    expect(norwegianPublicHolidays(2027).has('2027-04-03')).toBe(false);
  });
});

describe('publication calendar', () => {
  it('knows ISO weekdays', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('2027-01-01')).toBe(5);
  });

  it('prints on the title’s weekdays only, never on Sundays or public holidays', () => {
    expect(mondayToSaturday.isPublicationDay('2026-11-23')).toBe(true);
    expect(mondayToSaturday.isPublicationDay('2026-11-29')).toBe(false); // Sunday
    expect(mondayToSaturday.isPublicationDay('2026-12-25')).toBe(false); // Første juledag, a Friday
    expect(mondayToSaturday.isPublicationDay('2026-12-26')).toBe(false); // Andre juledag, a Saturday
    expect(mondayToSaturday.isPublicationDay('2026-12-24')).toBe(true); // Julaften is no public holiday
    expect(tueThuSat.isPublicationDay('2026-11-23')).toBe(false);
    expect(tueThuSat.isPublicationDay('2026-11-24')).toBe(true);
  });

  it('skips Sundays and holidays to the next publication day, across the year end', () => {
    expect(mondayToSaturday.nextPublicationDay('2026-11-29')).toBe('2026-11-30');
    expect(mondayToSaturday.nextPublicationDay('2026-12-25')).toBe('2026-12-28');
    expect(mondayToSaturday.nextPublicationDay('2026-12-31')).toBe('2026-12-31');
    expect(mondayToSaturday.nextPublicationDay('2027-01-01')).toBe('2027-01-02'); // New Year's Day off
    expect(mondayToSaturday.nextPublicationDay('2026-04-02')).toBe('2026-04-04'); // Easter 2026
    expect(tueThuSat.nextPublicationDay('2026-12-25')).toBe('2026-12-29'); // Sat 26 is Andre juledag
    expect(mondayToSaturday.previousPublicationDay('2027-01-01')).toBe('2026-12-31');
  });

  it('lists the issues between two dates', () => {
    expect(mondayToSaturday.publicationDaysBetween('2026-12-23', '2027-01-02')).toEqual(['2026-12-23', '2026-12-24', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-02']);
    expect(mondayToSaturday.publicationDaysBetween('2026-11-29', '2026-11-29')).toEqual([]);
  });

  it('refuses a calendar without weekdays', () => {
    expect(() => createPublicationCalendar({ weekdays: [], holidaysOf: () => new Set() })).toThrow(RangeError);
  });
});

describe('cutoff (SPEC §5)', () => {
  it('is the cutoff time on the day before the first affected issue', () => {
    expect(cutoffFor('2026-12-01')).toBe('2026-11-30T12:00:00');
    expect(cutoffFor('2027-01-02', '15:30')).toBe('2027-01-01T15:30:00');
    expect(() => cutoffFor('2026-12-01', '25:00')).toThrow(RangeError);
  });

  it('accepts a change before the time and refuses it at and after the time', () => {
    expect(isBeforeCutoff('2026-12-01', at('2026-11-30T11:59:59+01:00'))).toBe(true);
    expect(isBeforeCutoff('2026-12-01', at('2026-11-30T12:00:00+01:00'))).toBe(false);
    expect(isBeforeCutoff('2026-12-01', at('2026-11-30T12:00:01+01:00'))).toBe(false);
    expect(isBeforeCutoff('2026-12-01', at('2026-11-30T09:00:00+01:00'), '08:00')).toBe(false);
  });

  it('gives tomorrow before the cutoff and the day after once it has passed', () => {
    // Tuesday 24 November 2026.
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-11-24T11:59:00+01:00'))).toBe('2026-11-25');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-11-24T12:00:00+01:00'))).toBe('2026-11-26');
    // Saturday before the cutoff: Sunday has no issue, so Monday; after: still Monday (Sunday 12:00 is its cutoff).
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-11-28T10:00:00+01:00'))).toBe('2026-11-30');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-11-28T13:00:00+01:00'))).toBe('2026-11-30');
    // Sunday after 12:00: Monday's deadline has passed.
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-11-29T12:30:00+01:00'))).toBe('2026-12-01');
  });

  it('skips the Christmas holidays and the year end', () => {
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-12-24T10:00:00+01:00'))).toBe('2026-12-28');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-12-30T13:00:00+01:00'))).toBe('2027-01-02');
    expect(nextPossibleDeliveryDay(tueThuSat, at('2026-12-31T11:00:00+01:00'))).toBe('2027-01-02');
  });

  it('uses the Oslo clock on daylight-saving weekends', () => {
    // Spring forward: Sunday 29 March 2026, 02:00 → 03:00. 11:30 CEST is 09:30 UTC.
    expect(osloWallClock(at('2026-03-29T09:30:00Z'))).toBe('2026-03-29T11:30:00');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-03-29T09:59:00Z'))).toBe('2026-03-30');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-03-29T10:00:00Z'))).toBe('2026-03-31');
    // Fall back: Sunday 25 October 2026, 03:00 → 02:00. 11:59 CET is 10:59 UTC.
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-10-25T10:59:00Z'))).toBe('2026-10-26');
    expect(nextPossibleDeliveryDay(mondayToSaturday, at('2026-10-25T11:00:00Z'))).toBe('2026-10-27');
    // Late on Saturday evening in UTC is already Sunday in Oslo.
    expect(osloToday(at('2026-10-24T22:30:00Z'))).toBe('2026-10-25');
  });
});

describe('calendar properties', () => {
  const instants = fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2031-12-31T23:59:59Z'), noInvalidDate: true });
  const weekdaySets = fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 });
  const cutoffs = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);

  it('the next possible delivery day is a publication day after today whose cutoff is still ahead', () => {
    fc.assert(
      fc.property(instants, weekdaySets, cutoffs, (now, weekdays, cutoff) => {
        const calendar = createPublicationCalendar({ weekdays, holidaysOf: norwegianPublicHolidays });
        const next = nextPossibleDeliveryDay(calendar, now, cutoff);
        expect(calendar.isPublicationDay(next)).toBe(true);
        expect(next > osloToday(now)).toBe(true);
        expect(isBeforeCutoff(next, now, cutoff)).toBe(true);
        // …and it is the first such day: every publication day before it has passed its cutoff.
        for (const earlier of calendar.publicationDaysBetween(osloToday(now), addDays(next, -1))) {
          expect(isBeforeCutoff(earlier, now, cutoff)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never moves backwards as time passes, across DST changes and year ends', () => {
    fc.assert(
      fc.property(instants, fc.integer({ min: 1, max: 72 * 60 }), (now, minutes) => {
        const later = new Date(now.getTime() + minutes * 60_000);
        expect(nextPossibleDeliveryDay(mondayToSaturday, later) >= nextPossibleDeliveryDay(mondayToSaturday, now)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is never more than a week ahead for a Monday–Saturday title, holidays included', () => {
    fc.assert(
      fc.property(instants, (now) => {
        const next = nextPossibleDeliveryDay(mondayToSaturday, now);
        expect(next <= addDays(osloToday(now), 7)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lists exactly the days that are publication days, in order', () => {
    const dates = fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(dates, fc.integer({ min: 0, max: 60 }), weekdaySets, (from, length, weekdays) => {
        const calendar = createPublicationCalendar({ weekdays, holidaysOf: norwegianPublicHolidays });
        const to = addDays(from, length);
        const days = calendar.publicationDaysBetween(from, to);
        expect([...days].sort()).toEqual(days);
        for (let date = from; date <= to; date = addDays(date, 1)) expect(days.includes(date)).toBe(calendar.isPublicationDay(date));
        if (days.length > 0) expect(calendar.nextPublicationDay(from)).toBe(days[0]);
      }),
      { numRuns: 200 },
    );
  });
});
