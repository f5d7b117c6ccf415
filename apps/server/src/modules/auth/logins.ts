import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import { authErrorCodes, authErrorMessages, type LoginIssuer as LoginIssuerDto, type ProfileLogins } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { appUser, profileFieldSource, userLogin } from '../../db/schema.ts';
import type { ClaimProfile } from '../../config/claim-profiles.ts';
import type { RelyingParty, VerifiedLogin } from '../../identity/relying-party.ts';
import { AppError } from '../../lib/app-error.ts';
import { applyIssuerClaims } from '../profile/index.ts';

/**
 * The issuers a person can log in with (issue 24), the first the main one (OIDC_*): the group's
 * account, or Vipps where Vipps is the only one. A user is reached by any login linked to them in
 * `user_login`; see docs/decisions/028.
 */
export interface LoginIssuer {
  key: string;
  /** "Vipps", "kontoen din": the login page's button and the profile's "fra …". */
  label: string;
  claimProfile: ClaimProfile;
  relyingParty: RelyingParty;
}

type UserRow = typeof appUser.$inferSelect;

export function issuerDto(issuer: LoginIssuer): LoginIssuerDto {
  // Only Vipps' birthdate counts as verified (identity/claims.ts): a group account may let people type theirs.
  const vipps = issuer.claimProfile === 'vipps';
  return { key: issuer.key, label: issuer.label, style: vipps ? 'vipps' : 'oidc', verifiesAge: vipps };
}

/** The user's login with `issuerKey` among all their logins, or why it may not be unlinked: not linked, or the last way in. */
function loginToUnlink<Row extends { issuer: string }>(rows: Row[], issuerKey: string): Row {
  const found = rows.find((row) => row.issuer === issuerKey);
  if (!found) throw new AppError(404, authErrorCodes.loginNotLinked, authErrorMessages.loginNotLinked);
  if (rows.length < 2) throw new AppError(409, authErrorCodes.lastLogin, authErrorMessages.lastLogin);
  return found;
}

export function createUserLogins(db: Db, issuers: readonly LoginIssuer[], now: () => Date) {
  const mainKey: string = issuers[0]?.key ?? '';
  if (mainKey === '') throw new Error('at least one login issuer is required');

  async function linkedUser(issuer: string, subject: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select({ user: appUser })
      .from(userLogin)
      .innerJoin(appUser, eq(appUser.id, userLogin.userId))
      .where(and(eq(userLogin.issuer, issuer), eq(userLogin.subject, subject)));
    return row?.user;
  }

  /** Whether the user has a login with the main issuer: its name and e-mail address then count, not a second issuer's. */
  async function hasMainLogin(userId: string): Promise<boolean> {
    const [row] = await db
      .select({ userId: userLogin.userId })
      .from(userLogin)
      .where(and(eq(userLogin.userId, userId), eq(userLogin.issuer, mainKey)));
    return row !== undefined;
  }

  /**
   * The one user an issuer's *verified* word points at, for a first login with that issuer: the same
   * proven e-mail address, or the same phone number an issuer verified for them. Never a user who
   * already has another login with this issuer, never one of two: then a new user is made, and the
   * person links the logins themselves on the profile page.
   */
  async function matchByVerifiedContact(loginIssuer: LoginIssuer, login: VerifiedLogin): Promise<UserRow | undefined> {
    const issuer = loginIssuer.key;
    const candidates = new Map<string, UserRow>();
    if (login.email && login.emailVerified) {
      const rows = await db
        .select()
        .from(appUser)
        .where(and(eq(appUser.email, login.email), isNotNull(appUser.emailVerifiedAt)));
      for (const row of rows) candidates.set(row.id, row);
    }
    if (login.phoneNumber && login.phoneVerified) {
      const rows = await db
        .select({ user: appUser })
        .from(appUser)
        // A number this same issuer verified belongs to a login of it that was unlinked (or never
        // linked): not a reason to link again. Another issuer's word is.
        .innerJoin(
          profileFieldSource,
          and(eq(profileFieldSource.userId, appUser.id), eq(profileFieldSource.field, 'phoneNumber'), eq(profileFieldSource.verified, true), ne(profileFieldSource.issuerLabel, loginIssuer.label)),
        )
        .where(eq(appUser.phoneNumber, login.phoneNumber));
      for (const row of rows) candidates.set(row.user.id, row.user);
    }
    if (candidates.size !== 1) return undefined;
    const [candidate] = candidates.values();
    if (!candidate) return undefined;
    const [taken] = await db
      .select({ subject: userLogin.subject })
      .from(userLogin)
      .where(and(eq(userLogin.userId, candidate.id), eq(userLogin.issuer, issuer)));
    return taken ? undefined : candidate;
  }

  /**
   * Links the login to the user unless it already reaches someone (a race: the first wins) or the
   * user already has another login with this issuer; answers whom the login reaches now, if anyone.
   */
  async function tryLink(userId: string, issuer: string, subject: string): Promise<UserRow | undefined> {
    await db.insert(userLogin).values({ issuer, subject, userId, linkedAt: now() }).onConflictDoNothing();
    return linkedUser(issuer, subject);
  }

  async function hasAnyLogin(userId: string): Promise<boolean> {
    const [row] = await db.select({ issuer: userLogin.issuer }).from(userLogin).where(eq(userLogin.userId, userId)).limit(1);
    return row !== undefined;
  }

  async function applyClaims(user: UserRow, issuer: LoginIssuer, login: VerifiedLogin): Promise<UserRow> {
    const role = issuer.key === mainKey || !(await hasMainLogin(user.id)) ? 'main' : 'second';
    return applyIssuerClaims(db, user, login, issuer.label, now(), role);
  }

  return {
    issuers,

    issuer(key: string | null | undefined): LoginIssuer | undefined {
      return issuers.find((issuer) => issuer.key === key);
    },

    /**
     * The portal's user for a login: the one its (issuer, sub) is linked to; for the main issuer,
     * the user of that `sub` from before logins were kept per issuer; the one user the issuer's
     * verified e-mail or phone number points at; or a new user. Then brought up to date with what
     * the issuer says (modules/profile/provenance.ts).
     */
    async userFor(issuer: LoginIssuer, login: VerifiedLogin): Promise<UserRow> {
      let user = await linkedUser(issuer.key, login.subject);
      // A user from before logins were kept per issuer (no login rows at all): theirs by the old rule.
      // A user with login rows is reached only through them — an unlinked login stays unlinked.
      if (!user && issuer.key === mainKey) {
        const [legacy] = await db.select().from(appUser).where(eq(appUser.identitySub, login.subject));
        if (legacy && !(await hasAnyLogin(legacy.id))) user = await tryLink(legacy.id, issuer.key, login.subject);
      }
      if (!user) {
        const match = await matchByVerifiedContact(issuer, login);
        if (match) user = await tryLink(match.id, issuer.key, login.subject);
      }
      if (!user) {
        // The identity id (SPEC §3) is the main issuer's `sub`; a user who came by another issuer
        // gets one that names it. Taken already (a user this login was unlinked from): a new one.
        const base = issuer.key === mainKey ? login.subject : `${issuer.key}:${login.subject}`;
        let [created] = await db.insert(appUser).values({ id: randomUUID(), identitySub: base, email: login.email }).onConflictDoNothing({ target: appUser.identitySub }).returning();
        if (!created)
          [created] = await db
            .insert(appUser)
            .values({ id: randomUUID(), identitySub: `${base}#${randomUUID()}`, email: login.email })
            .returning();
        if (!created) throw new Error('user row missing right after insert');
        // Two first logins at once: the login row decides which of the two new users it reaches.
        user = (await tryLink(created.id, issuer.key, login.subject)) ?? created;
      }
      return applyClaims(user, issuer, login);
    },

    /**
     * Adds a login to a signed-in user ("Koble til Vipps", "Bekreft alderen med Vipps"): refused when
     * it reaches another user, or when the user has another account with the same issuer. Linking
     * the same login again brings its claims up to date (a consent given this time).
     */
    async linkTo(user: UserRow, issuer: LoginIssuer, login: VerifiedLogin): Promise<UserRow> {
      const owner = await linkedUser(issuer.key, login.subject);
      if (owner && owner.id !== user.id) throw new AppError(409, authErrorCodes.loginLinkedElsewhere, authErrorMessages.loginLinkedElsewhere);
      if (!owner) {
        // Checked by the insert itself, so two links at once cannot both pass: whom it reaches afterwards decides.
        const reached = await tryLink(user.id, issuer.key, login.subject);
        if (!reached) throw new AppError(409, authErrorCodes.issuerAlreadyLinked, authErrorMessages.issuerAlreadyLinked);
        if (reached.id !== user.id) throw new AppError(409, authErrorCodes.loginLinkedElsewhere, authErrorMessages.loginLinkedElsewhere);
      }
      return applyClaims(user, issuer, login);
    },

    /** The profile's list: each configured issuer, linked or not. */
    async loginsOf(userId: string): Promise<ProfileLogins> {
      const rows = await db.select().from(userLogin).where(eq(userLogin.userId, userId)).orderBy(asc(userLogin.linkedAt));
      const linked = new Map(rows.map((row) => [row.issuer, row]));
      return {
        logins: issuers.map((issuer) => ({
          ...issuerDto(issuer),
          linkedAt: linked.get(issuer.key)?.linkedAt.toISOString() ?? null,
          canUnlink: linked.has(issuer.key) && rows.length > 1,
        })),
      };
    },

    /**
     * Unlinks one login. The user keeps at least one way in; what that issuer verified stays on
     * the profile, as verified then (ADR 028). Answers the login that was unlinked, whose
     * sessions the caller ends.
     */
    /** The login `unlink` would remove, refused for the same reasons (not linked, the last one), without removing it. */
    async unlinkable(userId: string, issuerKey: string): Promise<{ issuer: string; subject: string }> {
      const { issuer, subject } = loginToUnlink(await db.select().from(userLogin).where(eq(userLogin.userId, userId)), issuerKey);
      return { issuer, subject };
    },

    async unlink(userId: string, issuerKey: string): Promise<{ issuer: string; subject: string }> {
      return db.transaction(async (tx) => {
        // Locked in a stable order, so two unlinks at once cannot both see the other login left.
        const rows = await tx.select().from(userLogin).where(eq(userLogin.userId, userId)).orderBy(asc(userLogin.issuer)).for('update');
        const unlinked = loginToUnlink(rows, issuerKey);
        await tx.delete(userLogin).where(and(eq(userLogin.userId, userId), eq(userLogin.issuer, issuerKey)));
        return { issuer: unlinked.issuer, subject: unlinked.subject };
      });
    },
  };
}
