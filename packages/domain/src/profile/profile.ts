import { z } from 'zod';
import { osloToday } from '../core/dates.ts';
import { userSchema } from '../identity/identity.ts';
import { emailAddress, personName } from '../core/fields.ts';
import { profileFields, profileFieldSources, profileMessages, type ProfileField } from './profile-rules.ts';
import { systemClock } from '../core/clock.ts';

/**
 * SPEC §3 User profile (first name, last name, phone, birthdate, e-mail) and the SPEC §5
 * messages. The browser checks the shape; the server checks again and validates phone
 * numbers properly (libphonenumber-js) before storing them in E.164.
 */

/** Digits, spaces, dashes and brackets, optionally a leading +: the shape of a phone number. A real check happens on the server. */
const phoneShape = /^\+?[\d\s\-()]{5,20}$/;

const birthdate = z
  .string()
  .trim()
  .refine(
    (value) => value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && value >= '1900-01-01' && value <= osloToday(systemClock())),
    profileMessages.invalidBirthdate,
  );

/** The profile form (everything but the e-mail, which changes through its own confirmed flow). */
export const profileFormSchema = z.object({
  givenName: personName({ required: profileMessages.givenNameRequired }),
  familyName: personName({ required: profileMessages.familyNameRequired }),
  /** Empty means none. */
  phoneNumber: z
    .string()
    .trim()
    .refine((value) => value === '' || phoneShape.test(value), profileMessages.invalidPhone),
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
  newEmail: emailAddress({ required: profileMessages.emailRequired, invalid: profileMessages.invalidEmail }),
  password: z.string().min(1, profileMessages.passwordRequired).max(1000),
});
export type EmailChangeForm = z.infer<typeof emailChangeFormSchema>;
export const emailChangeBodySchema = z.object({ newEmail: z.string().max(1000), password: z.string().max(1000) });

export const confirmEmailBodySchema = z.object({ token: z.string().min(1).max(200) });

const sharingSummarySchema = z.object({
  /** owner: shares their subscription; member: uses someone else's; none: neither. */
  role: z.enum(['owner', 'member', 'none']),
  ownerName: z.string().nullable(),
  maxMembers: z.number().int(),
  members: z.array(z.object({ email: z.string(), status: z.enum(['emailSent', 'active']) })),
});
export type SharingSummary = z.infer<typeof sharingSummarySchema>;

const fieldSourceSchema = z.object({
  source: z.enum(profileFieldSources),
  issuerLabel: z.string().nullable(),
  verified: z.boolean(),
  recordedAt: z.string(),
});

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
  /** Where each field came from (issue 24); null: typed by the user before this was kept. Locked ones are read-only. */
  sources: z.object(Object.fromEntries(profileFields.map((field) => [field, fieldSourceSchema.nullable()])) as Record<ProfileField, z.ZodNullable<typeof fieldSourceSchema>>),
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;

/** PUT /api/profile and the e-mail confirmation: the profile, and the session's user as it now is. */
export const profileUpdateResponseSchema = z.object({ profile: profileResponseSchema, user: userSchema });
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;

/** POST /api/profile/email-change: the link is on its way to the new address. */
export const emailChangeResponseSchema = z.object({ pendingEmail: z.string() });

export * from './profile-rules.ts';
