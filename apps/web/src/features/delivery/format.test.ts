import { describe, expect, it } from 'vitest';
import { cutoffSentence } from './format.ts';

// Issue 25.13: the cutoff is written as Språkrådet writes a time, "kl. 00.15", on every delivery page.
describe('cutoffSentence', () => {
  it('writes the cutoff with a full stop between hours and minutes', () => {
    expect(cutoffSentence('12:00')).toBe('Endringer må være registrert før kl. 12.00 dagen før.');
    expect(cutoffSentence('00:15')).toBe('Endringer må være registrert før kl. 00.15 dagen før.');
  });
});
