import { returnToSchema } from '@minside/domain';
import { describe, expect, it } from 'vitest';
import { returnTargetOf } from './return-target.ts';

describe('returnTargetOf (SPEC §8 return target)', () => {
  it.each([
    [{ pathname: '/fakturaoversikt', search: '?a=1', hash: '#x' }, '/fakturaoversikt?a=1#x'],
    [{ pathname: '/betal-faktura/INV-42', search: '', hash: '' }, '/betal-faktura/INV-42'],
    [{ pathname: '/', search: '', hash: '#top' }, '/#top'],
    [{ pathname: '/', search: '', hash: '' }, '/'],
  ])('keeps path, query and hash of %o', (location, expected) => {
    expect(returnTargetOf(location)).toBe(expected);
  });

  it('is / without a location', () => {
    expect(returnTargetOf(undefined)).toBe('/');
    expect(returnTargetOf(null)).toBe('/');
  });

  it('is / for anything that is not a path on this site', () => {
    expect(returnTargetOf({ pathname: '//evil.example/x', search: '', hash: '' })).toBe('/');
    expect(returnTargetOf({ pathname: '/\\evil.example', search: '', hash: '' })).toBe('/');
    expect(returnTargetOf({ pathname: '', search: '?a=1', hash: '' })).toBe('/');
    expect(returnTargetOf({ pathname: `/${'a'.repeat(3000)}`, search: '', hash: '' })).toBe('/');
  });

  it('never returns to /callback, whose code is spent', () => {
    expect(returnTargetOf({ pathname: '/callback', search: '?code=abc&state=def', hash: '' })).toBe('/');
  });

  it('works with window.location and a URL', () => {
    expect(returnTargetOf(new URL('https://minside.adressa.no/kontakt?fane=2#familie'))).toBe('/kontakt?fane=2#familie');
  });

  // The browser's plain-code check and the server's schema must agree (one rule, ADR 020).
  it.each([
    '/',
    '/kontakt?fane=2#familie',
    '//evil.example/x',
    '/\\evil.example',
    '/%2F%2Fevil.example',
    '/a//b',
    '\\/evil.example',
    ' /leading-space',
    '?a=1',
    '#x',
    '',
    `/${'a'.repeat(2047)}`,
    `/${'a'.repeat(2048)}`,
  ])('accepts %j exactly when returnToSchema does', (target) => {
    // The whole target as the path: returnTargetOf joins path, query and hash unchanged.
    expect(returnTargetOf({ pathname: target, search: '', hash: '' }) === target).toBe(returnToSchema.safeParse(target).success);
  });
});
