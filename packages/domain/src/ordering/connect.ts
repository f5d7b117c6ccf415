import { z } from 'zod';
import { accountSchema, subscriptionSchema, userSchema } from '../identity/identity.ts';
import { VERIFICATION_CODE_TTL_MINUTES } from '../student/student-rules.ts';
import { validationMessages } from '../core/validation.ts';

const phoneNumberSchema = z
  .string()
  .trim()
  .regex(/^\+?[\d\s\-()]{5,20}$/, validationMessages.invalidPhone);

/** The comparable part of a Norwegian phone number: its last eight digits. */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, '').slice(-8);
}

/**
 * Connecting a subscription bought elsewhere (SPEC §2 /koble-bruker, §7 `search-account`,
 * `verify/`, `account/assign`): find it, prove the mailbox it belongs to with a six-digit
 * code, then take it over (docs/decisions/014-ordering-and-connect.md).
 */

/** SPEC §8-style throttle: three wrong codes, then a pause of this many minutes. */
export const CONNECT_MAX_WRONG_CODES = 3;
export const CONNECT_THROTTLE_MINUTES = 15;
/** Searches per user in the throttle window. */
export const CONNECT_SEARCH_LIMIT = 5;
/** Searches per client address in the throttle window, whoever is signed in (issue 20: no probing with many logins). */
export const CONNECT_SEARCH_ADDRESS_LIMIT = 20;

export const connectErrorCodes = {
  notFound: 'ACCOUNT_NOT_FOUND',
  alreadyConnected: 'ALREADY_CONNECTED',
  alreadyYours: 'ALREADY_YOURS',
  searchThrottled: 'SEARCH_THROTTLED',
  codeThrottled: 'CODE_THROTTLED',
  codeWrong: 'CODE_WRONG',
  invalidCode: 'INVALID_CODE',
  notVerified: 'NOT_VERIFIED',
  titleConflict: 'TITLE_CONFLICT',
  missingParameters: 'MISSING_PARAMETERS',
} as const;

export const connectMessages = {
  notFound: 'Vi fant ikke noe abonnement som passer. Sjekk abonnementsnummeret og postnummeret, eller prøv med telefonnummeret.',
  alreadyConnected: (phone: string, email: string) => `Abonnementet er allerede koblet til en annen bruker. Ta kontakt med kundesenteret på telefon ${phone} eller ${email}, så hjelper vi deg.`,
  alreadyYours: 'Abonnementet er allerede koblet til brukeren din.',
  searchThrottled: `Du har søkt for mange ganger. Vent ${CONNECT_THROTTLE_MINUTES} minutter og prøv igjen.`,
  codeThrottled: `Du har skrevet feil kode for mange ganger. Vent ${CONNECT_THROTTLE_MINUTES} minutter og prøv igjen, eller kontakt kundesenteret.`,
  codeWrong: (left: number) => `Koden er feil. Du har ${left} forsøk igjen.`,
  invalidCode: 'Koden er ikke lenger gyldig. Be om en ny kode.',
  notVerified: 'Bekreft med koden vi sendte deg før du kobler til abonnementet.',
  titleConflict: (titleName: string) => `Du har allerede et abonnement på ${titleName}. Ta kontakt med kundesenteret for å slå dem sammen.`,
  missingParameters: 'Skriv abonnementsnummer og postnummer, eller telefonnummer.',
  /** An empty or non-numeric subscriber number: said in Norwegian at the field, not as the validator's English. */
  invalidAccountNo: 'Abonnementsnummeret er bare siffer. Du finner det på fakturaen.',
  /**
   * The one answer to every search (issue 20): found, connected elsewhere or nothing, the caller
   * learns only whether a code arrives in the subscriber's mailbox, which only its owner sees.
   */
  searchSent: `Hvis opplysningene stemmer med et abonnement som ikke er koblet til en bruker ennå, har vi sendt en kode til e-postadressen som er registrert på abonnementet. Koden virker i ${VERIFICATION_CODE_TTL_MINUTES} minutter.`,
} as const;

/** SPEC §7 POST search-account: subscriber number + postal code, or a phone number. */
export const searchAccountBodySchema = z
  .object({
    ariaAccountNo: z.coerce
      .number({ error: connectMessages.invalidAccountNo })
      .int(connectMessages.invalidAccountNo)
      .positive(connectMessages.invalidAccountNo)
      .max(999_999_999, connectMessages.invalidAccountNo)
      .optional(),
    postalCode: z
      .string()
      .trim()
      .regex(/^\d{4}$/, 'Postnummeret har fire siffer.')
      .optional(),
    phoneNumber: phoneNumberSchema.optional(),
  })
  .refine((body) => (body.ariaAccountNo !== undefined && body.postalCode !== undefined) || body.phoneNumber !== undefined, {
    message: connectMessages.missingParameters,
  });
export type SearchAccountBody = z.infer<typeof searchAccountBodySchema>;

/**
 * The same for every search (issue 20): nothing about a subscriber (no masked address, no plans)
 * before the code from its mailbox proves the caller is its owner; assign names the plans then.
 */
export const searchAccountResponseSchema = z.object({
  /** The search this code belongs to: sent back to verify/ and account/assign. */
  requestId: z.string(),
  message: z.string(),
  expiresAt: z.string(),
});
export type SearchAccountResponse = z.infer<typeof searchAccountResponseSchema>;

/** SPEC §7 POST verify/. */
export const verifyConnectBodySchema = z.object({
  requestId: z.uuid(),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Koden har 6 siffer.'),
});
export const verifyConnectResponseSchema = z.object({ result: z.literal('VERIFIED'), requestId: z.string() });

/** SPEC §7 PUT account/assign. */
export const assignAccountBodySchema = z.object({ requestId: z.uuid() });
export const assignAccountResponseSchema = z.object({
  result: z.literal('ASSIGNED'),
  message: z.string(),
  subscriptions: z.array(z.object({ titleCode: z.string(), titleName: z.string(), planName: z.string() })),
  user: userSchema,
  account: accountSchema,
  /** The subscription at the session's title, if one was connected there. */
  subscription: subscriptionSchema.nullable(),
});
export type AssignAccountResponse = z.infer<typeof assignAccountResponseSchema>;
