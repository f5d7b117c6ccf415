import { beforeEach, describe, expect, it } from 'vitest';
import { isPurposeGranted, readStoredChoices, writeStoredChoices } from './storage.ts';

function clearCookies() {
  for (const name of ['_cmp_analytics', '_cmp_marketing', '_cmp_personalisation']) document.cookie = `${name}=; Path=/; Max-Age=0`;
}

describe('SPEC §5 consent keys', () => {
  beforeEach(() => {
    localStorage.clear();
    clearCookies();
  });

  it('analytics is granted when local storage CMP:analytics is 1', () => {
    localStorage.setItem('CMP:analytics', '1');
    expect(isPurposeGranted('analytics')).toBe(true);
  });

  it('analytics is granted when the cookie _cmp_analytics is 1', () => {
    document.cookie = '_cmp_analytics=1; Path=/';
    expect(isPurposeGranted('analytics')).toBe(true);
  });

  it('anything else is not granted', () => {
    expect(isPurposeGranted('analytics')).toBe(false);
    localStorage.setItem('CMP:analytics', 'true');
    document.cookie = '_cmp_analytics=0; Path=/';
    expect(isPurposeGranted('analytics')).toBe(false);
  });

  it('a choice is written to both, 1 when granted and 0 when not, for every purpose', () => {
    writeStoredChoices({ analytics: true, marketing: false, personalisation: true });
    expect(localStorage.getItem('CMP:analytics')).toBe('1');
    expect(localStorage.getItem('CMP:marketing')).toBe('0');
    expect(localStorage.getItem('CMP:personalisation')).toBe('1');
    expect(document.cookie).toContain('_cmp_analytics=1');
    expect(document.cookie).toContain('_cmp_marketing=0');
    expect(readStoredChoices()).toEqual({ analytics: true, marketing: false, personalisation: true });
  });

  it('there is no choice until one is stored; the cookie alone counts as one', () => {
    expect(readStoredChoices()).toBeNull();
    document.cookie = '_cmp_analytics=1; Path=/';
    expect(readStoredChoices()).toEqual({ analytics: true, marketing: false, personalisation: false });
  });
});
