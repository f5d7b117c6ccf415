import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Title } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { account, dataRequest } from '../../db/schema.ts';

// What an export (export.ts) and an erasure (deletion.ts) share: each is a `data_request` row that a
// job run claims, and each mails the user in the colours of the account's first title.

export type RequestRow = typeof dataRequest.$inferSelect;

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A job run holds a claimed request this long; a crashed run's requests come back after it. */
const CLAIM_MS = 10 * 60 * 1000;

/** Claims due requests of a kind for this run (SKIP LOCKED: one runner per request across instances). */
export async function claimDue(db: Db, at: Date, kind: 'export' | 'erasure', limit: number): Promise<RequestRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: dataRequest.id })
      .from(dataRequest)
      .where(and(eq(dataRequest.kind, kind), eq(dataRequest.status, 'pending'), lte(dataRequest.dueAt, at), or(isNull(dataRequest.lockedUntil), lt(dataRequest.lockedUntil, at))))
      .orderBy(dataRequest.dueAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(dataRequest)
      .set({ lockedUntil: new Date(at.getTime() + CLAIM_MS) })
      .where(
        inArray(
          dataRequest.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

/** The title whose name and colours a mail to this user carries: the account's first title. */
export async function titleForUser(tx: Pick<Db, 'select'>, userId: string, titleOf: (titleCode: string | undefined) => Title): Promise<Title> {
  const [owned] = await tx.select({ code: account.firstTitleCode }).from(account).where(eq(account.userId, userId));
  return titleOf(owned?.code);
}
