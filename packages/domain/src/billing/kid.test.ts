import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidKid, kidFor, maxKidSerial, mod10CheckDigit, mod11CheckDigit, readKid, type KidScheme } from './kid.ts';

const mod10: KidScheme = { kidLength: 15, kidCheckDigit: 'MOD10' };
const mod11: KidScheme = { kidLength: 12, kidCheckDigit: 'MOD11' };

describe('check digits', () => {
  // Luhn vectors worked by hand (from the right, doubling every second digit starting with the last).
  it.each([
    ['7992739871', '3'],
    ['1234567', '4'],
    ['400000010002', '0'],
    ['0', '0'],
  ])('MOD10 of %s is %s', (base, digit) => expect(mod10CheckDigit(base)).toBe(digit));

  // Norwegian account numbers use the same MOD11 (weights 2–7 from the right): 8601.11.17947 is valid.
  it.each([
    ['8601111794', '7'],
    ['1503124000', '7'],
    ['0', '0'],
    // 1·2 + 1·3 + 1·4 + 1·5 = 14 → 11 − 3 = 8
    ['1111', '8'],
    // 2·2 + 1·3 = 7 → 11 − 7 = 4; 5·2 = 10 → 11 − 10 = 1; 1·2 + 3·3 = 11 → 11 − 0 = 11 → 0
    ['12', '4'],
    ['5', '1'],
    ['31', '0'],
    // 3·2 + 3·3 = 15 → 11 − 4 = 7; 4·2 + 1·3 = 11 → 0; 6·2 + 0 = 12 → 11 − 1 = 10 → '-'
    ['33', '7'],
    ['14', '0'],
    ['6', '-'],
  ])('MOD11 of %s is %s', (base, digit) => expect(mod11CheckDigit(base)).toBe(digit));

  it('refuses what is not digits', () => {
    expect(() => mod10CheckDigit('12a')).toThrow(RangeError);
    expect(() => mod11CheckDigit('')).toThrow(RangeError);
  });
});

describe('KID of an invoice or a mandate', () => {
  it('is the kind digit, the zero-padded serial and the check digit, at the title’s length', () => {
    // 1 | 0000090000123 | Luhn: 3·2 + 2 + 1·2 + 9 + 1 = 20 → 0
    expect(kidFor('invoice', 90_000_123, mod10)).toBe('100000900001230');
    // 2 | 0000000007 | MOD11: 7·2 + 2·6 = 26 → 11 − 4 = 7
    expect(kidFor('mandate', 7, mod11)).toBe('200000000077');
    expect(kidFor('invoice', 90_000_123, mod10)).toHaveLength(15);
    expect(kidFor('mandate', 7, mod11)).toHaveLength(12);
  });

  it('reads back what it wrote, for any serial that fits, in both schemes', () => {
    fc.assert(
      fc.property(fc.constantFrom(mod10, mod11, { kidLength: 25, kidCheckDigit: 'MOD10' } as KidScheme), fc.constantFrom('invoice' as const, 'mandate' as const), fc.nat(), (scheme, kind, n) => {
        const serial = n % (maxKidSerial(scheme) + 1);
        const kid = kidFor(kind, serial, scheme);
        expect(kid).toHaveLength(scheme.kidLength);
        expect(readKid(kid, scheme)).toEqual({ kind, serial });
      }),
    );
  });

  it('is never the same for two serials or two kinds', () => {
    const seen = new Set<string>();
    for (let serial = 90_000_000; serial < 90_002_000; serial++) {
      for (const kind of ['invoice', 'mandate'] as const) seen.add(kidFor(kind, serial, mod10));
    }
    expect(seen.size).toBe(4_000);
  });

  it('refuses a serial the length cannot hold instead of cutting it (no KID ever repeats)', () => {
    expect(kidFor('invoice', 9_999_999_999, mod11)).toHaveLength(12);
    expect(() => kidFor('invoice', 10_000_000_000, mod11)).toThrow(/does not fit a 12-digit KID/);
    expect(() => kidFor('invoice', -1, mod10)).toThrow(RangeError);
  });

  it('a changed digit, a swap of neighbours, another length or an unknown kind is not ours', () => {
    fc.assert(
      fc.property(fc.constantFrom(mod10, mod11), fc.integer({ min: 0, max: 999_999_999 }), fc.nat(), (scheme, serial, at) => {
        const kid = kidFor('invoice', serial, scheme);
        const position = at % (kid.length - 1);
        const digit = kid[position] as string;
        const changed = kid.slice(0, position) + String((Number(digit) + 1) % 10) + kid.slice(position + 1);
        expect(readKid(changed, scheme)?.serial === serial && changed !== kid).toBe(false);
      }),
    );
    const kid = kidFor('invoice', 90_000_123, mod10);
    expect(isValidKid(kid, mod10)).toBe(true);
    expect(isValidKid(kid.slice(1), mod10)).toBe(false);
    expect(isValidKid(kid, { kidLength: 15, kidCheckDigit: 'MOD11' })).toBe(false);
    const unknownKind = `3${kid.slice(1, -1)}`;
    expect(isValidKid(unknownKind + mod10CheckDigit(unknownKind), mod10)).toBe(false);
    expect(isValidKid('1234 5674', mod10)).toBe(false);
  });
});
