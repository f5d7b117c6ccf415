import { and, asc, eq } from 'drizzle-orm';
import type { DeliveryAddress, PublicationCalendar, Subscription } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { deliveryAddress, deliveryChange } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/session.ts';

// What the changes (changes.ts), the complaints (complaints.ts) and the address page (service.ts)
// all read: the subscription a call is about, its changes still in force, and the address in use.

export type ChangeRow = typeof deliveryChange.$inferSelect;

/** The paper subscription a delivery call is about, with its title and publication calendar. */
export interface DeliveryContext {
  user: SessionUser;
  subscription: Subscription;
  title: PublicationConfig;
  calendar: PublicationCalendar;
}

async function baseAddress(db: Db | Tx, ctx: DeliveryContext): Promise<DeliveryAddress | null> {
  const [row] = await db.select().from(deliveryAddress).where(eq(deliveryAddress.subscriptionId, ctx.subscription.id));
  if (!row) return null;
  const fallbackName = `${ctx.user.givenName} ${ctx.user.familyName}`.trim();
  return {
    name: row.name || fallbackName,
    coName: row.coName,
    street: row.street,
    streetNumber: row.streetNumber,
    apartment: row.apartment,
    floor: row.floor,
    postalCode: row.postalCode,
    town: row.town,
  };
}

export async function activeChanges(db: Db | Tx, subscriptionId: string): Promise<ChangeRow[]> {
  return db
    .select()
    .from(deliveryChange)
    .where(and(eq(deliveryChange.subscriptionId, subscriptionId), eq(deliveryChange.status, 'active')))
    .orderBy(asc(deliveryChange.fromDate), asc(deliveryChange.placedAt));
}

/** The permanent address in use on `date`: the newest move that has begun, else the subscription's own. */
export async function addressOn(db: Db | Tx, ctx: DeliveryContext, date: string): Promise<DeliveryAddress | null> {
  const moves = (await activeChanges(db, ctx.subscription.id)).filter((row) => row.type === 'PERMANENT' && row.fromDate <= date && row.address);
  const newest = moves.at(-1);
  return newest?.address ?? (await baseAddress(db, ctx));
}
