import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { effectiveStatusCode, familyMessages, familySharingRefusal, instStatusCodes, osloToday, userFacingState, type FamilyAcceptResponse, type FamilyInvitationPreview } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, familyInvitationLink, subscription, subscriptionChange, subscriptionMember } from '../../db/schema.ts';
import { hashToken, type SessionUser } from '../../plugins/session.ts';
import { accessWithOwnerOn } from '../subscription/index.ts';
import { toAccountDto, toSubscriptionDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';
import { displayName, FAMILY, outcome, type MemberRow, type SubscriptionRow } from './family-record.ts';
import { ownFieldsOf, settleShare } from '../subscription/index.ts';

export interface FamilyJoiningDeps {
  db: Db;
  accounts: AccountService;
  titles: TitleService;
  now: () => Date;
  identityProviderName: string;
  /** A database failure while saving becomes the given SPEC §4 result (service.ts). */
  saving<T>(code: 'errorSaved' | 'failed', message: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The invitee's side of family sharing (SPEC §2 /verifiser-familiemedlem, /deling-akseptert):
 * what a link offers this user, or the SPEC §4 outcome that stops it, and joining — the member
 * gets a non-billable subscription row that points at the owner's (ADR 010).
 */
export function createFamilyJoining(deps: FamilyJoiningDeps) {
  const { db, accounts, titles, now, saving } = deps;
  const today = () => osloToday(now());

  async function ownerNameOf(ownerSubscriptionId: string, tx: Db | Tx = db): Promise<string> {
    const [row] = await tx
      .select({ user: appUser })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(subscription.id, ownerSubscriptionId));
    return row ? displayName(row.user) : 'en annen abonnent';
  }

  /** The subscription a user has on a title that still counts: anything but an expired one. */
  async function liveSubscriptionOf(userId: string, titleCode: string, tx: Db | Tx = db): Promise<SubscriptionRow | null> {
    const [row] = await tx
      .select({ subscription })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .where(and(eq(account.userId, userId), eq(subscription.titleCode, titleCode)));
    if (!row) return null;
    const live = row.subscription;
    // A share counts only while its owner's subscription gives access.
    if (live.sharedFromSubscriptionId) return (await accessWithOwnerOn(tx, live, today())) ? live : null;
    const state = userFacingState({ instStatusCode: live.instStatusCode, pendingChange: null, currentPeriodEnd: live.currentPeriodEnd }, today());
    return state === 'expired' ? null : live;
  }

  interface OpenLink {
    link: typeof familyInvitationLink.$inferSelect;
    member: MemberRow;
    owner: SubscriptionRow;
  }

  /** SPEC §4 family outcomes: why this link cannot be accepted by this user, or what it offers. */
  async function openLink(tx: Db | Tx, user: SessionUser, token: string, lock: boolean): Promise<OpenLink> {
    const query = tx
      .select()
      .from(familyInvitationLink)
      .where(eq(familyInvitationLink.tokenHash, hashToken(token)));
    const [link] = lock ? await query.for('update') : await query;
    if (!link) throw outcome('failed');
    if (link.usedAt) throw outcome('alreadyUsed');
    const [member] = await tx
      .select()
      .from(subscriptionMember)
      .where(and(eq(subscriptionMember.id, link.memberId), eq(subscriptionMember.kind, FAMILY)));
    if (!member) throw outcome('withdrawn');
    if (member.status === 'active') throw outcome('alreadyUsed');
    if (link.replacedAt || link.expiresAt.getTime() <= now().getTime()) throw outcome('expired');
    const [owner] = await tx.select().from(subscription).where(eq(subscription.id, link.subscriptionId));
    // The owner's subscription ended or can no longer share: nothing to join.
    const ownerDto = owner ? toSubscriptionDto(owner, null) : null;
    if (!owner || !ownerDto || familySharingRefusal(ownerDto, today())) throw outcome('failed');
    if (await liveSubscriptionOf(user.id, owner.titleCode, tx)) throw outcome('activeSubscription');
    return { link, member, owner };
  }

  /** GET /api/family/invitation?token=: what the link offers this user, or the §4 outcome that stops it. */
  async function preview(user: SessionUser, token: string): Promise<FamilyInvitationPreview> {
    const { link, owner } = await openLink(db, user, token, false);
    const title = titles.titleFor(owner.titleCode, '');
    return { ownerName: await ownerNameOf(owner.id), titleName: title.name, planName: owner.planName, email: link.email, expiresAt: link.expiresAt.toISOString() };
  }

  /** POST /api/family/invitation/accept: the signed-in user joins; the link is used up. */
  async function accept(user: SessionUser, token: string): Promise<FamilyAcceptResponse> {
    const owner = await saving('failed', familyMessages.outcome.failed, () =>
      db.transaction(async (tx) => {
        const opened = await openLink(tx, user, token, true);
        const { owner: ownerRow, member } = opened;
        const at = now();
        let [accountRow] = await tx.select().from(account).where(eq(account.userId, user.id));
        if (!accountRow) {
          [accountRow] = await tx.insert(account).values({ userId: user.id, firstTitleCode: ownerRow.titleCode, accountBalanceOre: 0 }).returning();
        }
        if (!accountRow) throw new Error('account not created');
        const shared = {
          ariaPlanId: `${ownerRow.ariaPlanId}-MEDLEM`,
          planName: `${ownerRow.planName} (delt)`,
          // Members share the digital access; the paper goes to the owner's address.
          planProductType: 'DIGITAL',
          eligibleForSharing: false,
          instStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
          subscriptionInfo1: null,
          billingPeriod: ownerRow.billingPeriod,
          priceOre: 0,
          paymentMethod: 'NONE',
          features: { ...ownerRow.features, paper: false },
          startedOn: osloToday(at),
          currentPeriodEnd: ownerRow.currentPeriodEnd,
          cancelledAt: null,
          pendingPlanId: null,
          pendingPlanName: null,
          pendingChangeOn: null,
          sharedFromSubscriptionId: ownerRow.id,
          companyDomain: null,
          maxMembers: 0,
          resumeStatusCode: null,
        };
        // An expired subscription of the user's own on this title becomes the share (one per account and title);
        // its own fields go into the log entry, so ending the share gives it back as it was.
        const [found] = await tx
          .select()
          .from(subscription)
          .where(and(eq(subscription.ariaAccountNo, accountRow.ariaAccountNo), eq(subscription.titleCode, ownerRow.titleCode)))
          .for('update');
        const previous = found ? await settleShare(tx, found, at) : undefined;
        let sharedId: string;
        if (previous) {
          await tx.update(subscription).set(shared).where(eq(subscription.id, previous.id));
          sharedId = previous.id;
        } else {
          sharedId = randomUUID();
          await tx.insert(subscription).values({ id: sharedId, ariaAccountNo: accountRow.ariaAccountNo, titleCode: ownerRow.titleCode, ...shared });
        }
        await tx.insert(subscriptionChange).values({
          id: randomUUID(),
          subscriptionId: sharedId,
          at,
          actor: 'self',
          actorUserId: user.id,
          kind: 'shareJoined',
          fromStatusCode: previous ? effectiveStatusCode(previous, osloToday(at)) : null,
          toStatusCode: instStatusCodes.ACTIVE_NON_BILLABLE,
          details: { planName: shared.planName, ...(previous ? { previous: ownFieldsOf(previous, osloToday(at)) } : {}) },
        });
        await tx
          .update(subscriptionMember)
          .set({ status: 'active', userId: user.id, acceptedAt: at })
          .where(and(eq(subscriptionMember.id, member.id), ne(subscriptionMember.status, 'active')));
        await tx.update(familyInvitationLink).set({ usedAt: at }).where(eq(familyInvitationLink.tokenHash, opened.link.tokenHash));
        return ownerRow;
      }),
    );
    const title = titles.titleFor(owner.titleCode, '');
    const accountRow = await accounts.accountOf(user.id);
    const own = accountRow ? await accounts.subscriptionForTitle(accountRow, owner.titleCode) : null;
    if (!accountRow || !own) throw outcome('failed');
    return {
      ownerName: await ownerNameOf(owner.id),
      titleName: title.name,
      planName: owner.planName,
      user: toUserDto(user, deps.identityProviderName),
      account: toAccountDto(accountRow, user, deps.identityProviderName),
      subscription: own,
    };
  }

  return { liveSubscriptionOf, preview, accept };
}
