import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { cleanText, PERSON_NAME_MAX_LENGTH } from '@minside/domain';
import type { ClaimProfile } from '../config/claim-profiles.ts';

/** YYYY-MM-DD of a day the calendar has (zod checks month lengths and leap years). */
const calendarDate = z.iso.date();

/**
 * Who a person is, by their issuer's word (issue 24): the claims of the ID token and of the
 * `userinfo` endpoint, read through the issuer's claim mapping. Standard OpenID Connect names for
 * a group's own account; Vipps Login's for Vipps (its users are identified with BankID, so what
 * it says of name, birthdate and phone number is verified). See ADR 027 for the table.
 */

/** The scopes asked for when OIDC_SCOPES does not say. Vipps Login names its scopes after the claims. */
export const defaultScopes: Record<ClaimProfile, string> = {
  oidc: 'openid offline_access email profile phone',
  vipps: 'openid name email phoneNumber address birthDate api_version_2',
};

interface IssuerAddress {
  street: string;
  postalCode: string;
  town: string;
}

/** What an issuer said of a person; null where it said nothing (no scope, no consent, no value). */
export interface IssuerClaims {
  email: string;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  phoneNumber: string | null;
  phoneVerified: boolean;
  /** ISO date. */
  birthdate: string | null;
  /**
   * Whether the issuer vouches for the birthdate: Vipps Login's comes from BankID. A group's own
   * account may let people type theirs, so a standard issuer's is taken as the person's word.
   */
  birthdateVerified: boolean;
  address: IssuerAddress | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const name = (value: unknown) => cleanText(text(value), PERSON_NAME_MAX_LENGTH) || null;

/** E.164, or null for what is not a valid phone number. Vipps writes Norwegian numbers as "4712345678". */
function phone(value: unknown, profile: ClaimProfile): string | null {
  const raw = text(value);
  if (!raw) return null;
  const withPlus = profile === 'vipps' && /^\d{8,15}$/.test(raw) ? `+${raw}` : raw;
  const parsed = parsePhoneNumberFromString(withPlus, 'NO');
  return parsed?.isValid() ? parsed.number : null;
}

/** A full date that exists and is not in the future of `today`; partial birthdates ("0000-05-17") are no birthdate. */
function birthdate(value: unknown, today: string): string | null {
  const raw = text(value);
  if (!calendarDate.safeParse(raw).success || raw.startsWith('0000') || raw > today) return null;
  return raw;
}

function address(value: unknown, profile: ClaimProfile): IssuerAddress | null {
  if (!value || typeof value !== 'object') return null;
  const claim = value as Record<string, unknown>;
  // OIDC's address claim names the town `locality`; Vipps Login calls it `region`.
  const street = cleanText(text(claim['street_address']).split('\n')[0] ?? '', 200);
  const postalCode = text(claim['postal_code']);
  const town = cleanText(text(profile === 'vipps' ? (claim['region'] ?? claim['locality']) : claim['locality']), 100);
  const country = text(claim['country']);
  if (!street || !/^\d{4}$/.test(postalCode) || !town || (country && country.toUpperCase() !== 'NO')) return null;
  return { street, postalCode, town };
}

/**
 * The claims of one login through the issuer's mapping. `claims` is the ID token's claims with
 * userinfo's laid over them (userinfo is the fuller answer, and the only one for Vipps Login).
 */
export function mapIssuerClaims(profile: ClaimProfile, claims: Record<string, unknown>, today: string): IssuerClaims {
  let givenName = name(claims['given_name']);
  let familyName = name(claims['family_name']);
  if (!givenName && !familyName && text(claims['name'])) {
    // Only `name`: the last word is the family name, as Norwegian names are written.
    const words = text(claims['name']).split(/\s+/);
    familyName = name(words.length > 1 ? words.at(-1) : '');
    givenName = name(words.slice(0, words.length > 1 ? -1 : undefined).join(' '));
  }
  const phoneNumber = phone(claims['phone_number'], profile);
  const born = birthdate(claims['birthdate'], today);
  return {
    email: text(claims['email']).toLowerCase(),
    emailVerified: claims['email_verified'] === true,
    givenName,
    familyName,
    phoneNumber,
    // Vipps users sign in with their phone number and BankID: the number is proven.
    phoneVerified: phoneNumber !== null && (profile === 'vipps' || claims['phone_number_verified'] === true),
    birthdate: born,
    birthdateVerified: born !== null && profile === 'vipps',
    address: address(claims['address'], profile),
  };
}
