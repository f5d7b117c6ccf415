import { describe, expect, it } from 'vitest';
import { emailChangeFormSchema, formatPhoneNumber, profileFormSchema } from './profile.ts';
import { isValidEmail } from '../core/email.ts';
import { requiredMessage } from '../core/validation.ts';

const valid = { givenName: 'Kari', familyName: 'Nordmann', phoneNumber: '912 34 567', birthdate: '1968-01-15' };
const messages = (input: unknown) => profileFormSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];

describe('SPEC §5 profile messages', () => {
  it('"{info} er påkrevd"', () => {
    expect(requiredMessage('Fornavn')).toBe('Fornavn er påkrevd');
    expect(messages({ ...valid, givenName: ' ', familyName: '' })).toEqual(['Fornavn er påkrevd', 'Etternavn er påkrevd']);
  });
  it('phone: "Telefonnummeret er ugyldig" for what is no phone number at all; empty is allowed', () => {
    expect(messages({ ...valid, phoneNumber: 'ring meg' })).toEqual(['Telefonnummeret er ugyldig']);
    expect(messages({ ...valid, phoneNumber: '' })).toEqual([]);
    expect(messages({ ...valid, phoneNumber: '+47 912 34 567' })).toEqual([]);
  });
  it('birthdate: a real past date, or empty', () => {
    expect(messages({ ...valid, birthdate: '2999-01-01' })).toEqual(['Fødselsdatoen er ugyldig']);
    expect(messages({ ...valid, birthdate: '15.01.1968' })).toEqual(['Fødselsdatoen er ugyldig']);
    expect(messages({ ...valid, birthdate: '' })).toEqual([]);
  });
  it('e-mail: "Vennligst skriv en gyldig e-postadresse"', () => {
    expect(emailChangeFormSchema.safeParse({ newEmail: 'kari@', password: 'x' }).error?.issues[0]?.message).toBe('Vennligst skriv en gyldig e-postadresse');
    expect(emailChangeFormSchema.safeParse({ newEmail: '', password: '' }).error?.issues.map((issue) => issue.message)).toEqual(['E-post er påkrevd', 'Passord er påkrevd']);
    expect(isValidEmail('kari.nordmann@adressa.no')).toBe(true);
    expect(isValidEmail('kari nordmann@adressa.no')).toBe(false);
  });
  it('shows Norwegian numbers as people write them', () => {
    expect(formatPhoneNumber('+4791234567')).toBe('912 34 567');
    expect(formatPhoneNumber('+46701234567')).toBe('+46701234567');
    expect(formatPhoneNumber(null)).toBe('');
  });
});
