import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appUser, userLogin } from '../db/schema.ts';

// Who a person is at the main issuer (docs/decisions/028): read by the login (modules/auth), the
// profile's password and e-mail changes and the data export and erasure (modules/privacy), so it
// sits below the areas rather than in one of them.

/**
 * The user's subject at the main issuer: with the embedded provider, the id of their
 * `idp_account` (password, e-mail to sign in with). Not `identity_sub`, which for a user who came
 * by Vipps first is `vipps:{sub}` however many logins they link later. A user with no login rows
 * at all (from before logins were kept) has theirs in `identity_sub`; a user with logins but none
 * with the main issuer has none: null.
 */
export async function mainSubjectOf(db: Pick<Db, 'select'>, mainKey: string, user: { id: string; identitySub: string }): Promise<string | null> {
  const rows = await db.select({ issuer: userLogin.issuer, subject: userLogin.subject }).from(userLogin).where(eq(userLogin.userId, user.id));
  if (rows.length === 0) return user.identitySub;
  return rows.find((row) => row.issuer === mainKey)?.subject ?? null;
}

/**
 * The user a subject of the main issuer reaches (a password reset at the embedded provider ends
 * their sessions): through `user_login`, or by `identity_sub` only for a user with no login rows,
 * the rule `userFor` (modules/auth/logins.ts) applies.
 */
export async function userIdOfMainSubject(db: Pick<Db, 'select'>, mainKey: string, subject: string): Promise<string | undefined> {
  const [linked] = await db
    .select({ userId: userLogin.userId })
    .from(userLogin)
    .where(and(eq(userLogin.issuer, mainKey), eq(userLogin.subject, subject)));
  if (linked) return linked.userId;
  const [legacy] = await db.select({ id: appUser.id }).from(appUser).where(eq(appUser.identitySub, subject));
  if (!legacy) return undefined;
  const [anyLogin] = await db.select({ issuer: userLogin.issuer }).from(userLogin).where(eq(userLogin.userId, legacy.id)).limit(1);
  return anyLogin ? undefined : legacy.id;
}
