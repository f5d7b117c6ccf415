import { describe, expect, it } from 'vitest';
import {
  billingErrorMessages,
  paymentReference,
  changePaymentMethodBodySchema,
  createInvoicePaymentBodySchema,
  formatNorwegianAccountNumber,
  invoiceStatusLabels,
  isValidNorwegianAccountNumber,
  paymentMessage,
  paymentProviderLabels,
} from './billing.ts';

describe('billing contracts and rules', () => {
  it('labels the SPEC §9 provider codes and the issue 6 invoice states', () => {
    expect(paymentProviderLabels['SWEDBANK-PPG']).toBe('Betalingskort');
    expect(paymentProviderLabels.VIPPS).toBe('Vipps');
    expect(invoiceStatusLabels).toEqual({ PAID: 'Betalt', UNPAID: 'Ikke betalt', OVERDUE: 'Forfalt' });
  });

  it.each([
    ['12345678903', true],
    ['1234.56.78903', true],
    ['1234 56 78903', true],
    ['86011117947', true],
    ['12345678904', false],
    ['1234567890', false],
    ['123456789031', false],
    ['abcdefghijk', false],
  ])('bank account %j valid: %s (MOD11)', (input, valid) => {
    expect(isValidNorwegianAccountNumber(input)).toBe(valid);
  });

  it('refuses an account number whose MOD11 check digit would be 10', () => {
    // 0000000001x: 2*1 = 2, remainder 2 → check 9; 0000000006x: 2*6=12 → remainder 1 → no valid check digit.
    for (let check = 0; check <= 9; check++) expect(isValidNorwegianAccountNumber(`0000000006${check}`)).toBe(false);
  });

  it('formats account numbers the Norwegian way', () => {
    expect(formatNorwegianAccountNumber('12345678903')).toBe('1234.56.78903');
    expect(formatNorwegianAccountNumber('x')).toBe('x');
  });

  it('requires a UUID idempotency key and a known method', () => {
    expect(createInvoicePaymentBodySchema.safeParse({ method: 'VIPPS', idempotencyKey: '6f1c1f0e-2a55-4c1e-9f49-8f0f5d1b2a33' }).success).toBe(true);
    expect(createInvoicePaymentBodySchema.safeParse({ method: 'VIPPS', idempotencyKey: 'abc' }).success).toBe(false);
    expect(createInvoicePaymentBodySchema.safeParse({ method: 'AVTALEGIRO', idempotencyKey: '6f1c1f0e-2a55-4c1e-9f49-8f0f5d1b2a33' }).success).toBe(false);
    expect(changePaymentMethodBodySchema.safeParse({ ariaAccountNo: 1, titleCode: 'ADR', method: 'STREX', idempotencyKey: '6f1c1f0e-2a55-4c1e-9f49-8f0f5d1b2a33' }).success).toBe(false);
  });

  it('words payment outcomes per purpose, with SPEC §8 for a missing card', () => {
    expect(paymentMessage('CAPTURED', 'INVOICE', null)).toBe('Betalingen er gjennomført. Takk!');
    expect(paymentMessage('CANCELLED', 'INVOICE', null)).toContain('ikke betalt');
    expect(paymentMessage('CAPTURED', 'CARD_CHANGE', null)).toBe('Betalingskortet er lagret.');
    expect(paymentMessage('FAILED', 'CARD_CHANGE', 'CARD_NOT_FOUND')).toBe(billingErrorMessages.cardNotFound);
    expect(billingErrorMessages.cardNotFound).toBe('Finner ikke kortdetaljer');
  });
});

describe('paymentReference', () => {
  it('is a short human reference from the first 40 bits of the payment UUID, the same every time', () => {
    // 0x0123456789 in Crockford base32 is 04HMASW9.
    expect(paymentReference('01234567-89ab-4cde-8f01-23456789abcd')).toBe('BET-04HM-ASW9');
    expect(paymentReference('01234567-89AB-4CDE-8F01-23456789ABCD')).toBe('BET-04HM-ASW9');
    expect(paymentReference('ffffffff-ff00-4000-8000-000000000000')).toBe('BET-ZZZZ-ZZZZ');
    expect(paymentReference('00000000-0000-4000-8000-000000000000')).toBe('BET-0000-0000');
  });

  it('uses no letter that reads as a digit or another letter (I, L, O, U)', () => {
    const ids = ['3f2a9c1e-7b44-4d2e-9f0a-1c2b3d4e5f60', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', '9e8d7c6b-5a49-4382-a716-0f1e2d3c4b5a'];
    for (const id of ids) expect(paymentReference(id)).toMatch(/^BET-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  });

  it('returns anything that is not a UUID as it is', () => {
    expect(paymentReference('not-a-uuid')).toBe('not-a-uuid');
  });
});
