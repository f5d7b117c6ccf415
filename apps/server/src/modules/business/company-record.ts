import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { businessErrorCodes, businessMessages, type BusinessMember, type BusinessOverview, type Title } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { subscription, subscriptionMember } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SessionUser } from '../../plugins/session.ts';

// What the admin's side (members.ts, einvoice.ts) and the employee's (verification.ts) both read of
// a company subscription: its rows, its seats, its lock, and how a refusal is said.

export type SubscriptionRow = typeof subscription.$inferSelect;
export type MemberRow = typeof subscriptionMember.$inferSelect;

/** The admin's company subscription, as every admin call sees it. */
export interface AdminContext {
  user: SessionUser;
  title: Title;
  subscriptionId: string;
  companyDomain: string;
}

export const refuse = (status: number, code: string, message: string) => new AppError(status, code, message);

/**
 * A withdrawn invitation keeps its row with this status (issue 25.15): it holds no seat and is not
 * listed, but the address can no longer prove itself for the company until the admin invites it
 * again — the e-mailed link and any code sent for it stop working.
 */
export const WITHDRAWN = 'withdrawn';

export function toMember(row: MemberRow): BusinessMember {
  return { id: row.id, email: row.email, addedAt: row.invitedAt.toISOString(), status: row.status === 'active' ? 'active' : 'emailSent' };
}

/** The company's invitations and employees that hold a seat, newest first. */
export async function members(tx: Tx | Db, subscriptionId: string): Promise<MemberRow[]> {
  return tx
    .select()
    .from(subscriptionMember)
    .where(and(eq(subscriptionMember.subscriptionId, subscriptionId), eq(subscriptionMember.kind, 'business'), ne(subscriptionMember.status, WITHDRAWN)))
    .orderBy(desc(subscriptionMember.invitedAt), asc(subscriptionMember.email));
}

export async function overviewOf(tx: Tx | Db, subscriptionId: string): Promise<BusinessOverview> {
  const [owner] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId));
  const rows = await members(tx, subscriptionId);
  const maxMembers = owner?.maxMembers ?? 0;
  return { companyDomain: owner?.companyDomain ?? '', maxMembers, used: rows.length, remaining: Math.max(0, maxMembers - rows.length), members: rows.map(toMember) };
}

/** The company's row, locked: seats are counted and taken under it, so two requests cannot pass the limit together. */
export async function lockOwner(tx: Tx, subscriptionId: string): Promise<SubscriptionRow> {
  const [row] = await tx.select().from(subscription).where(eq(subscription.id, subscriptionId)).for('update');
  if (!row) throw refuse(409, businessErrorCodes.error, businessMessages.error);
  return row;
}
