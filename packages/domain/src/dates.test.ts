import { describe, expect, it } from 'vitest';
import { addDays, addMonths, osloToday } from './dates.ts';

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
