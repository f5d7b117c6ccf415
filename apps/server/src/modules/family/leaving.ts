import { and, eq } from 'drizzle-orm';
import { familyMessages, type FamilyLeaveResponse, type FamilyOverview, type FamilyRemovalResponse, type Subscription } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, subscription, subscriptionMember } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { endShareRow, toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import { FAMILY, type FamilyContext, type MemberRow, type SubscriptionRow } from './family-record.ts';

export interface ShareEndingDeps {
  db: Db;
  accounts: AccountService;
  now: () => Date;
  identityProviderName: string;
  /** The owner's side, from service.ts: who may share, the lock on their invitations, the answer's overview. */
  requireOwner(ctx: FamilyContext): Subscription;
  lockOwner(tx: Tx, subscriptionId: string): Promise<SubscriptionRow>;
  overview(ctx: FamilyContext): Promise<FamilyOverview>;
  contextFor(user: SessionUser, titleCode: string | undefined, minsideUrl: string): Promise<FamilyContext>;
  saving<T>(code: 'errorSaved' | 'failed', message: string, work: () => Promise<T>): Promise<T>;
}

/**
 * Ending a share (SPEC §4 removal results, ADR 010), from either side: the owner withdraws an
 * invitation or removes a member, or a member leaves. The membership goes, and the member's
 * subscription row as endShareRow decides; the access ends at once.
 */
export function createShareEnding(deps: ShareEndingDeps) {
  const { db, accounts, now, requireOwner, lockOwner, overview, contextFor, saving } = deps;

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
    /** DELETE /api/family/invitations/{id}: withdraw an invitation, or remove a member (SPEC §4 removal results). */
    async remove(ctx: FamilyContext, id: string): Promise<FamilyRemovalResponse> {
      const own = requireOwner(ctx);
      const removed = await saving('failed', familyMessages.failed, () =>
        db.transaction(async (tx) => {
          const owner = await lockOwner(tx, own.id);
          const [row] = await tx
            .select()
            .from(subscriptionMember)
            .where(and(eq(subscriptionMember.id, id), eq(subscriptionMember.subscriptionId, owner.id), eq(subscriptionMember.kind, FAMILY)));
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
  };
}
