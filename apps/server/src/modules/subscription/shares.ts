import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { effectiveStatusCode, instStatusCodes, osloToday, sharedStatusOn } from '@minside/domain';
import type { Tx } from '../../db/client.ts';
import { account, familyInvitationLink, subscription, subscriptionChange, subscriptionMember } from '../../db/schema.ts';

type SubscriptionRow = typeof subscription.$inferSelect;

/**
 * The fields of a user's own subscription that a family share overwrites when it takes the
 * row over (one subscription per account and title). Kept in the `shareJoined` change-log
 * entry, so ending the share gives the row back as it was (docs/decisions/010).
 */
const ownFields = [
  'ariaPlanId',
  'planName',
  'planProductType',
  'eligibleForSharing',
  'instStatusCode',
  'subscriptionInfo1',
  'billingPeriod',
  'priceOre',
  'introPriceOre',
  'introMonths',
  'introEndsOn',
  'paymentMethod',
  'features',
  'startedOn',
  'currentPeriodEnd',
  'cancelledAt',
  'pendingPlanId',
  'pendingPlanName',
  'pendingChangeOn',
  'companyDomain',
  'maxMembers',
  'resumeStatusCode',
] as const satisfies readonly (keyof SubscriptionRow)[];
type OwnFields = Pick<SubscriptionRow, (typeof ownFields)[number]>;

/** What `shareJoined` stores of a taken-over row: its own fields as they were on `today` (an expiry not yet written counts). */
export function ownFieldsOf(row: SubscriptionRow, today: string): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of ownFields) kept[field] = row[field];
  kept['instStatusCode'] = effectiveStatusCode(row, today);
  kept['cancelledAt'] = row.cancelledAt?.toISOString() ?? null;
  return kept;
}

function restoredFields(stored: Record<string, unknown>): Partial<OwnFields> {
  const restored: Record<string, unknown> = {};
  for (const field of ownFields) if (field in stored) restored[field] = stored[field];
  if (typeof stored['cancelledAt'] === 'string') restored['cancelledAt'] = new Date(stored['cancelledAt']);
  return restored as Partial<OwnFields>;
}

/** The row's own fields from before it became a share, if it was taken over (newest `shareJoined` entry). */
async function takenOverFrom(tx: Tx, subscriptionId: string): Promise<Record<string, unknown> | null> {
  const [joined] = await tx
    .select({ details: subscriptionChange.details })
    .from(subscriptionChange)
    .where(and(eq(subscriptionChange.subscriptionId, subscriptionId), eq(subscriptionChange.kind, 'shareJoined')))
    .orderBy(desc(subscriptionChange.at))
    .limit(1);
  const previous = joined?.details['previous'];
  return previous && typeof previous === 'object' ? (previous as Record<string, unknown>) : null;
}

/**
 * Ends one shared row (family member or business employee) and the member's place in the
 * owner's list:
 * - a row taken over from the user's own subscription gets its own fields back (history kept);
 * - a business employee's row is cancelled from today and kept (it may carry history, ADR 011);
 * - a family row created for the share is deleted with its log; should anything else refer
 *   to it, it is terminated and detached instead.
 */
export async function endShareRow(tx: Tx, row: SubscriptionRow, at: Date): Promise<void> {
  const day = osloToday(at);
  const ownerId = row.sharedFromSubscriptionId;
  const [holder] = await tx.select({ userId: account.userId }).from(account).where(eq(account.ariaAccountNo, row.ariaAccountNo));
  if (ownerId && holder) {
    await tx.delete(subscriptionMember).where(and(eq(subscriptionMember.subscriptionId, ownerId), eq(subscriptionMember.userId, holder.userId)));
  }
  const previous = await takenOverFrom(tx, row.id);
  if (previous) {
    const restored = restoredFields(previous);
    await tx
      .update(subscription)
      .set({ ...restored, sharedFromSubscriptionId: null })
      .where(eq(subscription.id, row.id));
    await tx.insert(subscriptionChange).values({
      id: randomUUID(),
      subscriptionId: row.id,
      at,
      actor: 'system',
      actorUserId: null,
      kind: 'shareEnded',
      fromStatusCode: row.instStatusCode,
      toStatusCode: restored.instStatusCode ?? null,
      details: { planName: row.planName, on: day },
    });
    return;
  }
  const ended = { instStatusCode: instStatusCodes.TERMINATED, cancelledAt: row.cancelledAt ?? at, currentPeriodEnd: row.currentPeriodEnd < day ? row.currentPeriodEnd : day, resumeStatusCode: null };
  if ((row.subscriptionInfo1 ?? '').toLowerCase().includes('employee')) {
    await tx
      .update(subscription)
      .set({ ...ended, instStatusCode: instStatusCodes.CANCELLED, sharedFromSubscriptionId: null })
      .where(eq(subscription.id, row.id));
    await tx.insert(subscriptionChange).values({
      id: randomUUID(),
      subscriptionId: row.id,
      at,
      actor: 'system',
      actorUserId: null,
      kind: 'shareEnded',
      fromStatusCode: row.instStatusCode,
      toStatusCode: instStatusCodes.CANCELLED,
      details: { planName: row.planName, on: day },
    });
    return;
  }
  try {
    await tx.transaction(async (savepoint) => {
      await savepoint.delete(subscriptionChange).where(eq(subscriptionChange.subscriptionId, row.id));
      await savepoint.delete(subscription).where(eq(subscription.id, row.id));
    });
  } catch {
    await tx
      .update(subscription)
      .set({ ...ended, sharedFromSubscriptionId: null })
      .where(eq(subscription.id, row.id));
  }
}

/**
 * Ends every share of an owner's subscription (family members and business employees) and
 * withdraws its invitations: for the owner's account erasure, or whenever the owner's
 * subscription stops for good. Call it inside the transaction that ends the owner's access.
 */
export async function endSharesOf(tx: Tx, ownerSubscriptionId: string, at: Date): Promise<void> {
  const derived = await tx.select().from(subscription).where(eq(subscription.sharedFromSubscriptionId, ownerSubscriptionId)).for('update');
  for (const row of derived) await endShareRow(tx, row, at);
  await tx.delete(familyInvitationLink).where(eq(familyInvitationLink.subscriptionId, ownerSubscriptionId));
  await tx.delete(subscriptionMember).where(eq(subscriptionMember.subscriptionId, ownerSubscriptionId));
}

/**
 * A shared row whose owner has no access any more is ended for real (see endShareRow), so
 * the write that follows (an order, a verification, a new share) sees what the session
 * already shows. Returns the row as it now is, or undefined when it was deleted.
 */
export async function settleShare(tx: Tx, row: SubscriptionRow, at: Date): Promise<SubscriptionRow | undefined> {
  if (!row.sharedFromSubscriptionId) return row;
  const day = osloToday(at);
  const [owner] = await tx.select().from(subscription).where(eq(subscription.id, row.sharedFromSubscriptionId));
  const view = sharedStatusOn(row, owner ?? null, day);
  if (view.instStatusCode !== instStatusCodes.TERMINATED || effectiveStatusCode(row, day) === instStatusCodes.TERMINATED) return row;
  await endShareRow(tx, row, at);
  const [after] = await tx.select().from(subscription).where(eq(subscription.id, row.id)).for('update');
  return after;
}
