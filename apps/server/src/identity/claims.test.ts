import { describe, expect, it } from 'vitest';
import { mapIssuerClaims } from './claims.ts';

const TODAY = '2026-11-25';

describe('mapIssuerClaims', () => {
  it('reads standard OpenID Connect claims, verified only where the issuer says so', () => {
    expect(
      mapIssuerClaims(
        'oidc',
        {
          sub: 'abc',
          email: 'Kari@Example.NO',
          email_verified: true,
          given_name: '  Kari ',
          family_name: 'Nordmann',
          phone_number: '+47 912 34 567',
          birthdate: '1990-05-17',
          address: { street_address: 'Storgata 1\nH0101', postal_code: '7014', locality: 'Trondheim', country: 'NO' },
        },
        TODAY,
      ),
    ).toEqual({
      email: 'kari@example.no',
      emailVerified: true,
      givenName: 'Kari',
      familyName: 'Nordmann',
      phoneNumber: '+4791234567',
      phoneVerified: false,
      birthdate: '1990-05-17',
      // A group account may let people type their birthdate: the person's word, not the issuer's.
      birthdateVerified: false,
      address: { street: 'Storgata 1', postalCode: '7014', town: 'Trondheim' },
    });
  });

  it('reads Vipps Login: a phone number without "+", the town as region, the name and number proven by BankID', () => {
    const claims = mapIssuerClaims(
      'vipps',
      {
        sub: 'c06c4afe',
        name: 'Áile Čuđe',
        email: 'aile@example.no',
        email_verified: false,
        phone_number: '4791234567',
        birthdate: '2009-11-26',
        address: { street_address: 'Kárášjohkageaidnu 3', postal_code: '9730', region: 'Kárášjohka', country: 'NO', address_type: 'home' },
      },
      TODAY,
    );
    expect(claims).toMatchObject({ givenName: 'Áile', familyName: 'Čuđe', phoneNumber: '+4791234567', phoneVerified: true, emailVerified: false, birthdate: '2009-11-26', birthdateVerified: true });
    expect(claims.address).toEqual({ street: 'Kárášjohkageaidnu 3', postalCode: '9730', town: 'Kárášjohka' });
  });

  it('takes nothing it cannot trust as a value: no claim, consent withheld, a partial or future birthdate, a foreign address, a broken number', () => {
    expect(mapIssuerClaims('vipps', { sub: 'x' }, TODAY)).toEqual({
      email: '',
      emailVerified: false,
      givenName: null,
      familyName: null,
      phoneNumber: null,
      phoneVerified: false,
      birthdate: null,
      birthdateVerified: false,
      address: null,
    });
    for (const birthdate of ['0000-05-17', '1990-02-30', '2026-11-26', '17.05.1990', 19900517]) expect(mapIssuerClaims('oidc', { birthdate }, TODAY).birthdate, String(birthdate)).toBeNull();
    expect(mapIssuerClaims('oidc', { address: { street_address: 'Drottninggatan 1', postal_code: '11151', locality: 'Stockholm', country: 'SE' } }, TODAY).address).toBeNull();
    expect(mapIssuerClaims('oidc', { phone_number: '12', phone_number_verified: true }, TODAY)).toMatchObject({ phoneNumber: null, phoneVerified: false });
    // "email_verified": "true" (a string) is not the issuer saying yes.
    expect(mapIssuerClaims('oidc', { email: 'a@b.no', email_verified: 'true' }, TODAY).emailVerified).toBe(false);
  });
});
