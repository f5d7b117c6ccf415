import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { familyMessages, familySharingRefusal, osloToday, remainingPlaces, type FamilyInvitation, type FamilyOverview, type Subscription } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { appUser, subscription, subscriptionMember } from '../../db/schema.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/shared-state/index.ts';
import { notFound } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { accessOn, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { FAMILY, type FamilyContext, type MemberRow, type SubscriptionRow } from './family-record.ts';
import { createFamilyInvitations } from './invitations.ts';
import { createFamilyJoining } from './joining.ts';
import { createShareEnding } from './leaving.ts';

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
 *
 * Here: the overview and who may share. The owner's invitations are invitations.ts, ending a
 * share (removal, leaving) leaving.ts, and the invitee's side joining.ts.
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

  const invitations = createFamilyInvitations({ db, mailer, now, log, rateLimiter: deps.rateLimiter, requireOwner, lockOwner, maxOf, overview, liveSubscriptionOf, saving });
  const ending = createShareEnding({ db, accounts, now, identityProviderName: deps.identityProviderName, requireOwner, lockOwner, overview, contextFor, saving });

  return {
    overview,
    invite: invitations.invite,
    resend: invitations.resend,
    remove: ending.remove,
    leave: ending.leave,
    preview: joining.preview,
    accept: joining.accept,
  };
}

export type FamilyService = ReturnType<typeof createFamilyService>;
