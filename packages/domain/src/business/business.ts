import { z } from 'zod';
import { isValidOrganizationNumber } from '@minside/titles/organization-number';
import { accountSchema, subscriptionSchema, userSchema } from '../identity/identity.ts';
import { emailDomainOf, isValidEmail } from '../core/email.ts';
import { emailAddress, freeText, optionalFreeText } from '../core/fields.ts';
import { validationMessages } from '../core/validation.ts';

/**
 * Business subscriptions (SPEC §2 /bedrift, /administrer-bedrift; §3 Business invitation;
 * §5 "Business e-mails must belong to the company domain. Duplicates and invalid e-mails are
 * flagged and not sent. The invitation limit is enforced."; §6 roles employee and admin; §8
 * the business errors). See docs/decisions/011-business-and-student.md.
 */

/** SPEC §3 Business invitation status (the §4 invitation states emailSent and active). */
const businessMemberStatuses = ['emailSent', 'active'] as const;
export type BusinessMemberStatus = (typeof businessMemberStatuses)[number];

export const businessMemberStatusLabels: Record<BusinessMemberStatus, string> = {
  emailSent: 'Sendt',
  active: 'Aktiv',
};

/**
 * What happened to each pasted address: the SPEC §4 invite results that apply to a
 * business (emailSent, wrongEmailDomain, userExist, maxUsersReached), plus the two §5 flags
 * (duplicate, invalidEmail).
 */
const businessInviteResults = ['emailSent', 'wrongEmailDomain', 'duplicate', 'invalidEmail', 'userExist', 'maxUsersReached'] as const;
export type BusinessInviteResult = (typeof businessInviteResults)[number];

export const businessInviteMessages: Record<BusinessInviteResult, string> = {
  emailSent: 'Invitasjonen er sendt.',
  wrongEmailDomain: 'Adressen hører ikke til bedriftens domene.',
  duplicate: 'Adressen står flere ganger i listen. Vi sender bare én invitasjon.',
  invalidEmail: validationMessages.invalidEmail,
  userExist: 'Adressen er allerede invitert eller har tilgang.',
  maxUsersReached: 'Maksimalt antall invitasjoner er nådd.',
};

/** SPEC §4 removal results. */
const businessRemovalResults = ['deleted', 'failed', 'notExist'] as const;
export type BusinessRemovalResult = (typeof businessRemovalResults)[number];

export const businessRemovalMessages: Record<BusinessRemovalResult, string> = {
  deleted: 'Fjernet.',
  failed: 'Kunne ikke fjernes. Prøv igjen, eller kontakt kundeservice.',
  notExist: 'Finnes ikke i listen lenger.',
};

/**
 * An invitation is sent again at most once in this many minutes (issue 25.15): the button must not
 * become a way to flood a colleague's inbox.
 */
export const BUSINESS_INVITATION_RESEND_MINUTES = 5;

/** SPEC §8 business errors, and the codes they answer with. */
export const businessErrorCodes = {
  error: 'BUSINESS_ERROR',
  invalidEmail: 'BUSINESS_EMAIL_INVALID',
  alreadySubscriber: 'ALREADY_SUBSCRIBER',
  maxUsersReached: 'maxUsersReached',
  userExist: 'userExist',
  notAdmin: 'NOT_BUSINESS_ADMIN',
  emptyList: 'EMPTY_LIST',
  listTooLong: 'LIST_TOO_LONG',
  codeWrong: 'CODE_WRONG',
  invalidCode: 'INVALID_CODE',
  /** Resend or withdraw: no pending invitation with this id on the admin's company (another company's too). */
  invitationNotFound: 'INVITATION_NOT_FOUND',
  /** Resend or withdraw an invitation already taken up: the person is removed instead. */
  invitationNotPending: 'INVITATION_NOT_PENDING',
  invitationResendTooSoon: 'INVITATION_RESEND_TOO_SOON',
  /** The employee's side: the admin withdrew the invitation to this address. */
  invitationWithdrawn: 'INVITATION_WITHDRAWN',
} as const;

/** The most addresses one paste may hold. */
export const BUSINESS_INVITE_BATCH_LIMIT = 500;

export const businessMessages = {
  error: 'Noe gikk galt med bedriftsabonnementet. Prøv igjen, eller kontakt kundeservice.',
  invalidEmail: 'Vi finner ikke noe bedriftsabonnement for denne e-postadressen. Du må bruke jobb-e-postadressen din i det domenet bedriften har avtale for.',
  alreadySubscriber: 'Du har allerede et abonnement på denne avisen. Du må si opp det før du kan bruke bedriftens abonnement.',
  maxUsersReached: 'Maksimalt antall invitasjoner er nådd. Kontakt administratoren i bedriften din.',
  userExist: 'Denne jobb-e-postadressen brukes allerede av en annen bruker.',
  notAdmin: 'Bare administratorer av et bedriftsabonnement kan administrere ansatte.',
  emptyList: 'Lim inn minst én e-postadresse.',
  listTooLong: `Du kan invitere opptil ${BUSINESS_INVITE_BATCH_LIMIT} adresser om gangen.`,
  /** SPEC §8 "some e-mails not sent". */
  someNotSent: 'Noen e-postadresser ble ikke sendt:',
  /** SPEC §8 "partial removal failure". */
  partialRemovalFailure: 'Noen av personene kunne ikke fjernes:',
  codeWrong: 'Koden er feil. Sjekk koden i e-posten og prøv igjen.',
  invalidCode: 'Koden er ikke lenger gyldig. Be om en ny kode.',
  invitationNotFound: 'Finner ikke invitasjonen. Den kan allerede være trukket tilbake.',
  invitationNotPending: 'Personen har allerede tatt imot invitasjonen. Velg personen i listen og bruk «Fjern valgte» for å fjerne tilgangen.',
  invitationResendTooSoon: `Invitasjonen ble sendt for mindre enn ${BUSINESS_INVITATION_RESEND_MINUTES} minutter siden. Vent litt før du sender den på nytt.`,
  invitationWithdrawn: 'Invitasjonen til denne adressen er trukket tilbake. Kontakt administratoren i bedriften din hvis du skal ha tilgang.',
  resent: (email: string) => `Invitasjonen er sendt på nytt til ${email}.`,
  withdrawn: (email: string) => `Invitasjonen til ${email} er trukket tilbake. Lenken i e-posten virker ikke lenger.`,
} as const;

/** SPEC §5 separators of a pasted list: comma, semicolon, spaces and line breaks. */
export function splitEmailList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim().replace(/^<(.*)>$/, '$1'))
    .filter((part) => part !== '');
}

export interface InvitationCheck {
  companyDomain: string;
  /** Addresses already invited or active (and the admin's own), lower-case. */
  existing: ReadonlySet<string>;
  /** Seats left. */
  remaining: number;
}

export interface ClassifiedAddress {
  /** As pasted (trimmed). */
  input: string;
  /** Lower-cased; what is stored and sent to. */
  email: string;
  result: BusinessInviteResult;
}

/**
 * SPEC §5 for one pasted list, in order: invalid addresses, repeats, other domains and
 * addresses already on the list are flagged; the rest are sent while seats last, and
 * flagged maxUsersReached after that.
 */
export function classifyInvitations(entries: readonly string[], check: InvitationCheck): ClassifiedAddress[] {
  const seen = new Set<string>();
  const domain = check.companyDomain.toLowerCase();
  let remaining = check.remaining;
  return entries.map((input) => {
    const email = input.toLowerCase();
    const result = ((): BusinessInviteResult => {
      if (!isValidEmail(email)) return 'invalidEmail';
      if (seen.has(email)) return 'duplicate';
      seen.add(email);
      if (emailDomainOf(email) !== domain) return 'wrongEmailDomain';
      if (check.existing.has(email)) return 'userExist';
      if (remaining <= 0) return 'maxUsersReached';
      remaining -= 1;
      return 'emailSent';
    })();
    return { input, email, result };
  });
}

/** The members as CSV for a spreadsheet: semicolon-separated (Norwegian Excel), with a BOM, cells that could be formulas neutralised. */
export function businessMembersCsv(members: readonly Pick<BusinessMember, 'email' | 'addedAt' | 'status'>[]): string {
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const lines = [['E-post', 'Lagt til', 'Status'].join(';'), ...members.map((member) => [member.email, member.addedAt.slice(0, 10), businessMemberStatusLabels[member.status]].map(cell).join(';'))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Case-insensitive search on the e-mail, as the admin's search field does. */
export function matchesMemberSearch(member: Pick<BusinessMember, 'email'>, query: string): boolean {
  const needle = query.trim().toLowerCase();
  return needle === '' || member.email.toLowerCase().includes(needle);
}

// --- Contracts -------------------------------------------------------------------------

const businessMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** SPEC §3 "date added" (ISO timestamp). */
  addedAt: z.string(),
  status: z.enum(businessMemberStatuses),
});
export type BusinessMember = z.infer<typeof businessMemberSchema>;

/**
 * EHF (issue 23): a business subscription's invoices as PEPPOL BIS Billing 3.0 documents to the
 * company, addressed to it by organisation number. PUT /api/business/einvoice sets it, DELETE turns it off.
 */
export const einvoiceRecipientBodySchema = z.object({
  organizationNumber: z
    .string()
    .regex(/^\s*\d{3}\s?\d{3}\s?\d{3}\s*$/, 'Organisasjonsnummeret har 9 sifre, for eksempel 962 806 112.')
    .transform((value) => value.replace(/\s/g, ''))
    .refine((value) => isValidOrganizationNumber(value), 'Organisasjonsnummeret er ikke gyldig. Sjekk at du har skrevet det riktig.'),
  companyName: freeText({ max: 120, required: 'Skriv inn bedriftens navn.' }),
  street: freeText({ max: 120, required: 'Skriv inn fakturaadressen.' }),
  postalCode: z
    .string()
    .trim()
    .regex(/^\d{4}$/, 'Postnummeret har 4 sifre.'),
  town: freeText({ max: 60, required: 'Skriv inn poststedet.' }),
  reference: optionalFreeText({ max: 60 }),
});
export type EinvoiceRecipientBody = z.input<typeof einvoiceRecipientBodySchema>;
const einvoiceRecipientSchema = z.object({
  organizationNumber: z.string(),
  companyName: z.string(),
  street: z.string(),
  postalCode: z.string(),
  town: z.string(),
  reference: z.string().nullable(),
});
export type EinvoiceRecipient = z.infer<typeof einvoiceRecipientSchema>;
export const einvoiceRecipientResponseSchema = z.object({ einvoice: einvoiceRecipientSchema.nullable() });

/** GET /api/business/members: the admin's list (SPEC §3 Business invitation). */
export const businessOverviewSchema = z.object({
  companyDomain: z.string(),
  maxMembers: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
  members: z.array(businessMemberSchema),
});
export type BusinessOverview = z.infer<typeof businessOverviewSchema>;

export const businessMembersQuerySchema = z.object({
  titleCode: z
    .string()
    .min(1)
    .max(16)
    .regex(/^[A-Za-z0-9]+$/)
    .optional(),
  q: freeText({ max: 200 }).optional(),
});

/** POST /api/business/invitations: the pasted text, split by the server with splitEmailList. */
export const businessInviteBodySchema = z.object({ emails: z.string().max(50_000) });

const businessInviteItemSchema = z.object({
  input: z.string(),
  email: z.string(),
  result: z.enum(businessInviteResults),
  message: z.string(),
});
export type BusinessInviteItem = z.infer<typeof businessInviteItemSchema>;

export const businessInviteResponseSchema = z.object({
  results: z.array(businessInviteItemSchema),
  sentCount: z.number().int(),
  notSentCount: z.number().int(),
  overview: businessOverviewSchema,
});
export type BusinessInviteResponse = z.infer<typeof businessInviteResponseSchema>;

/** POST /api/business/members/remove: remove many at once (SPEC §4 removal results per id). */
export const businessRemoveBodySchema = z.object({ ids: z.array(z.string().min(1).max(100)).min(1).max(1000) });

const businessRemoveItemSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  result: z.enum(businessRemovalResults),
  message: z.string(),
});
export type BusinessRemoveItem = z.infer<typeof businessRemoveItemSchema>;

export const businessRemoveResponseSchema = z.object({
  results: z.array(businessRemoveItemSchema),
  overview: businessOverviewSchema,
});
export type BusinessRemoveResponse = z.infer<typeof businessRemoveResponseSchema>;

/** POST /api/business/invitations/{id}/resend and DELETE /api/business/invitations/{id} (issue 25.15). */
export const businessInvitationParamsSchema = z.object({ id: z.string().min(1).max(100) });

/** What the admin is told after a resend or a withdrawal, and the list as it now is. */
export const businessInvitationActionResponseSchema = z.object({
  message: z.string(),
  overview: businessOverviewSchema,
});
export type BusinessInvitationActionResponse = z.infer<typeof businessInvitationActionResponseSchema>;

/** POST /api/business/verification: an employee asks for a code at their work address. */
export const businessVerifyBodySchema = z.object({ email: z.string().max(1000) });

export const businessVerifyResponseSchema = z.object({
  email: z.string(),
  companyDomain: z.string(),
  expiresAt: z.string(),
});
export type BusinessVerifyResponse = z.infer<typeof businessVerifyResponseSchema>;

/** POST /api/business/verification/confirm. */
export const businessConfirmBodySchema = z.object({ email: z.string().max(1000), code: z.string().max(100) });

export const businessConfirmResponseSchema = z.object({
  user: userSchema,
  account: accountSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
});
export type BusinessConfirmResponse = z.infer<typeof businessConfirmResponseSchema>;

export const businessEmailFormSchema = z.object({
  email: emailAddress({ required: 'Jobb-e-post er påkrevd', invalid: validationMessages.invalidEmail }),
});
