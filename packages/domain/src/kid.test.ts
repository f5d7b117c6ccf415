import { describe, expect, it } from 'vitest';
import { invoiceKid, kidWithCheckDigit, validateKid } from './kid.ts';

describe('KID', () => {
  it('appends the MOD10 check digit', () => {
    expect(kidWithCheckDigit('7992739871')).toBe('79927398713');
    expect(kidWithCheckDigit('0')).toBe('00');
  });
  it('builds an invoice KID from account and invoice number', () => {
    expect(invoiceKid(40_000_001, 80_000_123)).toBe(kidWithCheckDigit('400000010123'));
  });
  it('refuses what is not digits', () => expect(() => kidWithCheckDigit('12a')).toThrow(RangeError));

  // Vectors worked by hand (Luhn from the right, doubling every second digit starting with the last).
  it.each([
    ['12345674', true],
    ['79927398713', true],
    ['4000000100012', true],
    // check digit 0: sums that are already a multiple of ten
    ['4000000100020', true],
    ['4000000100160', true],
    ['00', true],
    ['4000000100021', false],
    ['79927398710', false],
    ['12345670', false],
    ['1', false],
    ['', false],
    ['1234 5674', false],
    ['12a45674', false],
    ['1'.repeat(26), false],
  ])('validateKid(%j) is %s', (kid, valid) => {
    expect(validateKid(kid)).toBe(valid);
  });

  it('every generated KID validates, and any one changed digit does not', () => {
    for (let invoiceNo = 80_000_000; invoiceNo < 80_000_200; invoiceNo++) {
      const kid = invoiceKid(40_000_001, invoiceNo);
      expect(validateKid(kid)).toBe(true);
      const position = invoiceNo % kid.length;
      const changed = kid.slice(0, position) + String((Number(kid[position]) + 1) % 10) + kid.slice(position + 1);
      expect(validateKid(changed)).toBe(false);
    }
  });
});
