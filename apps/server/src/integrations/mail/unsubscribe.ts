import type { Db } from '../../db/client.ts';
import { mailOptOut } from '../../db/schema.ts';
import { readSignedToken, signToken } from '../../lib/signed-token.ts';
import { ensureBillingSecret } from '../../integrations/payment/secrets.ts';
import { isOptionalMailKind, type OptionalMailKind } from './kinds.ts';

/**
 * One-click unsubscribe (RFC 8058) for optional kinds of e-mail (kinds.ts). Every such message
 * carries `List-Unsubscribe: <{title's Min Side}/e-post/avmelding?token=…>` and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. The token is signed, not stored, and
 * names whose choice it changes: one user, one title, one kind. It does not expire: an
 * unsubscribe link must keep working, and all it can do is turn a notice off.
 */
export const UNSUBSCRIBE_PATH = '/e-post/avmelding';
const PURPOSE = 'mail-unsubscribe';

export interface UnsubscribeTarget {
  userId: string;
  titleCode: string;
  kind: OptionalMailKind;
}

export interface UnsubscribeLinks {
  /** The HMAC key (`billing_secret` row `mail_unsubscribe_hmac`, shared by every instance). */
  secret: string;
  /** The title's Min Side origin, where the link leads (lib/portal-url.ts). */
  origin: (titleCode: string) => string;
}

/** The key of the unsubscribe links: made once and kept in the database, so every instance signs alike. */
export function mailUnsubscribeSecret(db: Db): Promise<string> {
  return ensureBillingSecret(db, 'mail_unsubscribe_hmac');
}

function unsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  return signToken(secret, PURPOSE, { v: 1, u: target.userId, t: target.titleCode, k: target.kind });
}

export function unsubscribeUrl(links: UnsubscribeLinks, target: UnsubscribeTarget): string {
  return `${links.origin(target.titleCode).replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(links.secret, target)}`;
}

/** The target of a token this secret signed; `undefined` for a forged, cut or unknown one. */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | undefined {
  const payload = readSignedToken(secret, PURPOSE, token) as { v?: unknown; u?: unknown; t?: unknown; k?: unknown } | undefined;
  if (!payload || payload.v !== 1 || typeof payload.u !== 'string' || typeof payload.t !== 'string' || typeof payload.k !== 'string' || !isOptionalMailKind(payload.k)) return undefined;
  return { userId: payload.u, titleCode: payload.t, kind: payload.k };
}

/** Turns the kind off for the user at the title; doing it again changes nothing. */
export async function turnOff(db: Db, target: UnsubscribeTarget, at: Date): Promise<void> {
  await db.insert(mailOptOut).values({ userId: target.userId, titleCode: target.titleCode, kind: target.kind, createdAt: at }).onConflictDoNothing();
}
