// The profile's messages, error codes and plain checks and formats: no zod, so pages that only
// show a profile (or check an e-mail address's shape) take no schemas along. profile.ts
// re-exports them beside the form schemas and contracts.
import { requiredMessage, validationMessages } from './validation.ts';

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
