import { z } from 'zod';
import { osloToday } from './dates.ts';
import { userSchema } from './identity.ts';
import { requiredMessage, validationMessages } from './validation.ts';

/**
 * SPEC §3 User profile (first name, last name, phone, birthdate, e-mail) and the SPEC §5
 * messages. The browser checks the shape; the server checks again and validates phone
 * numbers properly (libphonenumber-js) before storing them in E.164.
 */

export const profileMessages = {
  givenNameRequired: requiredMessage('Fornavn'),
  familyNameRequired: requiredMessage('Etternavn'),
  emailRequired: requiredMessage('E-post'),
  passwordRequired: requiredMessage('Passord'),
  invalidEmail: validationMessages.invalidEmail,
  invalidPhone: validationMessages.invalidPhone,
  invalidBirthdate: 'Fødselsdatoen er ugyldig',
  tooLong: 'Teksten er for lang',
} as const;

/** Digits, spaces, dashes and brackets, optionally a leading +: the shape of a phone number. A real check happens on the server. */
const phoneShape = /^\+?[\d\s\-()]{5,20}$/;
/**
 * Deliberately simple: one @, something on both sides, a dot in the domain, no spaces and no
 * control characters (a NUL cannot even be stored in a PostgreSQL text column).
 */
const emailShape = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

export function isPlausibleEmail(value: string): boolean {
  return emailShape.test(value) && value.length <= 254;
}

const birthdate = z
  .string()
  .trim()
  .refine((value) => value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && value >= '1900-01-01' && value <= osloToday()), profileMessages.invalidBirthdate);

/** The profile form (everything but the e-mail, which changes through its own confirmed flow). */
export const profileFormSchema = z.object({
  givenName: z.string().trim().min(1, profileMessages.givenNameRequired).max(100, profileMessages.tooLong),
  familyName: z.string().trim().min(1, profileMessages.familyNameRequired).max(100, profileMessages.tooLong),
  /** Empty means none. */
  phoneNumber: z.string().trim().refine((value) => value === '' || phoneShape.test(value), profileMessages.invalidPhone),
  /** ISO date; empty means none. */
  birthdate,
});
export type ProfileForm = z.infer<typeof profileFormSchema>;

/** PUT /api/profile: the wire shape is loose so the server can answer with the field's own Norwegian message. */
export const updateProfileBodySchema = z.object({
  givenName: z.string().max(1000),
  familyName: z.string().max(1000),
  phoneNumber: z.string().max(100),
  birthdate: z.string().max(100),
});

export const emailChangeFormSchema = z.object({
  newEmail: z.string().trim().min(1, profileMessages.emailRequired).refine((value) => value === '' || isPlausibleEmail(value), profileMessages.invalidEmail),
  password: z.string().min(1, profileMessages.passwordRequired).max(1000),
});
export type EmailChangeForm = z.infer<typeof emailChangeFormSchema>;
export const emailChangeBodySchema = z.object({ newEmail: z.string().max(1000), password: z.string().max(1000) });

export const confirmEmailBodySchema = z.object({ token: z.string().min(1).max(200) });

export const sharingSummarySchema = z.object({
  /** owner: shares their subscription; member: uses someone else's; none: neither. */
  role: z.enum(['owner', 'member', 'none']),
  ownerName: z.string().nullable(),
  maxMembers: z.number().int(),
  members: z.array(z.object({ email: z.string(), status: z.enum(['emailSent', 'active']) })),
});
export type SharingSummary = z.infer<typeof sharingSummarySchema>;

/** GET /api/profile. */
export const profileResponseSchema = z.object({
  givenName: z.string(),
  familyName: z.string(),
  phoneNumber: z.string().nullable(),
  birthdate: z.string().nullable(),
  email: z.string(),
  /** An e-mail change waiting for its confirmation link. */
  pendingEmail: z.string().nullable(),
  /** Whether the e-mail can be changed here (with the embedded identity provider) or only at the provider. */
  emailChangeHere: z.boolean(),
  sharing: sharingSummarySchema,
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

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

/** PUT /api/profile and the e-mail confirmation: the profile, and the session's user as it now is. */
export const profileUpdateResponseSchema = z.object({ profile: profileResponseSchema, user: userSchema });
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;

/** POST /api/profile/email-change: the link is on its way to the new address. */
export const emailChangeResponseSchema = z.object({ pendingEmail: z.string() });
