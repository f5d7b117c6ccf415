import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { orderErrorCodes, orderMessages, osloToday } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, subscription } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { accessWithOwnerOn } from '../subscription/index.ts';
import type { AccountService } from '../subscription/index.ts';
import { orderError } from './order-record.ts';

/** The winback link's default life. */
const WINBACK_LINK_DAYS = 30;

/**
 * Winback (issue 7): who is a former subscriber at a title, and the signed links operators hand
 * out — base64url(payload).base64url(HMAC-SHA256), nothing stored.
 */
export function createWinback(deps: { db: Db; accounts: Pick<AccountService, 'accountOf'>; now: () => Date; winbackSecret: string }) {
  const { db, accounts, now, winbackSecret } = deps;
  const today = () => osloToday(now());

  function sign(payload: string): string {
    return createHmac('sha256', winbackSecret).update(payload).digest('base64url');
  }

  function winbackToken(ariaAccountNo: number, titleCode: string, validDays = WINBACK_LINK_DAYS): { token: string; expiresAt: Date } {
    const expiresAt = new Date(now().getTime() + validDays * 86_400_000);
    const payload = Buffer.from(JSON.stringify({ v: 1, a: ariaAccountNo, t: titleCode.toUpperCase(), e: expiresAt.getTime() })).toString('base64url');
    return { token: `${payload}.${sign(payload)}`, expiresAt };
  }

  function readWinbackToken(token: string): { ariaAccountNo: number; titleCode: string } {
    const [payload = '', signature = ''] = token.split('.');
    const expected = Buffer.from(sign(payload));
    const presented = Buffer.from(signature);
    if (payload === '' || expected.length !== presented.length || !timingSafeEqual(expected, presented)) {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    let parsed: { v?: number; a?: number; t?: string; e?: number };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    if (parsed.v !== 1 || typeof parsed.a !== 'number' || typeof parsed.t !== 'string' || typeof parsed.e !== 'number') {
      throw orderError(404, orderErrorCodes.winbackLinkInvalid, orderMessages.winbackLinkInvalid);
    }
    if (parsed.e <= now().getTime()) throw orderError(410, orderErrorCodes.winbackLinkExpired, orderMessages.winbackLinkExpired);
    return { ariaAccountNo: parsed.a, titleCode: parsed.t };
  }

  /** A former subscriber: an own subscription at the title that no longer gives access. */
  async function formerSubscriberOf(reader: Db | Tx, where: { userId?: string; ariaAccountNo?: number }, titleCode: string) {
    const condition = where.userId !== undefined ? eq(account.userId, where.userId) : eq(account.ariaAccountNo, where.ariaAccountNo ?? -1);
    const [row] = await reader
      .select({ subscription, givenName: appUser.givenName, userId: appUser.id })
      .from(subscription)
      .innerJoin(account, eq(account.ariaAccountNo, subscription.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(and(condition, eq(subscription.titleCode, titleCode.toUpperCase())));
    if (!row) return { former: false, active: false, givenName: null, userId: null };
    // A share counts only while its owner's subscription gives access (review finding 1).
    const active = await accessWithOwnerOn(reader, row.subscription, today());
    return { former: !active && row.subscription.sharedFromSubscriptionId === null, active, givenName: row.givenName, userId: row.userId };
  }

  async function hasAccessAt(userId: string, titleCode: string): Promise<boolean> {
    return (await formerSubscriberOf(db, { userId }, titleCode)).active;
  }

  /** Whether `winback` (a link token, or `signed-in`) entitles this user to the winback at the title. */
  async function winbackFor(user: SessionUser, titleCode: string, winback: string | undefined): Promise<boolean> {
    if (!winback) return false;
    if (winback !== 'signed-in') {
      const link = readWinbackToken(winback);
      const own = await accounts.accountOf(user.id);
      if (link.titleCode !== titleCode.toUpperCase() || own?.ariaAccountNo !== link.ariaAccountNo) {
        throw orderError(403, orderErrorCodes.notEligibleForWinback, orderMessages.notEligibleForWinback);
      }
    }
    return (await formerSubscriberOf(db, { userId: user.id }, titleCode)).former;
  }

  return { winbackToken, readWinbackToken, formerSubscriberOf, hasAccessAt, winbackFor };
}

export type Winback = ReturnType<typeof createWinback>;
