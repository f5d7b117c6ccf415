import { describe, expect, it } from 'vitest';
import { invoiceKid, kidWithCheckDigit } from './kid.ts';

describe('KID', () => {
  it('appends the MOD10 check digit', () => {
    expect(kidWithCheckDigit('7992739871')).toBe('79927398713');
    expect(kidWithCheckDigit('0')).toBe('00');
  });
  it('builds an invoice KID from account and invoice number', () => {
    expect(invoiceKid(40_000_001, 80_000_123)).toBe(kidWithCheckDigit('400000010123'));
  });
  it('refuses what is not digits', () => expect(() => kidWithCheckDigit('12a')).toThrow(RangeError));
});
