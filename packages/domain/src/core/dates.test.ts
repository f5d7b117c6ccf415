import { describe, expect, it } from 'vitest';
import { addDays, addMonths, osloInstantOf, osloNoonOf, osloToday, osloWallClock } from './dates.ts';

describe('Oslo calendar dates', () => {
  it('takes the date in Europe/Oslo, not UTC', () => {
    expect(osloToday(new Date('2026-11-21T23:30:00Z'))).toBe('2026-11-22');
    expect(osloToday(new Date('2026-07-01T21:59:00Z'))).toBe('2026-07-01');
    expect(osloToday(new Date('2026-07-01T22:00:00Z'))).toBe('2026-07-02');
  });
  it('adds days across months, years and daylight-saving changes', () => {
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
  it('adds months, clamping to the end of shorter months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-21', -12)).toBe('2025-11-21');
  });
  it('refuses what is not a date', () => expect(() => addDays('21.11.2026', 1)).toThrow(RangeError));
});

describe('osloNoonOf', () => {
  it.each([
    ['2026-01-15', '2026-01-15T11:00:00.000Z'],
    ['2026-07-15', '2026-07-15T10:00:00.000Z'],
    // The days daylight saving starts and ends: still noon on the wall clock.
    ['2026-03-29', '2026-03-29T10:00:00.000Z'],
    ['2026-10-25', '2026-10-25T11:00:00.000Z'],
  ])('%s is %s', (date, instant) => {
    expect(osloNoonOf(date).toISOString()).toBe(instant);
    expect(osloToday(osloNoonOf(date))).toBe(date);
  });
  it('refuses what is not a date', () => expect(() => osloNoonOf('15.01.2026')).toThrow(RangeError));
});

describe('osloInstantOf', () => {
  it.each([
    ['2026-01-15', '00:00', '2026-01-14T23:00:00.000Z'],
    ['2026-07-15', '00:00', '2026-07-14T22:00:00.000Z'],
    // Midnight before the clocks go forward (winter time) and before they go back (summer time).
    ['2026-03-29', '00:00', '2026-03-28T23:00:00.000Z'],
    ['2026-10-25', '00:00', '2026-10-24T22:00:00.000Z'],
    ['2026-10-25', '23:59', '2026-10-25T22:59:00.000Z'],
  ])('%s %s is %s', (date, time, instant) => expect(osloInstantOf(date, time).toISOString()).toBe(instant));
  it('refuses what is not a time', () => expect(() => osloInstantOf('2026-01-15', '24:00')).toThrow(RangeError));
  it.each([
    // The hour the clocks go back comes twice: the later one, in winter time.
    ['2026-10-25', '02:30', '2026-10-25T01:30:00.000Z'],
    // The hour the clocks skip lands an hour later, on the time after the jump.
    ['2026-03-29', '02:30', '2026-03-29T01:30:00.000Z'],
    ['2026-03-29', '03:00', '2026-03-29T01:00:00.000Z'],
  ])('on a daylight-saving night %s %s is %s', (date, time, instant) => expect(osloInstantOf(date, time).toISOString()).toBe(instant));
});

describe('osloWallClock', () => {
  it.each([
    ['2026-01-15T11:00:00Z', '2026-01-15T12:00:00'],
    ['2026-07-15T10:00:00Z', '2026-07-15T12:00:00'],
    ['2026-12-31T23:00:00Z', '2027-01-01T00:00:00'],
    ['2026-03-29T00:59:59Z', '2026-03-29T01:59:59'],
    ['2026-03-29T01:00:00Z', '2026-03-29T03:00:00'],
    ['2026-10-25T00:30:00Z', '2026-10-25T02:30:00'],
    ['2026-10-25T01:30:00Z', '2026-10-25T02:30:00'],
  ])('%s is %s in Oslo', (instant, wall) => expect(osloWallClock(new Date(instant))).toBe(wall));

  it('reads the same second the same however often it is asked, and the next second anew', () => {
    // The last second read is kept (dates.ts): asked again, the answer must still be the instant's own.
    for (let round = 0; round < 2; round++) {
      expect(osloWallClock(new Date('2026-03-29T00:59:59.000Z'))).toBe('2026-03-29T01:59:59');
      expect(osloWallClock(new Date('2026-03-29T00:59:59.999Z'))).toBe('2026-03-29T01:59:59');
      expect(osloWallClock(new Date('2026-03-29T01:00:00.000Z'))).toBe('2026-03-29T03:00:00');
      expect(osloToday(new Date('2026-03-29T01:00:00.500Z'))).toBe('2026-03-29');
      expect(osloWallClock(new Date('1969-12-31T22:59:59.999Z'))).toBe('1969-12-31T23:59:59');
      expect(osloWallClock(new Date('1969-12-31T23:00:00.000Z'))).toBe('1970-01-01T00:00:00');
    }
    expect(() => osloWallClock(new Date(Number.NaN))).toThrow(RangeError);
  });
});
