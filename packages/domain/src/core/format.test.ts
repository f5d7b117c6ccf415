import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatClockTime,
  formatInstant,
  formatKroner,
  formatLongInstant,
  formatLongDate,
  formatPeriod,
  formatShortDate,
  formatWeekdayDate,
  invoiceDescriptionWithoutPeriod,
  invoiceLineDescription,
} from './format.ts';

const nbsp = '\u00a0';
const minus = '\u2212';

describe('formatKroner', () => {
  it('writes whole kroner with a no-break space between thousands and before kr', () => {
    expect(formatKroner(64_900)).toBe(`649${nbsp}kr`);
    expect(formatKroner(100)).toBe(`1${nbsp}kr`);
    expect(formatKroner(299_000)).toBe(`2${nbsp}990${nbsp}kr`);
    expect(formatKroner(2_990_000)).toBe(`29${nbsp}900${nbsp}kr`);
    expect(formatKroner(123_456_789_00)).toBe(`123${nbsp}456${nbsp}789${nbsp}kr`);
  });

  it('never rounds øre away: an amount with øre shows them', () => {
    expect(formatKroner(16_225)).toBe(`162,25${nbsp}kr`);
    expect(formatKroner(1)).toBe(`0,01${nbsp}kr`);
    expect(formatKroner(123_456_750)).toBe(`1${nbsp}234${nbsp}567,50${nbsp}kr`);
  });

  it('writes kroner and øre for documents', () => {
    expect(formatKroner(64_900, { withOre: true })).toBe(`649,00${nbsp}kr`);
    expect(formatKroner(19_800, { withOre: true })).toBe(`198,00${nbsp}kr`);
    expect(formatKroner(5, { withOre: true })).toBe(`0,05${nbsp}kr`);
    expect(formatKroner(123_456_789, { withOre: true })).toBe(`1${nbsp}234${nbsp}567,89${nbsp}kr`);
  });

  it('puts a minus sign before negatives', () => {
    expect(formatKroner(-64_900)).toBe(`${minus}649${nbsp}kr`);
    expect(formatKroner(-299_000, { withOre: true })).toBe(`${minus}2${nbsp}990,00${nbsp}kr`);
    expect(formatKroner(-50)).toBe(`${minus}0,50${nbsp}kr`);
  });

  it('writes zero without a sign', () => {
    expect(formatKroner(0)).toBe(`0${nbsp}kr`);
    expect(formatKroner(-0)).toBe(`0${nbsp}kr`);
    expect(formatKroner(0, { withOre: true })).toBe(`0,00${nbsp}kr`);
  });

  it('writes every amount so that it reads back as the same øre', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (ore) => {
        const text = formatKroner(ore, { withOre: true });
        expect(text).toMatch(/^−?\d{1,3}(\u00a0\d{3})*,\d\d\u00a0kr$/);
        expect(
          Number(
            text
              .replace(minus, '-')
              .replace(/\u00a0(kr)?/g, '')
              .replace(',', '.'),
          ) * 100,
        ).toBeCloseTo(ore, 3);
      }),
    );
  });

  it('groups the digits as nb-NO does in Intl, in kroner and in kroner and øre', () => {
    // format.ts groups by hand (Intl's set-up is too dear on a page's first task); Intl stays the reference.
    const wholeKroner = new Intl.NumberFormat('nb-NO', { maximumFractionDigits: 0 });
    const kronerAndOre = new Intl.NumberFormat('nb-NO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const byIntl = (format: Intl.NumberFormat, ore: number) => `${format.format(Math.abs(ore) / 100).replace(/\s/g, nbsp)}${nbsp}kr`;
    // Of every length: up to 10^digits, for 1 to 13 digits.
    const amounts = fc.integer({ min: 1, max: 13 }).chain((digits) => fc.integer({ min: 0, max: 10 ** digits }));
    fc.assert(
      fc.property(amounts, (ore) => {
        expect(formatKroner(ore, { withOre: true })).toBe(byIntl(kronerAndOre, ore));
        expect(formatKroner(ore)).toBe(byIntl(ore % 100 === 0 ? wholeKroner : kronerAndOre, ore));
        expect(formatKroner(-ore * 100)).toBe(`${ore === 0 ? '' : minus}${byIntl(wholeKroner, ore * 100)}`);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('dates', () => {
  it('writes a long date with the month in words', () => {
    expect(formatLongDate('2026-03-05')).toBe('5. mars 2026');
    expect(formatLongDate('2027-01-02')).toBe('2. januar 2027');
    expect(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((month) => formatLongDate(`2026-${month}-10`))).toEqual([
      '10. januar 2026',
      '10. februar 2026',
      '10. mars 2026',
      '10. april 2026',
      '10. mai 2026',
      '10. juni 2026',
      '10. juli 2026',
      '10. august 2026',
      '10. september 2026',
      '10. oktober 2026',
      '10. november 2026',
      '10. desember 2026',
    ]);
  });

  it('writes a short date and a period', () => {
    expect(formatShortDate('2026-03-05')).toBe('05.03.2026');
    expect(formatShortDate('2026-12-31')).toBe('31.12.2026');
    expect(formatPeriod('2026-03-05', '2026-04-04')).toBe('05.03.2026–04.04.2026');
  });

  it('writes the weekday, with and without the year, and short', () => {
    expect(formatWeekdayDate('2026-12-01')).toBe('tirsdag 1. desember 2026');
    expect(formatWeekdayDate('2026-12-01', 'dayMonth')).toBe('tirsdag 1. desember');
    expect(formatWeekdayDate('2026-12-01', 'short')).toBe('tir. 1. des.');
    // A week from Monday, across a month end and a leap day.
    expect(['2028-02-28', '2028-02-29', '2028-03-01', '2028-03-02', '2028-03-03', '2028-03-04', '2028-03-05'].map((date) => formatWeekdayDate(date))).toEqual([
      'mandag 28. februar 2028',
      'tirsdag 29. februar 2028',
      'onsdag 1. mars 2028',
      'torsdag 2. mars 2028',
      'fredag 3. mars 2028',
      'lørdag 4. mars 2028',
      'søndag 5. mars 2028',
    ]);
    expect(['2026-01-05', '2026-03-03', '2026-06-03', '2026-07-02', '2026-10-02', '2026-10-03', '2026-10-04'].map((date) => formatWeekdayDate(date, 'short'))).toEqual([
      'man. 5. jan.',
      'tir. 3. mars',
      'ons. 3. juni',
      'tor. 2. juli',
      'fre. 2. okt.',
      'lør. 3. okt.',
      'søn. 4. okt.',
    ]);
  });

  it('returns what is not an ISO date as it is', () => {
    for (const format of [formatLongDate, formatShortDate, formatWeekdayDate]) expect(format('not a date')).toBe('not a date');
    expect(formatInstant('not an instant')).toBe('not an instant');
  });

  it('writes an instant in prose for letters and e-mails, and a time of day with "kl." and a full stop', () => {
    expect(formatLongInstant(new Date('2026-12-06T23:15:00Z'))).toBe('7. desember 2026 kl. 00.15');
    expect(formatLongInstant(new Date('2026-06-30T22:30:00Z'))).toBe('1. juli 2026 kl. 00.30');
    expect(formatClockTime('00:15')).toBe('kl. 00.15');
    expect(formatClockTime('12')).toBe('12');
  });

  it('writes an instant on the Oslo clock, across the daylight-saving changes', () => {
    expect(formatInstant('2026-11-21T12:40:00Z')).toBe('21.11.2026 kl. 13.40');
    expect(formatInstant(new Date('2026-11-21T12:40:00Z'))).toBe('21.11.2026 kl. 13.40');
    // Summer time: the next day in Oslo while it is still the day before in UTC.
    expect(formatInstant('2026-06-30T22:30:00Z')).toBe('01.07.2026 kl. 00.30');
    // Midnight is 00, never 24.
    expect(formatInstant('2026-12-31T23:00:00Z')).toBe('01.01.2027 kl. 00.00');
    // 29 March 2026: 01:59 UTC+1, then 03:00 UTC+2.
    expect(formatInstant('2026-03-29T00:59:00Z')).toBe('29.03.2026 kl. 01.59');
    expect(formatInstant('2026-03-29T01:00:00Z')).toBe('29.03.2026 kl. 03.00');
    // 25 October 2026: 02:59 UTC+2, then 02:00 UTC+1 again.
    expect(formatInstant('2026-10-25T00:59:00Z')).toBe('25.10.2026 kl. 02.59');
    expect(formatInstant('2026-10-25T01:00:00Z')).toBe('25.10.2026 kl. 02.00');
    expect(formatInstant('2026-10-25T02:00:00Z')).toBe('25.10.2026 kl. 03.00');
  });
});

describe('invoiceLineDescription', () => {
  it('names the plan and the period in long dates', () => {
    expect(invoiceLineDescription({ planName: 'Komplett', periodFrom: '2026-12-03', periodTo: '2027-01-02' })).toBe('Komplett, 3. desember 2026 – 2. januar 2027');
    expect(invoiceLineDescription({ planName: 'Digital', periodFrom: '2026-03-05', periodTo: '2026-04-04', note: null })).toBe('Digital, 5. mars 2026 – 4. april 2026');
  });

  it('adds what explains the amount in parentheses', () => {
    expect(invoiceLineDescription({ planName: 'Komplett', periodFrom: '2026-12-03', periodTo: '2027-01-02', note: 'rabatt VELKOMMEN20' })).toBe(
      'Komplett, 3. desember 2026 – 2. januar 2027 (rabatt VELKOMMEN20)',
    );
    expect(invoiceLineDescription({ planName: 'Komplett', periodFrom: '2026-11-21', periodTo: '2026-12-02', note: 'mellomlegg ved bytte fra Digital' })).toBe(
      'Komplett, 21. november 2026 – 2. desember 2026 (mellomlegg ved bytte fra Digital)',
    );
  });
});

describe('invoiceDescriptionWithoutPeriod', () => {
  it('takes the period out of a line written for it, keeping the note', () => {
    const description = invoiceLineDescription({ planName: 'Komplett', periodFrom: '2026-12-03', periodTo: '2027-01-02', note: 'rabatt VELKOMMEN20' });
    expect(invoiceDescriptionWithoutPeriod(description, '2026-12-03', '2027-01-02')).toBe('Komplett (rabatt VELKOMMEN20)');
    expect(invoiceDescriptionWithoutPeriod('Digital, 5. mars 2026 – 4. april 2026', '2026-03-05', '2026-04-04')).toBe('Digital');
  });

  it('leaves a description for another period, or free text, as it is', () => {
    expect(invoiceDescriptionWithoutPeriod('Digital, 5. mars 2026 – 4. april 2026', '2026-04-05', '2026-05-04')).toBe('Digital, 5. mars 2026 – 4. april 2026');
    expect(invoiceDescriptionWithoutPeriod('Gebyr for purring', '2026-03-05', '2026-04-04')).toBe('Gebyr for purring');
  });
});
