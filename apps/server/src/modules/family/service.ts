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
  familySharingRefusal,
  formatLongDate,
  hasDeliverableDomain,
  isValidEmail,
  osloToday,
  remainingPlaces,
  validationMessages,
  type FamilyInvitation,
  type FamilyInviteResponse,
  type FamilyLeaveResponse,
  type FamilyOverview,
  type FamilyRemovalResponse,
  type Subscription,
  type Title,
} from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, familyInvitationLink, subscription, subscriptionMember } from '../../db/schema.ts';
import { titleMail, type Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/shared-state/index.ts';
import { notFound } from '../../plugins/errors.ts';
import { hashToken, randomToken, type SessionUser } from '../../plugins/session.ts';
import { accessOn } from '../subscription/index.ts';
import { toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import { endShareRow } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { DAY_MS, displayName, FAMILY, type FamilyContext, type MemberRow, type SubscriptionRow } from './family-record.ts';
import { createFamilyJoining } from './joining.ts';

export type { FamilyContext } from './family-record.ts';

export interface FamilyDeps {
  db: Db;
  accounts: AccountService;
  titles: TitleService;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  identityProviderName: string;
  /** FAMILY_MAX_MEMBERS: the maximum of a subscription that does not set its own. */
  defaultMaxMembers: number;
  /** Counts invitation e-mails per owner (lib/shared-state: Redis or the database). */
  rateLimiter: RateLimiter;
}


/**
 * Family sharing (SPEC §2 /familiedeling, /verifiser-familiemedlem, /deling-akseptert): the
 * owner invites household members by e-mail up to a maximum; each invitation is a
 * subscription_member row (kind family) and each e-mailed link a family_invitation_link row
 * (docs/decisions/010-email-and-family-sharing.md). Accepting gives the member a
 * non-billable subscription row that points at the owner's (sharedFromSubscriptionId).
 */
export function createFamilyService(deps: FamilyDeps) {
  const { db, accounts, titles, mailer, now, log } = deps;
  const today = () => osloToday(now());
  const joining = createFamilyJoining({ db, accounts, titles, now, identityProviderName: deps.identityProviderName, saving });
  const { liveSubscriptionOf } = joining;
  const maxOf = (row: Pick<SubscriptionRow, 'maxMembers'>) => (row.maxMembers > 0 ? row.maxMembers : deps.defaultMaxMembers);

  async function contextFor(user: SessionUser, titleCode: string | undefined, minsideUrl: string): Promise<FamilyContext> {
    const title = titles.titleFor(titleCode, minsideUrl);
    const accountRow = await accounts.accountOf(user.id);
    const own = accountRow ? await accounts.subscriptionForTitle(accountRow, title.titleCode) : null;
    return { user, title, subscription: own };
  }

  async function invitationsOf(subscriptionId: string, tx: Db | Tx = db): Promise<MemberRow[]> {
    return tx
      .select()
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.subscriptionId, subscriptionId), eq(subscriptionMember.kind, FAMILY)))
      .orderBy(asc(subscriptionMember.invitedAt), asc(subscriptionMember.id));
  }

  /** The owner's list, each with the login that accepted it (links are bearer, ADR 010). */
  async function invitationViewsOf(subscriptionId: string): Promise<FamilyInvitation[]> {
    const rows = await db
      .select({ member: subscriptionMember, acceptedBy: appUser.email })
      .from(subscriptionMember)
      .leftJoin(appUser, eq(appUser.id, subscriptionMember.userId))
      .where(and(eq(subscriptionMember.subscriptionId, subscriptionId), eq(subscriptionMember.kind, FAMILY)))
      .orderBy(asc(subscriptionMember.invitedAt), asc(subscriptionMember.id));
    return rows.map(({ member, acceptedBy }) => toInvitation(member, acceptedBy));
  }

  const toInvitation = (row: MemberRow, acceptedBy: string | null): FamilyInvitation => ({
    id: row.id,
    email: row.email,
    status: row.status === 'active' ? 'active' : 'emailSent',
    invitedAt: row.invitedAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    acceptedBy: row.status === 'active' && acceptedBy !== null && acceptedBy.toLowerCase() !== row.email ? acceptedBy : null,
  });

  async function overview(ctx: FamilyContext): Promise<FamilyOverview> {
    const titleName = ctx.title.name;
    const own = ctx.subscription;
    if (!own) throw notFound();
    if (own.sharedFrom) {
      const [row] = await db.select().from(subscription).where(eq(subscription.id, own.id));
      const ownerId = row?.sharedFromSubscriptionId ?? '';
      const [membership] = await db
        .select()
        .from(subscriptionMember)
        .where(and(eq(subscriptionMember.subscriptionId, ownerId), eq(subscriptionMember.kind, FAMILY), eq(subscriptionMember.userId, ctx.user.id)));
      const [owner] = await db.select().from(subscription).where(eq(subscription.id, ownerId));
      // A business employee's access is shared too, but it is not family sharing.
      if (membership && owner && !accessOn(own, today())) {
        return { role: 'none', titleName, reason: 'shareEnded', message: familyMessages.shareEnded };
      }
      if (membership && owner) {
        return { role: 'member', titleName, ownerName: own.sharedFrom.ownerName, planName: owner.planName, since: membership.acceptedAt?.toISOString() ?? null };
      }
    }
    const refusal = familySharingRefusal(own, today());
    if (refusal) {
      return { role: 'none', titleName, reason: refusal, message: refusal === 'ung' ? familyMessages.ung : familyMessages.notSharing };
    }
    const [row] = await db.select().from(subscription).where(eq(subscription.id, own.id));
    const invitations = await invitationViewsOf(own.id);
    const maxMembers = maxOf(row ?? { maxMembers: 0 });
    return { role: 'owner', titleName, planName: own.planName, maxMembers, remaining: remainingPlaces(maxMembers, invitations.length), invitations };
  }

  /** The owner's subscription, when this user may share it; refused with a 403 otherwise. */
  function requireOwner(ctx: FamilyContext): Subscription {
    const own = ctx.subscription;
    if (!own) throw notFound();
    const refusal = familySharingRefusal(own, today());
    if (refusal) throw new AppError(403, 'NOT_SHARING', refusal === 'ung' ? familyMessages.ung : familyMessages.notSharing);
    return own;
  }

  /** Serialises the changes to one owner's invitations, so the maximum holds under concurrent requests. */
  async function lockOwner(tx: Tx, subscriptionId: string): Promise<SubscriptionRow> {
    const [row] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId)).for('update');
    if (!row) throw notFound();
    return row;
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

  /** A database failure while saving becomes the given §4 result; a refusal passes through as it is. */
  async function saving<T>(code: 'errorSaved' | 'failed', message: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) throw error;
      log.error({ err: error }, `family sharing: ${code}`);
      throw new AppError(409, code, message);
    }
  }

  /** Ends a member's share: the membership goes, and the member's row as endShareRow decides (ADR 010). */
  async function endShare(tx: Tx, member: MemberRow): Promise<void> {
    await tx.delete(subscriptionMember).where(eq(subscriptionMember.id, member.id));
    if (!member.userId) return;
    const derived = await tx
      .select({ subscription })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, member.userId), eq(subscription.sharedFromSubscriptionId, member.subscriptionId)));
    for (const row of derived) await endShareRow(tx, row.subscription, now());
  }


  return {
    overview,

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
          const holders = await tx.select({ id: appUser.id }).from(appUser).where(sql`lower(${appUser.email}) = ${email}`);
          for (const holder of holders) {
            if (await liveSubscriptionOf(holder.id, owner.titleCode, tx)) throw new AppError(409, 'userExist', familyMessages.userExist);
          }
          const max = maxOf(owner);
          if (invitations.length >= max) throw new AppError(409, 'maxUsersReached', familyMessages.maxUsersReached(max));
          const [member] = await tx
            .insert(subscriptionMember)
            .values({ id: randomUUID(), subscriptionId: owner.id, kind: FAMILY, email, status: 'emailSent', invitedAt: now() })
            .returning();
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
          const [row] = await tx.select().from(subscriptionMember).where(and(eq(subscriptionMember.id, id), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, FAMILY)));
          if (!row) throw new AppError(404, 'notExist', familyMessages.notExist);
          if (row.status === 'active') throw new AppError(409, 'userExist', familyMessages.userExist);
          await sendLink(tx, { member: row, owner, inviter: ctx.user, title: ctx.title, origin });
          return row;
        }),
      );
      await deliver();
      return { result: 'resent', message: familyMessages.resent(member.email), overview: await overview(ctx) };
    },

    /** DELETE /api/family/invitations/{id}: withdraw an invitation, or remove a member (SPEC §4 removal results). */
    async remove(ctx: FamilyContext, id: string): Promise<FamilyRemovalResponse> {
      const own = requireOwner(ctx);
      const removed = await saving('failed', familyMessages.failed, () =>
        db.transaction(async (tx) => {
          const owner = await lockOwner(tx, own.id);
          const [row] = await tx.select().from(subscriptionMember).where(and(eq(subscriptionMember.id, id), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, FAMILY)));
          if (!row) throw new AppError(404, 'notExist', familyMessages.notExist);
          await endShare(tx, row);
          return row;
        }),
      );
      const message = removed.status === 'active' ? familyMessages.deleted(removed.email) : familyMessages.withdrawn(removed.email);
      return { result: 'deleted', message, overview: await overview(ctx) };
    },

    /** POST /api/family/leave: a member stops sharing; the access ends at once. */
    async leave(ctx: FamilyContext): Promise<FamilyLeaveResponse> {
      const own = ctx.subscription;
      if (!own?.sharedFrom) throw new AppError(409, 'NOT_MEMBER', familyMessages.notMember);
      await saving('failed', familyMessages.failed, () =>
        db.transaction(async (tx) => {
          const [row] = await tx.select().from(subscription).where(eq(subscription.id, own.id));
          const [member] = await tx
            .select()
            .from(subscriptionMember)
            .where(and(eq(subscriptionMember.subscriptionId, row?.sharedFromSubscriptionId ?? ''), eq(subscriptionMember.kind, FAMILY), eq(subscriptionMember.userId, ctx.user.id)));
          if (!member) throw new AppError(409, 'NOT_MEMBER', familyMessages.notMember);
          await endShare(tx, member);
        }),
      );
      const after = await contextFor(ctx.user, ctx.title.titleCode, '');
      const accountRow = await accounts.accountOf(ctx.user.id);
      return {
        message: familyMessages.left,
        overview: after.subscription ? await overview(after) : { role: 'none', titleName: ctx.title.name, reason: 'notEligible', message: familyMessages.notSharing },
        user: toUserDto(ctx.user, deps.identityProviderName),
        account: accountRow ? toAccountDto(accountRow, ctx.user, deps.identityProviderName) : null,
        subscription: after.subscription,
      };
    },

    preview: joining.preview,
    accept: joining.accept,
  };
}

export type FamilyService = ReturnType<typeof createFamilyService>;
