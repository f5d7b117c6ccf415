import { describe, expect, it } from 'vitest';
import { freeText, freeTextRegistry, optionalFreeText, personName } from './fields.ts';
import { cleanText, hasForbiddenCharacters, normaliseText, textLength } from './text.ts';
import { validationMessages } from './validation.ts';

// Issue 20 point 8: free text is bounded and normalised once, by these helpers.

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe('personName', () => {
  const name = personName({ required: 'Fornavn er påkrevd' });

  it('normalises to NFC, tidies spaces and trims', () => {
    expect(name.parse('  Ka\u0301re   Bjørn ')).toBe('K\u00e1re Bjørn');
    expect(name.parse('Ola\u00a0Nordmann')).toBe('Ola Nordmann');
  });

  it.each([
    ['CR/LF (an e-mail header split)', 'Kari\r\nBcc: x@example.no'],
    ['a lone LF', 'Kari\nNordmann'],
    ['a tab', 'Kari\tNordmann'],
    ['NUL', 'Kari\u0000'],
    ['an escape sequence', 'Kari\u001b[31m'],
    ['a C1 control', 'Kari\u0085'],
    ['a right-to-left override', 'Kari\u202Enamron'],
    ['an isolate', 'Kari\u2066x\u2069'],
    ['a line separator', 'Kari\u2028Nordmann'],
    ['an unpaired surrogate', 'Kari\uD800'],
  ])('refuses %s with one Norwegian message', (_what, value) => {
    expect(messagesOf(name.safeParse(value))).toEqual([validationMessages.invalidCharacters]);
  });

  it('counts characters, not UTF-16 units: 100 emoji fit, 101 letters do not', () => {
    expect(name.safeParse('😀'.repeat(100)).success).toBe(true);
    expect(messagesOf(name.safeParse('a'.repeat(101)))).toEqual(['Teksten kan være på høyst 100 tegn']);
    expect(messagesOf(name.safeParse('a'.repeat(1000)))).toEqual(['Teksten kan være på høyst 100 tegn']);
  });

  it('an empty name gets the required message only', () => {
    expect(messagesOf(name.safeParse('   '))).toEqual(['Fornavn er påkrevd']);
  });
});

describe('freeText', () => {
  it('multiline keeps line breaks and tabs (CRLF as LF) but refuses other controls', () => {
    const text = freeText({ max: 20, multiline: true });
    expect(text.parse(' Linje 1\r\nLinje\t2 ')).toBe('Linje 1\nLinje\t2');
    expect(text.safeParse('Linje\u0007').success).toBe(false);
    expect(text.safeParse('Linje\u202E').success).toBe(false);
  });

  it('optional free text: empty, missing and null are null', () => {
    const text = optionalFreeText({ max: 10 });
    expect(text.parse('')).toBeNull();
    expect(text.parse('   ')).toBeNull();
    expect(text.parse(undefined)).toBeNull();
    expect(text.parse(null)).toBeNull();
    expect(text.parse(' x ')).toBe('x');
  });

  it('is registered with its limit, so the server can find every free-text field', () => {
    const text = freeText({ max: 42, multiline: true });
    expect(freeTextRegistry.get(text)).toEqual({ max: 42, multiline: true });
  });
});

describe('the text rules themselves', () => {
  it('normaliseText, hasForbiddenCharacters and textLength', () => {
    expect(normaliseText('a\r\nb\rc', { multiline: true })).toBe('a\nb\nc');
    expect(hasForbiddenCharacters('a\nb', { multiline: true })).toBe(false);
    expect(hasForbiddenCharacters('a\nb')).toBe(true);
    expect(textLength('😀å')).toBe(2);
  });

  it('cleanText makes an issuer’s claim storable instead of refusing it', () => {
    expect(cleanText('Kari\r\nBcc: x', 100)).toBe('Kari Bcc: x');
    expect(cleanText('x'.repeat(500), 100)).toHaveLength(100);
    expect(cleanText('Ka\u0301re\u202E', 100)).toBe('K\u00e1re');
  });
});
