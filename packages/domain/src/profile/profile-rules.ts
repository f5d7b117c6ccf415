// The profile's messages, error codes and plain checks and formats: no zod, so pages that only
// show a profile (or check an e-mail address's shape) take no schemas along. profile.ts
// re-exports them beside the form schemas and contracts.
import { requiredMessage, validationMessages } from '../core/validation.ts';

export const profileMessages = {
  givenNameRequired: requiredMessage('Fornavn'),
  familyNameRequired: requiredMessage('Etternavn'),
  emailRequired: requiredMessage('E-post'),
  passwordRequired: requiredMessage('Passord'),
  invalidEmail: validationMessages.invalidEmail,
  invalidPhone: validationMessages.invalidPhone,
  invalidBirthdate: 'Fødselsdatoen er ugyldig',
} as const;

export const profileErrorCodes = {
  wrongPassword: 'WRONG_PASSWORD',
  emailTaken: 'EMAIL_TAKEN',
  emailUnchanged: 'EMAIL_UNCHANGED',
  emailChangeAtProvider: 'EMAIL_CHANGE_AT_PROVIDER',
  emailTokenInvalid: 'EMAIL_TOKEN_INVALID',
  fieldLocked: 'PROFILE_FIELD_LOCKED',
} as const;

export const profileErrorMessages = {
  wrongPassword: 'Passordet er feil.',
  emailTaken: 'E-postadressen er allerede i bruk av en annen bruker.',
  emailUnchanged: 'Dette er e-postadressen du har nå.',
  emailChangeAtProvider: 'E-postadressen endrer du hos innloggingstjenesten.',
  emailTokenInvalid: 'Lenken er ugyldig eller utløpt. Be om en ny.',
} as const;

/** Norwegian numbers as people write them: "+47 912 34 567" → "912 34 567". */
export function formatPhoneNumber(e164: string | null): string {
  if (!e164) return '';
  const match = /^\+47(\d{3})(\d{2})(\d{3})$/.exec(e164);
  return match ? `${match[1]} ${match[2]} ${match[3]}` : e164;
}

// ---------------------------------------------------------------------------------------
// Where a profile field came from (issue 24)
// ---------------------------------------------------------------------------------------

export const profileFields = ['givenName', 'familyName', 'email', 'phoneNumber', 'birthdate'] as const;
export type ProfileField = (typeof profileFields)[number];

/** ISSUER: the login's issuer said so; USER: typed on Min Side; DECLARED: confirmed by the user at a purchase with an age limit; CUSTOMER_SERVICE: corrected by the customer centre. */
export const profileFieldSources = ['ISSUER', 'USER', 'DECLARED', 'CUSTOMER_SERVICE'] as const;
export type ProfileFieldSourceKind = (typeof profileFieldSources)[number];

export interface ProfileFieldSource {
  source: ProfileFieldSourceKind;
  /** The issuer as named on the page ("Vipps"), for ISSUER. */
  issuerLabel: string | null;
  /** The issuer vouched for the value (a BankID-identified birthdate, a proven e-mail address or number). */
  verified: boolean;
  recordedAt: string;
}

/** The field as a sentence names it, and the pronoun that refers back to it ("den" or "det"). */
const fieldWords: Record<ProfileField, { label: string; it: 'den' | 'det' }> = {
  givenName: { label: 'Fornavnet', it: 'det' },
  familyName: { label: 'Etternavnet', it: 'det' },
  email: { label: 'E-postadressen', it: 'den' },
  phoneNumber: { label: 'Telefonnummeret', it: 'det' },
  birthdate: { label: 'Fødselsdatoen', it: 'den' },
};

/** A field the user cannot change on Min Side: verified by the issuer, or declared at a purchase. */
export function isLockedField(source: ProfileFieldSource | null): boolean {
  return source !== null && ((source.source === 'ISSUER' && source.verified) || source.source === 'DECLARED' || source.source === 'CUSTOMER_SERVICE');
}

/** "fra Vipps", "oppgitt av deg": where the value came from, as the profile shows it beside the field. */
export function fieldSourceText(source: ProfileFieldSource | null): string {
  if (source === null || source.source === 'USER') return 'oppgitt av deg';
  if (source.source === 'DECLARED') return 'bekreftet av deg ved kjøp';
  if (source.source === 'CUSTOMER_SERVICE') return 'rettet av kundeservice';
  return `${source.verified ? 'bekreftet ' : ''}fra ${source.issuerLabel ?? 'innloggingstjenesten'}`;
}

/** Why a locked field cannot be changed here, and where it can: the form's hint and the API's refusal. */
export function lockedFieldMessage(field: ProfileField, source: ProfileFieldSource): string {
  const { label, it } = fieldWords[field];
  if (source.source === 'ISSUER') {
    const issuer = source.issuerLabel ?? 'innloggingstjenesten';
    return `${label} er bekreftet av ${issuer} og kan ikke endres her. Endre ${it} hos ${issuer}, så oppdateres ${it} neste gang du logger inn.`;
  }
  if (source.source === 'DECLARED') return `${label} bekreftet du da du kjøpte et abonnement med aldersgrense, og ${it} kan ikke endres her. Er ${it} feil, kontakt kundeservice.`;
  return `${label} er rettet av kundeservice og kan ikke endres her. Er ${it} feil, kontakt kundeservice.`;
}
