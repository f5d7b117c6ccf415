import { describe, expect, it } from 'vitest';
import { profileFields, type ProfileFieldSource, type ProfileResponse } from '@minside/domain';
import { sourceHint } from './source-hint.ts';

const none = Object.fromEntries(profileFields.map((field) => [field, null])) as ProfileResponse['sources'];
const at = '2026-11-25T23:30:00.000Z'; // 26 November in Oslo
const withSource = (field: keyof ProfileResponse['sources'], source: Omit<ProfileFieldSource, 'recordedAt'>) => ({ sources: { ...none, [field]: { ...source, recordedAt: at } } });

describe('where a profile field came from', () => {
  it('keeps the plain hint when nothing is known', () => {
    expect(sourceHint({ sources: none }, 'phoneNumber', 'Norsk nummer med 8 siffer.')).toBe('Norsk nummer med 8 siffer.');
    expect(sourceHint({ sources: none }, 'givenName')).toBeUndefined();
  });

  it('names the issuer and the day, in Oslo', () => {
    expect(sourceHint(withSource('givenName', { source: 'ISSUER', issuerLabel: 'Vipps', verified: false }), 'givenName')).toBe('Fra Vipps 26. november 2026.');
    expect(sourceHint(withSource('phoneNumber', { source: 'USER', issuerLabel: null, verified: false }), 'phoneNumber', 'Norsk nummer med 8 siffer.')).toBe(
      'Oppgitt av deg 26. november 2026. Norsk nummer med 8 siffer.',
    );
  });

  it('says why a verified or declared field is locked, and where to change it', () => {
    expect(sourceHint(withSource('birthdate', { source: 'ISSUER', issuerLabel: 'Vipps', verified: true }), 'birthdate')).toBe(
      'Bekreftet fra Vipps 26. november 2026. Fødselsdatoen er bekreftet av Vipps og kan ikke endres her. Endre den hos Vipps, så oppdateres den neste gang du logger inn.',
    );
    // "det" for a neuter noun.
    expect(sourceHint(withSource('phoneNumber', { source: 'ISSUER', issuerLabel: 'Vipps', verified: true }), 'phoneNumber', 'Norsk nummer med 8 siffer.')).toBe(
      'Bekreftet fra Vipps 26. november 2026. Telefonnummeret er bekreftet av Vipps og kan ikke endres her. Endre det hos Vipps, så oppdateres det neste gang du logger inn.',
    );
    expect(sourceHint(withSource('birthdate', { source: 'DECLARED', issuerLabel: null, verified: false }), 'birthdate')).toBe(
      'Bekreftet av deg ved kjøp 26. november 2026. Fødselsdatoen bekreftet du da du kjøpte et abonnement med aldersgrense, og den kan ikke endres her. Er den feil, kontakt kundeservice.',
    );
  });
});
