import { describe, expect, it } from 'vitest';
import { fixedClock, manualClock, systemClock } from './clock.ts';

describe('clock', () => {
  it('a fixed clock answers the same instant every time, as a fresh Date', () => {
    const clock = fixedClock('2027-03-28T00:30:00Z');
    const first = clock();
    first.setUTCFullYear(1999);
    expect(clock().toISOString()).toBe('2027-03-28T00:30:00.000Z');
  });

  it('a manual clock moves only when told', () => {
    const clock = manualClock(new Date('2028-02-29T23:59:00Z'));
    clock.advance(60_000);
    expect(clock().toISOString()).toBe('2028-03-01T00:00:00.000Z');
    clock.set('2026-12-24T12:00:00+01:00');
    expect(clock().toISOString()).toBe('2026-12-24T11:00:00.000Z');
  });

  it('refuses an instant that is not one', () => {
    expect(() => fixedClock('31.12.2026')).toThrow(RangeError);
  });

  it('the system clock is the machine time', () => {
    const before = performance.timeOrigin + performance.now();
    const read = systemClock().getTime();
    expect(Math.abs(read - before)).toBeLessThan(5_000);
  });
});
