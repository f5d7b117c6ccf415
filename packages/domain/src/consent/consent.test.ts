import { describe, expect, it } from 'vitest';
import { consentCookieName, consentStorageKey, consentUpdateBodySchema, isConsentGranted } from './consent.ts';

describe('SPEC §5 consent', () => {
  it('keys: CMP:{purpose} in local storage, _cmp_{purpose} as cookie', () => {
    expect(consentStorageKey('analytics')).toBe('CMP:analytics');
    expect(consentCookieName('analytics')).toBe('_cmp_analytics');
    expect(consentStorageKey('marketing')).toBe('CMP:marketing');
    expect(consentCookieName('personalisation')).toBe('_cmp_personalisation');
  });

  it.each([
    ['1', null, true],
    [null, '1', true],
    ['0', '1', true],
    ['1', '0', true],
    ['0', '0', false],
    [null, null, false],
    ['true', 'yes', false],
    ['', undefined, false],
  ] as const)('local storage %s, cookie %s → granted %s', (storage, cookie, granted) => {
    expect(isConsentGranted(storage, cookie)).toBe(granted);
  });

  it('a stored choice names every optional purpose and where it was made', () => {
    expect(consentUpdateBodySchema.safeParse({ choices: { analytics: true, marketing: false, personalisation: false }, source: 'dialog' }).success).toBe(true);
    expect(consentUpdateBodySchema.safeParse({ choices: { analytics: true }, source: 'dialog' }).success).toBe(false);
    expect(consentUpdateBodySchema.safeParse({ choices: { analytics: true, marketing: false, personalisation: false }, source: 'elsewhere' }).success).toBe(false);
  });
});
