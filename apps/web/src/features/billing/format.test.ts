import { describe, expect, it } from 'vitest';
import { formatInstant, formatKroner, formatPeriod, formatShortDate, paymentOutcome, returnedPaymentId } from './format.ts';

describe('invoice formatting', () => {
  it('whole kroner, short dates and a period', () => {
    expect(formatKroner(64_900)).toBe('649\u00a0kr');
    expect(formatKroner(2_990_000)).toBe('29\u00a0900\u00a0kr');
    expect(formatShortDate('2026-12-03')).toBe('03.12.2026');
    expect(formatShortDate('not a date')).toBe('not a date');
    expect(formatPeriod('2026-11-03', '2026-12-02')).toBe('03.11.2026–02.12.2026');
  });

  it('instants in Oslo time, also across the date line of UTC', () => {
    expect(formatInstant('2026-11-21T12:40:00Z')).toBe('21.11.2026 kl. 13.40');
    expect(formatInstant('2026-06-30T22:30:00Z')).toBe('01.07.2026 kl. 00.30');
  });
});

describe('the return from the payment provider', () => {
  it('maps every payment status to what the page does', () => {
    expect(paymentOutcome('PENDING')).toBe('waiting');
    expect(paymentOutcome('CAPTURED')).toBe('succeeded');
    expect(paymentOutcome('CANCELLED')).toBe('cancelled');
    expect(paymentOutcome('FAILED')).toBe('failed');
    expect(paymentOutcome('TIMEOUT')).toBe('failed');
    expect(paymentOutcome('REFUNDED')).toBe('refunded');
  });

  it('takes the payment reference from the URL only when it looks like one', () => {
    expect(returnedPaymentId(new URLSearchParams('paymentId=pay_8f2a-11'))).toBe('pay_8f2a-11');
    expect(returnedPaymentId(new URLSearchParams(''))).toBeNull();
    expect(returnedPaymentId(new URLSearchParams('paymentId=../../admin'))).toBeNull();
    expect(returnedPaymentId(new URLSearchParams(`paymentId=${'a'.repeat(65)}`))).toBeNull();
  });
});
