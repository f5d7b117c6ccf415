import { and, asc, eq } from 'drizzle-orm';
import type { BillingPeriod, Plan } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { plan } from '../../db/schema.ts';

type PlanRow = typeof plan.$inferSelect;
type Reader = Pick<Db, 'select'>;

function toPlanDto(row: PlanRow): Plan {
  return {
    ariaPlanID: row.ariaPlanId,
    titleCode: row.titleCode,
    name: row.name,
    description: row.description,
    planProductType: row.planProductType as Plan['planProductType'],
    billingPeriod: row.billingPeriod as BillingPeriod,
    priceOre: row.priceOre,
    features: row.features,
    nextPrice: row.nextPriceOre !== null && row.nextPriceFrom !== null ? { priceOre: row.nextPriceOre, from: row.nextPriceFrom } : null,
    minimumAge: row.minimumAge,
  };
}

/** The plans a title sells today, in the title's order. */
export async function soldPlans(db: Reader, titleCode: string): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(plan)
    .where(and(eq(plan.titleCode, titleCode.toUpperCase()), eq(plan.sold, true)))
    .orderBy(asc(plan.sortOrder), asc(plan.ariaPlanId));
  return rows.map(toPlanDto);
}

/** One plan by id (sold or not), or undefined. */
export async function findPlan(db: Reader, ariaPlanId: string): Promise<Plan | undefined> {
  const [row] = await db.select().from(plan).where(eq(plan.ariaPlanId, ariaPlanId));
  return row ? toPlanDto(row) : undefined;
}
