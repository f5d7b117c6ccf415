import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { effectiveStatusCode, hasAccess, sharedStatusOn, type IntroductoryPrice } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, subscription } from '../../db/schema.ts';
import { settleShare } from './shares.ts';

type SubscriptionRow = typeof subscription.$inferSelect;
type SubscriptionValues = Omit<typeof subscription.$inferInsert, 'id' | 'ariaAccountNo' | 'titleCode' | 'createdAt'>;

/** The three columns a subscription keeps its introductory offer in (all set, or all null). */
export function introColumns(intro: IntroductoryPrice | null): Pick<SubscriptionValues, 'introPriceOre' | 'introMonths' | 'introEndsOn'> {
  return { introPriceOre: intro?.priceOre ?? null, introMonths: intro?.months ?? null, introEndsOn: intro?.endsOn ?? null };
}

/** The user's account, created (first title = this one) when they have none yet. */
async function ensureAccount(tx: Tx, userId: string, titleCode: string): Promise<number> {
  await tx.insert(account).values({ userId, firstTitleCode: titleCode.toUpperCase(), accountBalanceOre: 0 }).onConflictDoNothing({ target: account.userId });
  const [row] = await tx.select({ ariaAccountNo: account.ariaAccountNo }).from(account).where(eq(account.userId, userId));
  if (!row) throw new Error('account vanished');
  return row.ariaAccountNo;
}

/** Whether the subscription gives access on `today` (a cancelled one whose period is over does not). */
export function accessOn(row: Pick<SubscriptionRow, 'instStatusCode' | 'currentPeriodEnd'>, today: string): boolean {
  return hasAccess({ instStatusCode: effectiveStatusCode(row, today) });
}

/**
 * The subscription's access with a shared row (family member, business employee) judged by
 * its owner's: it has access only while the owner's subscription has (docs/decisions/010).
 */
export async function accessWithOwnerOn(reader: Db | Tx, row: SubscriptionRow, today: string): Promise<boolean> {
  if (!row.sharedFromSubscriptionId) return accessOn(row, today);
  const [owner] = await reader.select().from(subscription).where(eq(subscription.id, row.sharedFromSubscriptionId));
  return hasAccess({ instStatusCode: effectiveStatusCode(sharedStatusOn(row, owner ?? null, today), today) });
}

/**
 * The user's subscription at a title, locked for the transaction, or undefined. Given `at`,
 * a share whose owner has no access any more is ended for real first (settleShare), so the
 * caller sees it as the session does.
 */
export async function lockSubscriptionAt(tx: Tx, userId: string, titleCode: string, at?: Date): Promise<SubscriptionRow | undefined> {
  const [owned] = await tx
    .select({ id: subscription.id })
    .from(subscription)
    .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
    .where(and(eq(account.userId, userId), eq(subscription.titleCode, titleCode.toUpperCase())));
  if (!owned) return undefined;
  const [row] = await tx.select().from(subscription).where(eq(subscription.id, owned.id)).for('update');
  return row && at ? settleShare(tx, row, at) : row;
}

/**
 * Gives the user a subscription at the title with `values` (student activation, a business
 * employee's access). There is one subscription per account and title: an earlier one
 * without access is taken over (its id and history stay); one with access is the caller's
 * business and is never overwritten here.
 */
export async function grantSubscription(
  tx: Tx,
  input: { userId: string; titleCode: string; today: string; at?: Date; values: SubscriptionValues },
): Promise<{ row: SubscriptionRow; previous: SubscriptionRow | undefined }> {
  const titleCode = input.titleCode.toUpperCase();
  const previous = await lockSubscriptionAt(tx, input.userId, titleCode, input.at);
  if (previous && accessOn(previous, input.today)) throw new Error('grantSubscription: the user already has access at this title');
  if (previous) {
    const [row] = await tx
      .update(subscription)
      .set({
        cancelledAt: null,
        resumeStatusCode: null,
        pendingPlanId: null,
        pendingPlanName: null,
        pendingChangeOn: null,
        sharedFromSubscriptionId: null,
        companyDomain: null,
        subscriptionInfo1: null,
        maxMembers: 0,
        introPriceOre: null,
        introMonths: null,
        introEndsOn: null,
        ...input.values,
      })
      .where(eq(subscription.id, previous.id))
      .returning();
    if (!row) throw new Error('subscription vanished');
    return { row, previous };
  }
  const ariaAccountNo = await ensureAccount(tx, input.userId, titleCode);
  const [row] = await tx
    .insert(subscription)
    .values({ id: randomUUID(), ariaAccountNo, titleCode, ...input.values })
    .returning();
  if (!row) throw new Error('subscription not created');
  return { row, previous: undefined };
}
