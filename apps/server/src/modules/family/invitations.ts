import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  errorCodes,
  FAMILY_INVITATION_MAIL_LIMIT,
  FAMILY_INVITATION_MAIL_WINDOW_MS,
  FAMILY_INVITATION_TTL_DAYS,
  familyTooManyInvitationsCode,
  familyMessages,
  formatLongDate,
  hasDeliverableDomain,
  isValidEmail,
  osloToday,
  validationMessages,
  type FamilyInviteResponse,
  type FamilyOverview,
  type Subscription,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { appUser, familyInvitationLink, subscriptionMember } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/shared-state/index.ts';
import { hashToken, randomToken, type SessionUser } from '../../plugins/session.ts';
import { DAY_MS, displayName, FAMILY, type FamilyContext, type MemberRow, type SubscriptionRow } from './family-record.ts';

export interface FamilyInvitationDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  rateLimiter: RateLimiter;
  /** The owner's side, from service.ts: who may share, the lock on their invitations, their maximum, the answer's overview. */
  requireOwner(ctx: FamilyContext): Subscription;
  lockOwner(tx: Tx, subscriptionId: string): Promise<SubscriptionRow>;
  maxOf(row: Pick<SubscriptionRow, 'maxMembers'>): number;
  overview(ctx: FamilyContext): Promise<FamilyOverview>;
  /** Whether a user already reads the title (joining.ts): such a person cannot be invited. */
  liveSubscriptionOf(userId: string, titleCode: string, tx?: Db | Tx): Promise<SubscriptionRow | null>;
  saving<T>(code: 'errorSaved' | 'failed', message: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The owner's invitations (SPEC §4 invite results, ADR 010): an invitation is a subscription_member
 * row, each e-mailed link a family_invitation_link row, and a resend replaces the link. Every
 * e-mail counts against the owner's limit (FAMILY_INVITATION_MAIL_LIMIT), checked before anything
 * is stored; the maximum of members holds under the owner's lock.
 */
export function createFamilyInvitations(deps: FamilyInvitationDeps) {
  const { db, mailer, now, log, requireOwner, lockOwner, maxOf, overview, liveSubscriptionOf, saving } = deps;

  async function invitationsOf(subscriptionId: string, tx: Db | Tx = db): Promise<MemberRow[]> {
    return tx
      .select()
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.subscriptionId, subscriptionId), eq(subscriptionMember.kind, FAMILY)))
      .orderBy(asc(subscriptionMember.invitedAt), asc(subscriptionMember.id));
  }

  /**
   * Every invite or resend that passed the input checks counts, before anything is stored, so
   * a refusal here sends nothing; one refused later (already a member, the maximum) still
   * counts, which keeps "at most the limit of e-mails" true without a second round trip.
   */
  async function countInvitationMail(user: SessionUser): Promise<void> {
    const { allowed } = await deps.rateLimiter.hit(`family-invitation:${user.id}`, { limit: FAMILY_INVITATION_MAIL_LIMIT, windowMs: FAMILY_INVITATION_MAIL_WINDOW_MS });
    if (!allowed) throw new AppError(429, familyTooManyInvitationsCode, familyMessages.tooManyInvitations);
  }

  /** A new link for an invitation: earlier links stop working, one e-mail goes out with it. */
  async function sendLink(tx: Tx, input: { member: MemberRow; owner: SubscriptionRow; inviter: SessionUser; title: Title; origin: string }): Promise<void> {
    const at = now();
    await tx
      .update(familyInvitationLink)
      .set({ replacedAt: at })
      .where(and(eq(familyInvitationLink.memberId, input.member.id), isNull(familyInvitationLink.usedAt), isNull(familyInvitationLink.replacedAt)));
    const token = randomToken();
    const tokenHash = hashToken(token);
    const expiresAt = new Date(at.getTime() + FAMILY_INVITATION_TTL_DAYS * DAY_MS);
    await tx.insert(familyInvitationLink).values({ tokenHash, memberId: input.member.id, subscriptionId: input.owner.id, email: input.member.email, createdAt: at, expiresAt });
    const inviter = displayName(input.inviter);
    const mail = titleMail(input.title, {
      subject: `${inviter} vil dele ${input.title.name} med deg`,
      heading: 'Du er invitert til familiedeling',
      paragraphs: [
        `${inviter} abonnerer på ${input.title.name} og vil dele den digitale tilgangen med deg. Det koster deg ingenting.`,
        'Åpne lenken, logg inn (eller lag en bruker) og godta invitasjonen.',
      ],
      action: { label: 'Godta invitasjonen', url: `${input.origin}/verifiser-familiemedlem?token=${token}` },
      footnotes: [`Lenken virker til og med ${formatLongDate(osloToday(expiresAt))}.`, 'Kjenner du ikke avsenderen, kan du se bort fra e-posten.'],
    });
    await mailer.enqueue(tx, { to: input.member.email, title: input.title, kind: 'familyInvitation', ...mail, idempotencyKey: `family-invitation:${tokenHash}` });
  }

  async function deliver(): Promise<void> {
    try {
      await mailer.deliverPending();
    } catch (error) {
      // The invitation is saved and the mail is in the outbox: the retry job sends it.
      log.error({ err: error }, 'could not deliver the outbox right after an invitation');
    }
  }

  return {
    /** POST /api/family/invitations: SPEC §4 invite results. A refusal changes nothing and sends nothing. */
    async invite(ctx: FamilyContext, rawEmail: string, origin: string): Promise<FamilyInviteResponse> {
      const own = requireOwner(ctx);
      const email = rawEmail.trim().toLowerCase();
      if (email === '') throw new AppError(400, errorCodes.validation, 'E-post er påkrevd');
      if (!isValidEmail(email)) throw new AppError(400, errorCodes.validation, validationMessages.invalidEmail);
      if (!hasDeliverableDomain(email)) throw new AppError(400, 'wrongEmailDomain', familyMessages.wrongEmailDomain);
      if (email === ctx.user.email.toLowerCase()) throw new AppError(409, 'userExist', familyMessages.userExist);
      await countInvitationMail(ctx.user);

      const result = await saving('errorSaved', familyMessages.errorSaved, () =>
        db.transaction(async (tx) => {
          const owner = await lockOwner(tx, own.id);
          const invitations = await invitationsOf(owner.id, tx);
          const existing = invitations.find((row) => row.email === email);
          if (existing?.status === 'active') throw new AppError(409, 'userExist', familyMessages.userExist);
          if (existing) {
            await sendLink(tx, { member: existing, owner, inviter: ctx.user, title: ctx.title, origin });
            return 'resent' as const;
          }
          // Someone who already reads this title (own subscription or another share) cannot join.
          const holders = await tx
            .select({ id: appUser.id })
            .from(appUser)
            .where(sql`lower(${appUser.email}) = ${email}`);
          for (const holder of holders) {
            if (await liveSubscriptionOf(holder.id, owner.titleCode, tx)) throw new AppError(409, 'userExist', familyMessages.userExist);
          }
          const max = maxOf(owner);
          if (invitations.length >= max) throw new AppError(409, 'maxUsersReached', familyMessages.maxUsersReached(max));
          const [member] = await tx.insert(subscriptionMember).values({ id: randomUUID(), subscriptionId: owner.id, kind: FAMILY, email, status: 'emailSent', invitedAt: now() }).returning();
          if (!member) throw new Error('invitation not stored');
          await sendLink(tx, { member, owner, inviter: ctx.user, title: ctx.title, origin });
          return 'emailSent' as const;
        }),
      );
      await deliver();
      return { result, message: result === 'resent' ? familyMessages.resent(email) : familyMessages.emailSent(email), overview: await overview(ctx) };
    },

    /** POST /api/family/invitations/{id}/resend: a new link to an invitation not yet accepted. */
    async resend(ctx: FamilyContext, id: string, origin: string): Promise<FamilyInviteResponse> {
      const own = requireOwner(ctx);
      await countInvitationMail(ctx.user);
      const member = await saving('errorSaved', familyMessages.errorSaved, () =>
        db.transaction(async (tx) => {
          const owner = await lockOwner(tx, own.id);
          const [row] = await tx
            .select()
            .from(subscriptionMember)
            .where(and(eq(subscriptionMember.id, id), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, FAMILY)));
          if (!row) throw new AppError(404, 'notExist', familyMessages.notExist);
          if (row.status === 'active') throw new AppError(409, 'userExist', familyMessages.userExist);
          await sendLink(tx, { member: row, owner, inviter: ctx.user, title: ctx.title, origin });
          return row;
        }),
      );
      await deliver();
      return { result: 'resent', message: familyMessages.resent(member.email), overview: await overview(ctx) };
    },
  };
}
