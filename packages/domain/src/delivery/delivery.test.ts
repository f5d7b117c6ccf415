import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  carrierFeedColumns,
  isInFeed,
  toCsv,
  type CarrierFeedRow,
  checkNewPeriod,
  checkShortening,
  calendarOfDays,
  complaintBodySchema,
  complaintDays,
  cutoffPassedMessage,
  deliveryAddressInputSchema,
  deliveryChangeState,
  deliveryMessages,
  deliveryResumesMessage,
  deliveryResumesOn,
  earliestEnd,
  formatTownName,
  overlappingChanges,
  periodsOverlap,
  remediesFor,
  type DeliveryChangeType,
} from './delivery.ts';
import { formatWeekdayDate } from '../core/format.ts';
import { norwegianPublicHolidays } from '../core/holidays.ts';
import { addDays } from '../core/dates.ts';
import { createPublicationCalendar, isoWeekday } from './publication-calendar.ts';

const calendar = createPublicationCalendar({ weekdays: [1, 2, 3, 4, 5, 6], holidaysOf: norwegianPublicHolidays });
// Tuesday 24 November 2026, 10:00 in Oslo: the next possible delivery day is Wednesday 25.
const tuesdayMorning = new Date('2026-11-24T10:00:00+01:00');
const tuesdayAfternoon = new Date('2026-11-24T14:00:00+01:00');

describe('delivery address (SPEC §5)', () => {
  it('gives the three exact messages for an empty form', () => {
    const result = deliveryAddressInputSchema.safeParse({ name: ' ', street: '', streetNumber: '', postalCode: '' });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(['name: Navn er påkrevd på leveringsadresse', 'street: Adresse er påkrevd', 'streetNumber: Gatenummer er påkrevd', 'postalCode: Postnummer er påkrevd']),
    );
  });
  it('trims, keeps optional fields null, and wants four digits', () => {
    const parsed = deliveryAddressInputSchema.parse({ name: ' Kari ', coName: '', street: 'Kongens gate ', streetNumber: '14B', postalCode: '7011' });
    expect(parsed).toEqual({ name: 'Kari', coName: null, street: 'Kongens gate', streetNumber: '14B', apartment: null, floor: null, postalCode: '7011' });
    expect(deliveryAddressInputSchema.safeParse({ ...parsed, postalCode: '701' }).error?.issues[0]?.message).toBe(deliveryMessages.postalCodeFormat);
  });
  it('writes register towns the Norwegian way', () => {
    expect(formatTownName('TRONDHEIM')).toBe('Trondheim');
    expect(formatTownName('MO I RANA')).toBe('Mo i Rana');
    expect(formatTownName('BØ I TELEMARK')).toBe('Bø i Telemark');
    expect(formatTownName('HØNEFOSS-SØNDRE')).toBe('Hønefoss-Søndre');
  });
  it('treats case and spacing as the same address', () => {
    const a = { street: 'Kongens  gate', streetNumber: '14b', apartment: null, postalCode: '7011' };
    expect(addressKey(a)).toBe(addressKey({ ...a, street: 'kongens gate', streetNumber: '14B' }));
    expect(addressKey(a)).not.toBe(addressKey({ ...a, apartment: 'H0101' }));
  });
});

describe('overlap', () => {
  const period = (fromDate: string, toDate: string | null, type: DeliveryChangeType = 'STOP', id?: string) => ({ fromDate, toDate, type, ...(id ? { id } : {}) });

  it('finds shared days, including open ends', () => {
    expect(periodsOverlap(period('2026-12-01', '2026-12-05'), period('2026-12-05', '2026-12-10'))).toBe(true);
    expect(periodsOverlap(period('2026-12-01', '2026-12-04'), period('2026-12-05', '2026-12-10'))).toBe(false);
    expect(periodsOverlap(period('2026-12-01', null), period('2027-06-01', '2027-06-02'))).toBe(true);
    expect(periodsOverlap(period('2027-06-03', null), period('2027-06-01', '2027-06-02'))).toBe(false);
  });
  it('compares temporary changes with each other, and moves only with a move on the same day', () => {
    const existing = [period('2026-12-01', '2026-12-10', 'STOP', 'a'), period('2026-12-20', null, 'PERMANENT', 'b')];
    expect(overlappingChanges(period('2026-12-08', '2026-12-12', 'TRANSFER'), existing).map((c) => c.id)).toEqual(['a']);
    expect(overlappingChanges(period('2026-12-20', '2026-12-22', 'STOP'), existing)).toEqual([]);
    expect(overlappingChanges(period('2026-12-05', null, 'PERMANENT'), existing)).toEqual([]);
    expect(overlappingChanges(period('2026-12-20', null, 'PERMANENT'), existing).map((c) => c.id)).toEqual(['b']);
    // A change does not collide with itself when it is rescheduled.
    expect(overlappingChanges(period('2026-12-02', '2026-12-11', 'STOP', 'a'), existing)).toEqual([]);
  });
  it('is symmetric', () => {
    const day = fc.integer({ min: 0, max: 60 }).map((n) => new Date(Date.UTC(2026, 11, 1 + n)).toISOString().slice(0, 10));
    const range = fc.tuple(day, fc.option(day)).map(([a, b]) => (b === null || b >= a ? { fromDate: a, toDate: b } : { fromDate: b, toDate: a }));
    fc.assert(fc.property(range, range, (a, b) => periodsOverlap(a, b) === periodsOverlap(b, a)));
  });
});

describe('new changes and the cutoff', () => {
  const check = (fromDate: string, toDate: string | null, now = tuesdayMorning, type: DeliveryChangeType = 'STOP') => checkNewPeriod({ calendar, now, type, fromDate, toDate });

  it('accepts tomorrow before the cutoff and names the next possible day after it', () => {
    expect(check('2026-11-25', '2026-11-28')).toBeNull();
    expect(check('2026-11-25', '2026-11-28', tuesdayAfternoon)).toEqual({
      code: 'CUTOFF_PASSED',
      message: 'Fristen for å endre leveringen denne dagen har gått ut. Første mulige dag er torsdag 26. november 2026.',
      nextPossibleDeliveryDay: '2026-11-26',
    });
    expect(check('2026-11-20', null)?.code).toBe('CUTOFF_PASSED');
  });
  it('wants an issue day to start on, any day to end on, and an end after the start', () => {
    expect(check('2026-11-29', null)?.code).toBe('NOT_AN_ISSUE_DAY'); // Sunday
    // Issue 25.14: a stop may end on a Sunday or on Christmas Day; the paper comes on the next issue.
    expect(check('2026-11-26', '2026-12-06')).toBeNull(); // Sunday
    expect(check('2026-11-26', '2026-12-25')).toBeNull(); // Christmas Day
    expect(check('2026-11-27', '2026-11-26')).toMatchObject({ code: 'INVALID_PERIOD', message: deliveryMessages.toBeforeFrom });
  });
  it('allows open-ended stops and moves, and no end date on a move', () => {
    expect(check('2026-12-01', null)).toBeNull();
    expect(check('2026-12-01', null, tuesdayMorning, 'PERMANENT')).toBeNull();
    expect(check('2026-12-01', '2026-12-05', tuesdayMorning, 'PERMANENT')?.code).toBe('INVALID_PERIOD');
  });
  it('limits how far ahead and how long', () => {
    expect(check('2028-01-04', null)?.message).toBe(deliveryMessages.tooFarAhead);
    expect(check('2026-12-01', '2027-12-02')?.message).toBe(deliveryMessages.tooLong);
  });
  it('words the message with the date in Norwegian', () => {
    expect(cutoffPassedMessage('2027-01-02')).toContain('lørdag 2. januar 2027');
    expect(formatWeekdayDate('2026-12-01')).toBe('tirsdag 1. desember 2026');
  });
});

describe('when the paper comes again (issue 25.14)', () => {
  it('after a stop ending on a Sunday, on the Monday', () => {
    expect(deliveryResumesOn(calendar, '2026-12-06')).toBe('2026-12-07');
    expect(deliveryResumesMessage('STOP', deliveryResumesOn(calendar, '2026-12-06'))).toBe('Avisen kommer igjen mandag 7. desember.');
    expect(deliveryResumesMessage('TRANSFER', '2026-12-07')).toBe('Avisen kommer til den vanlige adressen igjen mandag 7. desember.');
  });
  it('skips holidays and follows the title’s own print days', () => {
    expect(deliveryResumesOn(calendar, '2026-12-24')).toBe('2026-12-28'); // 25th, 26th holidays, 27th a Sunday
    const weekdaysOnly = createPublicationCalendar({ weekdays: [1, 3, 5], holidaysOf: norwegianPublicHolidays });
    expect(deliveryResumesOn(weekdaysOnly, '2026-12-01')).toBe('2026-12-02');
    expect(deliveryResumesOn(weekdaysOnly, '2026-12-02')).toBe('2026-12-04');
  });
  it('property: the day after any last day, the first issue, never a day without paper, never later than needed', () => {
    const start = '2026-01-01';
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * 366 }), fc.subarray([1, 2, 3, 4, 5, 6, 7], { minLength: 1 }), (offset, weekdays) => {
        const own = createPublicationCalendar({ weekdays, holidaysOf: norwegianPublicHolidays });
        const lastDay = addDays(start, offset);
        const resumes = deliveryResumesOn(own, lastDay);
        expect(resumes > lastDay).toBe(true);
        expect(own.isPublicationDay(resumes)).toBe(true);
        expect(weekdays).toContain(isoWeekday(resumes));
        expect(own.publicationDaysBetween(addDays(lastDay, 1), addDays(resumes, -1))).toEqual([]);
      }),
    );
  });
  it('the browser’s calendar from the listed days agrees with the server’s, holidays included', () => {
    const publicationDays = calendar.publicationDaysBetween('2026-11-24', '2027-02-28');
    const browser = calendarOfDays({ publicationDays, publicationWeekdays: [1, 2, 3, 4, 5, 6] });
    for (let day = '2026-11-24'; day < '2027-02-27'; day = addDays(day, 1)) {
      expect(deliveryResumesOn(browser, day)).toBe(deliveryResumesOn(calendar, day));
    }
    // Past the listed days only the print weekdays are known (the server's answer after saving decides).
    expect(deliveryResumesOn(browser, '2027-03-27')).toBe('2027-03-29');
  });
});

describe('started changes', () => {
  const stop = { type: 'STOP' as const, fromDate: '2026-11-20', toDate: '2026-12-05' };

  it('are upcoming before the cutoff of their first issue, started after, locked when all is past', () => {
    expect(deliveryChangeState(calendar, { type: 'STOP', fromDate: '2026-11-25', toDate: '2026-11-28' }, tuesdayMorning)).toBe('upcoming');
    expect(deliveryChangeState(calendar, { type: 'STOP', fromDate: '2026-11-25', toDate: '2026-11-28' }, tuesdayAfternoon)).toBe('started');
    expect(deliveryChangeState(calendar, { type: 'STOP', fromDate: '2026-11-25', toDate: '2026-11-25' }, tuesdayAfternoon)).toBe('locked');
    expect(deliveryChangeState(calendar, { type: 'STOP', fromDate: '2026-11-01', toDate: null }, tuesdayAfternoon)).toBe('started');
    expect(deliveryChangeState(calendar, { type: 'PERMANENT', fromDate: '2026-11-25', toDate: null }, tuesdayAfternoon)).toBe('locked');
  });
  it('may be shortened, not lengthened or moved', () => {
    expect(checkShortening({ calendar, now: tuesdayMorning, current: stop, requested: { fromDate: stop.fromDate, toDate: '2026-11-30' } })).toBeNull();
    expect(checkShortening({ calendar, now: tuesdayMorning, current: stop, requested: { fromDate: stop.fromDate, toDate: '2026-12-07' } })?.code).toBe('DELIVERY_CHANGE_STARTED');
    expect(checkShortening({ calendar, now: tuesdayMorning, current: stop, requested: { fromDate: '2026-11-21', toDate: '2026-11-30' } })?.code).toBe('DELIVERY_CHANGE_STARTED');
    expect(checkShortening({ calendar, now: tuesdayMorning, current: { ...stop, toDate: null }, requested: { fromDate: stop.fromDate, toDate: null } })?.code).toBe('DELIVERY_CHANGE_STARTED');
  });
  it('end at the earliest the day before the next possible delivery day', () => {
    expect(earliestEnd(calendar, tuesdayMorning)).toBe('2026-11-24');
    expect(checkShortening({ calendar, now: tuesdayMorning, current: stop, requested: { fromDate: stop.fromDate, toDate: '2026-11-24' } })).toBeNull();
    expect(checkShortening({ calendar, now: tuesdayAfternoon, current: stop, requested: { fromDate: stop.fromDate, toDate: '2026-11-24' } })).toMatchObject({
      code: 'CUTOFF_PASSED',
      message: 'Endringen kan tidligst avsluttes onsdag 25. november 2026.',
    });
  });
});

describe('complaints', () => {
  it('offer the publication days of the last 7 days, newest first', () => {
    expect(complaintDays(calendar, '2026-11-24')).toEqual(['2026-11-24', '2026-11-23', '2026-11-21', '2026-11-20', '2026-11-19', '2026-11-18']);
    expect(complaintDays(calendar, '2026-12-28')).toEqual(['2026-12-28', '2026-12-24', '2026-12-23', '2026-12-22']);
  });
  it('need a short text for damaged and other', () => {
    const base = { days: ['2026-11-23'], remedy: 'EXTENSION' };
    expect(complaintBodySchema.safeParse({ ...base, code: 'MISSING' }).success).toBe(true);
    for (const code of ['DAMAGED', 'OTHER']) {
      const result = complaintBodySchema.safeParse({ ...base, code, text: '  ' });
      expect(result.error?.issues[0]).toMatchObject({ path: ['text'], message: 'Beskriv kort hva som var galt' });
      expect(complaintBodySchema.safeParse({ ...base, code, text: 'Revet i stykker' }).success).toBe(true);
    }
    expect(complaintBodySchema.safeParse({ ...base, code: 'MISSING', days: [] }).success).toBe(false);
  });
  it('offer redelivery only for today’s paper', () => {
    expect(remediesFor(['REDELIVERY', 'EXTENSION'], ['2026-11-24'], '2026-11-24')).toEqual(['REDELIVERY', 'EXTENSION']);
    expect(remediesFor(['REDELIVERY', 'EXTENSION'], ['2026-11-23', '2026-11-24'], '2026-11-24')).toEqual(['EXTENSION']);
    expect(remediesFor(['CREDIT'], ['2026-11-24'], '2026-11-24')).toEqual(['CREDIT']);
  });
});

describe('carrier feed', () => {
  it('takes a change into a day’s feed only when placed before that day’s cutoff', () => {
    expect(isInFeed(new Date('2026-11-30T11:59:59+01:00'), '2026-12-01')).toBe(true);
    expect(isInFeed(new Date('2026-11-30T12:00:00+01:00'), '2026-12-01')).toBe(false);
    expect(isInFeed(new Date('2026-11-30T12:30:00+01:00'), '2026-12-02')).toBe(true);
  });
  it('writes CSV with a header, quoting where needed and defusing formulas', () => {
    const row = Object.fromEntries(carrierFeedColumns.map((column) => [column, ''])) as CarrierFeedRow;
    const csv = toCsv([{ ...row, date: '2026-12-01', kind: 'STOP', name: 'Nordmann, Kari', street: 'Gata "1"', co_name: '=cmd' }]);
    const [header, line] = csv.split('\r\n');
    expect(header).toBe(carrierFeedColumns.join(','));
    expect(line).toContain('"Nordmann, Kari"');
    expect(line).toContain('"Gata ""1"""');
    expect(line).toContain("'=cmd");
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(toCsv([])).toBe(`${carrierFeedColumns.join(',')}\r\n`);
  });
});

describe('csvText', () => {
  it('quotes what needs it, guards formulas, and leaves negative amounts numbers', async () => {
    const { csvText } = await import('./delivery.ts');
    expect(
      csvText([
        ['a', 'b,c', 'say "hi"'],
        ['=SUM(A1)', '-12300', '-1,5', '@x', '-x'],
      ]),
    ).toBe(`a,"b,c","say ""hi"""\r\n'=SUM(A1),-12300,"-1,5",'@x,'-x\r\n`);
  });
});
