import { z } from 'zod';
import { accountSchema, subscriptionSchema, userSchema } from '../identity/identity.ts';
import { emailDomainOf } from '../core/email.ts';
import { emailAddress } from '../core/fields.ts';
import { tasksFor, type SelfServiceSubscription } from '../subscription/self-service.ts';
import { isUngSubscription } from '../subscription/subscription.ts';
import { requiredMessage, validationMessages } from '../core/validation.ts';

/**
 * Family sharing (SPEC §2 /familiedeling, /verifiser-familiemedlem, /deling-akseptert;
 * §3 Family share; §4 invitation states, invite and removal results, family outcomes; §6 a
 * subscriber invites household members for free; §9 a configurable maximum). The result
 * and outcome names of §4 are the API's codes.
 */

/** SPEC §4 invitation states. */
const familyInvitationStates = ['emailSent', 'active'] as const;

/**
 * SPEC §4 family invitation outcomes (expired, already used, withdrawn, failed) and §8's
 * "an existing active subscription on this e-mail": why an invitation link cannot be accepted.
 */
export type FamilyOutcome = 'expired' | 'alreadyUsed' | 'withdrawn' | 'activeSubscription' | 'failed';

/** Why a subscriber cannot share: no such task on the subscription, Ung, someone else's share, or a share whose owner's access is over. */
const familyNotSharingReasons = ['notEligible', 'ung', 'member', 'shareEnded'] as const;

/** An invitation link works this long. */
export const FAMILY_INVITATION_TTL_DAYS = 7;

/**
 * At most this many invitation e-mails (invites and resends together) per owner per window:
 * the invitation form must not become a way to mail strangers in bulk. Past it: 429 with
 * the code `tooManyInvitations`, and nothing is sent or stored.
 */
export const FAMILY_INVITATION_MAIL_LIMIT = 10;
export const FAMILY_INVITATION_MAIL_WINDOW_MS = 60 * 60 * 1000;
export const familyTooManyInvitationsCode = 'tooManyInvitations';

export const familyMessages = {
  emailSent: (email: string) => `Invitasjonen er sendt til ${email}.`,
  resent: (email: string) => `Vi har sendt invitasjonen på nytt til ${email}.`,
  errorSaved: 'Invitasjonen kunne ikke lagres. Prøv igjen om litt.',
  wrongEmailDomain: 'E-postadressen har et domene som ikke kan ta imot e-post. Sjekk at den er skrevet riktig.',
  userExist: 'Denne e-postadressen har allerede tilgang, enten gjennom familiedelingen din eller med et eget abonnement.',
  tooManyInvitations: `Du har sendt mange invitasjoner på kort tid (høyst ${FAMILY_INVITATION_MAIL_LIMIT} i timen). Vent litt og prøv igjen.`,
  maxUsersReached: (max: number) => `Du har nådd maksimalt antall familiemedlemmer (${max}). Fjern en invitasjon eller et medlem før du inviterer flere.`,
  notSharing: 'Abonnementet ditt kan ikke deles med familien.',
  ung: 'Ung-abonnementet kan ikke deles med andre.',

  deleted: (email: string) => `${email} har ikke lenger tilgang gjennom abonnementet ditt.`,
  withdrawn: (email: string) => `Invitasjonen til ${email} er trukket tilbake.`,
  failed: 'Vi kunne ikke fjerne dette akkurat nå. Prøv igjen om litt.',
  notExist: 'Finner ikke invitasjonen. Den kan allerede være fjernet.',
  left: 'Du deler ikke lenger abonnementet. Tilgangen din er avsluttet.',
  notMember: 'Du deler ikke noe abonnement.',
  shareEnded: 'Delingen er avsluttet. Abonnementet du delte gir ikke lenger tilgang.',

  outcome: {
    expired: 'Invitasjonen er utløpt. Be den som inviterte deg om å sende en ny.',
    alreadyUsed: 'Invitasjonen er allerede brukt. Logg inn med brukeren som tok imot den for å lese avisen.',
    withdrawn: 'Invitasjonen er trukket tilbake av den som sendte den.',
    activeSubscription: 'Det finnes allerede et aktivt abonnement på denne e-postadressen, så du kan ikke bli med i familiedelingen. Si opp abonnementet ditt først, eller kontakt kundeservice.',
    failed: 'Noe uventet gikk galt med invitasjonen. Prøv lenken på nytt, eller kontakt kundeservice.',
  } satisfies Record<FamilyOutcome, string>,
} as const;

/** Domains no household member's mail can go to (RFC 2606 / 6761 reserved names). */
const reservedDomain = /(^|\.)(example\.(com|net|org)|example|invalid|localhost|local|test\.invalid)$/i;
const domainShape = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * SPEC §4 wrongEmailDomain: the address is shaped like one, but its domain cannot receive
 * mail (no dot, a bad label, a numeric or one-letter top level, a reserved name). No DNS
 * lookup: the invitation e-mail itself is the final check.
 */
export function hasDeliverableDomain(email: string): boolean {
  const domain = emailDomainOf(email);
  return domainShape.test(domain) && !reservedDomain.test(domain);
}

/** The subscriptions that may invite: family sharing is one of their tasks (§6), and never Ung (§5). */
export function familySharingRefusal(subscription: SelfServiceSubscription, today: string): 'member' | 'ung' | 'notEligible' | null {
  if (subscription.sharedFrom) return 'member';
  if (isUngSubscription(subscription)) return 'ung';
  return tasksFor(subscription, today).includes('familySharing') ? null : 'notEligible';
}

/** How many more may be invited: every invitation holds a place until it is withdrawn. */
export function remainingPlaces(maxMembers: number, invitations: number): number {
  return Math.max(0, maxMembers - invitations);
}

export const familyInviteFormSchema = z.object({
  email: emailAddress({ required: requiredMessage('E-post'), invalid: validationMessages.invalidEmail }),
});

/** POST /api/family/invitations: loose on the wire so the server answers with the §4 result. */
export const familyInviteBodySchema = z.object({ email: z.string().max(1000) });

export const familyInvitationParamsSchema = z.object({ id: z.string().min(1).max(100) });

const familyInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(familyInvitationStates),
  invitedAt: z.string(),
  acceptedAt: z.string().nullable(),
  /** The links are bearer (ADR 010): the e-mail of the login that accepted, when it is not the invited address. */
  acceptedBy: z.string().nullable(),
});
export type FamilyInvitation = z.infer<typeof familyInvitationSchema>;

/** GET /api/family: the signed-in subscriber's family sharing on this title. */
export const familyOverviewSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('owner'),
    titleName: z.string(),
    planName: z.string(),
    maxMembers: z.number().int(),
    remaining: z.number().int(),
    invitations: z.array(familyInvitationSchema),
  }),
  z.object({
    role: z.literal('member'),
    titleName: z.string(),
    ownerName: z.string(),
    planName: z.string(),
    since: z.string().nullable(),
  }),
  z.object({
    role: z.literal('none'),
    titleName: z.string(),
    reason: z.enum(familyNotSharingReasons),
    message: z.string(),
  }),
]);
export type FamilyOverview = z.infer<typeof familyOverviewSchema>;

export const familyInviteResponseSchema = z.object({
  result: z.enum(['emailSent', 'resent']),
  message: z.string(),
  overview: familyOverviewSchema,
});
export type FamilyInviteResponse = z.infer<typeof familyInviteResponseSchema>;

export const familyRemovalResponseSchema = z.object({
  result: z.literal('deleted'),
  message: z.string(),
  overview: familyOverviewSchema,
});
export type FamilyRemovalResponse = z.infer<typeof familyRemovalResponseSchema>;

/** POST /api/family/leave: the member's access ended; the session's user, account and (now no) subscription. */
export const familyLeaveResponseSchema = z.object({
  message: z.string(),
  overview: familyOverviewSchema,
  user: userSchema,
  account: accountSchema.nullable(),
  subscription: subscriptionSchema.nullable(),
});
export type FamilyLeaveResponse = z.infer<typeof familyLeaveResponseSchema>;

export const familyTokenQuerySchema = z.object({ token: z.string().min(1).max(200) });
/**
 * POST /api/family/invitation/accept: the invitation's token, as the preview's query carries it.
 * @alias
 */
export const familyAcceptBodySchema = familyTokenQuerySchema;

/** GET /api/family/invitation?token=: what the link offers, before it is accepted. */
export const familyInvitationPreviewSchema = z.object({
  ownerName: z.string(),
  titleName: z.string(),
  planName: z.string(),
  email: z.string(),
  expiresAt: z.string(),
});
export type FamilyInvitationPreview = z.infer<typeof familyInvitationPreviewSchema>;

/** POST /api/family/invitation/accept: the share is the user's subscription now. */
export const familyAcceptResponseSchema = z.object({
  ownerName: z.string(),
  titleName: z.string(),
  planName: z.string(),
  /** The session as it now is, so the browser shows the new subscription at once. */
  user: userSchema,
  account: accountSchema,
  subscription: subscriptionSchema,
});
export type FamilyAcceptResponse = z.infer<typeof familyAcceptResponseSchema>;
