import { and, desc, eq, gt } from 'drizzle-orm';
import { billingErrorCodes, billingErrorMessages, osloToday, type AddDiscountBody, type Discount, type Subscription } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { discountCode, subscription, subscriptionDiscount } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

// Discount codes (SPEC §7 addDiscount / getDiscountDetails): a code added to a subscription for its
// next renewal invoices, one active at a time, each code once; the renewal run spends it (jobs.ts).
// Apart from the service because it is its own small job with its own lock.

export function createDiscounts(deps: {
  db: Db;
  now: () => Date;
  ownSubscription: (userId: string, ariaAccountNo: number, titleCode: string) => Promise<Subscription>;
  requireChangeable: (sub: Subscription) => void;
}) {
  const { db, now, ownSubscription, requireChangeable } = deps;
  const today = () => osloToday(now());

  function toDiscountDto(row: typeof subscriptionDiscount.$inferSelect, code: typeof discountCode.$inferSelect): Discount {
    return {
      discountCode: code.code,
      description: code.description,
      percentOff: code.percentOff,
      amountOffOre: code.amountOffOre,
      remainingPeriods: row.remainingPeriods,
      addedAt: row.addedAt.toISOString(),
    };
  }

  async function activeDiscount(subscriptionId: string): Promise<Discount | null> {
    const [row] = await db
      .select({ applied: subscriptionDiscount, code: discountCode })
      .from(subscriptionDiscount)
      .innerJoin(discountCode, eq(discountCode.code, subscriptionDiscount.code))
      .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), gt(subscriptionDiscount.remainingPeriods, 0)))
      .orderBy(desc(subscriptionDiscount.addedAt))
      .limit(1);
    return row ? toDiscountDto(row.applied, row.code) : null;
  }

  /** POST /api/addDiscount: the code applies to the next `periods` renewal invoices. */
  async function addDiscount(userId: string, body: AddDiscountBody): Promise<Discount> {
    const sub = await ownSubscription(userId, body.ariaAccountNo, body.titleCode);
    requireChangeable(sub);
    const codeText = body.discountCode.trim().toUpperCase();
    const [code] = await db.select().from(discountCode).where(eq(discountCode.code, codeText));
    const invalid = () => new AppError(400, billingErrorCodes.discountCodeInvalid, billingErrorMessages.discountCodeInvalid);
    if (!code || (code.titleCode !== null && code.titleCode !== sub.titleCode) || (code.validUntil !== null && code.validUntil < today())) throw invalid();
    return db.transaction(async (tx) => {
      // The subscription row is the lock: two codes added at once cannot both become active.
      await tx.select({ id: subscription.id }).from(subscription).where(eq(subscription.id, sub.id)).for('update');
      const existing = await tx.select().from(subscriptionDiscount).where(eq(subscriptionDiscount.subscriptionId, sub.id));
      if (existing.some((row) => row.code === code.code)) throw new AppError(409, billingErrorCodes.discountCodeUsed, billingErrorMessages.discountCodeUsed);
      if (existing.some((row) => row.remainingPeriods > 0)) throw new AppError(409, billingErrorCodes.discountAlreadyActive, billingErrorMessages.discountAlreadyActive);
      const [added] = await tx.insert(subscriptionDiscount).values({ subscriptionId: sub.id, code: code.code, remainingPeriods: code.periods, addedAt: now() }).returning();
      if (!added) throw invalid();
      return toDiscountDto(added, code);
    });
  }

  /** POST /api/getDiscountDetails. */
  async function discountDetails(userId: string, ariaAccountNo: number, titleCode: string): Promise<Discount | null> {
    const sub = await ownSubscription(userId, ariaAccountNo, titleCode);
    return activeDiscount(sub.id);
  }

  return { addDiscount, discountDetails };
}
