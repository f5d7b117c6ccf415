import { describe, expect, it } from 'vitest';
import { formatInstant, formatKroner, formatPeriod, formatShortDate, paidText, paymentOutcome, returnedPaymentId } from './format.ts';

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

describe('how and when an invoice was paid (issue 21)', () => {
  // A bank payment's paidAt is noon in Oslo of the bank's payment date.
  const paid = (paidAt: string | null, settledBy: Parameters<typeof paidText>[0]['settledBy']) => paidText({ status: 'PAID', paidAt, settledBy });

  it('says the way it was paid after the Norwegian long date', () => {
    expect(paid('2026-03-03T11:00:00.000Z', 'BANKGIRO')).toBe('Betalt 3. mars 2026 i nettbank');
    expect(paid('2026-03-03T11:00:00.000Z', 'AVTALEGIRO')).toBe('Betalt 3. mars 2026 med AvtaleGiro');
    expect(paid('2026-03-03T11:00:00+01:00', 'VIPPS')).toBe('Betalt 3. mars 2026 med Vipps');
    expect(paid('2026-03-03T11:00:00.000Z', 'SWEDBANK-PPG')).toBe('Betalt 3. mars 2026 med kort');
  });

  it('"Kreditert" for an invoice settled by a credit note: nothing was paid (issue 23)', () => {
    expect(paid('2026-03-03T11:00:00.000Z', 'CREDIT')).toBe('Kreditert 3. mars 2026');
  });

  it('only the date for another or no recorded way', () => {
    expect(paid('2026-03-03T11:00:00.000Z', 'STREX')).toBe('Betalt 3. mars 2026');
    expect(paid('2026-03-03T11:00:00.000Z', null)).toBe('Betalt 3. mars 2026');
    expect(paidText({ status: 'PAID', paidAt: '2026-03-03T11:00:00.000Z' })).toBe('Betalt 3. mars 2026');
  });

  it('takes the day in Oslo, not in UTC: noon in summer time, and a payment just after midnight', () => {
    expect(paid('2026-06-30T10:00:00.000Z', 'AVTALEGIRO')).toBe('Betalt 30. juni 2026 med AvtaleGiro');
    expect(paid('2026-06-30T22:30:00.000Z', 'VIPPS')).toBe('Betalt 1. juli 2026 med Vipps');
    expect(paid('2026-12-31T23:15:00.000Z', 'SWEDBANK-PPG')).toBe('Betalt 1. januar 2027 med kort');
  });

  it('nothing for an open invoice, or a paid one without a time', () => {
    expect(paidText({ status: 'UNPAID', paidAt: null, settledBy: null })).toBeNull();
    expect(paidText({ status: 'OVERDUE', paidAt: null, settledBy: null })).toBeNull();
    expect(paid(null, 'BANKGIRO')).toBeNull();
    expect(paid('ikke en tid', 'BANKGIRO')).toBeNull();
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
