import { describe, expect, it } from 'vitest';
import { withdrawalDeadline, withinWithdrawalPeriod } from './withdrawal.ts';

const none = () => false;

describe('the withdrawal deadline (angrerett, ADR 030)', () => {
  it('is 14 days after the day the agreement was made', () => {
    // Tuesday 1 December 2026 → Tuesday 15 December.
    expect(withdrawalDeadline('2026-12-01', none)).toBe('2026-12-15');
  });

  it('moves from a Saturday or Sunday to the Monday', () => {
    // Saturday 5 December + 14 = Saturday 19 December → Monday 21 December.
    expect(withdrawalDeadline('2026-12-05', none)).toBe('2026-12-21');
    expect(withdrawalDeadline('2026-12-06', none)).toBe('2026-12-21');
  });

  it('moves past public holidays', () => {
    // 11 December + 14 = Friday 25 December (juledag), then the weekend, then 2. juledag is Saturday → Monday 28.
    const holidays = new Set(['2026-12-25', '2026-12-26']);
    expect(withdrawalDeadline('2026-12-11', (day) => holidays.has(day))).toBe('2026-12-28');
  });

  it('includes the deadline day itself', () => {
    expect(withinWithdrawalPeriod('2026-12-15', '2026-12-15')).toBe(true);
    expect(withinWithdrawalPeriod('2026-12-15', '2026-12-16')).toBe(false);
  });
});
