import { and, eq } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { isLockedField, profileFields, type ProfileField, type ProfileFieldSource, type ProfileFieldSourceKind } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { appUser, profileFieldSource } from '../../db/schema.ts';
import type { VerifiedLogin } from '../../identity/relying-party.ts';

/**
 * Where a profile's fields came from (issue 24), and the rule for what a login may change:
 * - a value the issuer verified (its birthdate, a proven e-mail address or phone number) is taken
 *   at every login and locks the field against edits on Min Side — the page says where to change it;
 * - a value it did not verify (a name, an unproven number) is taken unless the user has changed
 *   the field here since: the user's own word then stands;
 * - a claim the issuer did not give (no scope, consent withheld) changes nothing;
 * - the e-mail address is the login's: it always follows the issuer, proven or not, and is trusted
 *   (invitations, company domains) only when proven.
 */

type Reader = Pick<Db, 'select'>;
type UserRow = typeof appUser.$inferSelect;

export type ProfileSources = Record<ProfileField, ProfileFieldSource | null>;

export async function sourcesOf(reader: Reader, userId: string): Promise<ProfileSources> {
  const rows = await reader.select().from(profileFieldSource).where(eq(profileFieldSource.userId, userId));
  const sources = Object.fromEntries(profileFields.map((field) => [field, null])) as ProfileSources;
  for (const row of rows) {
    if (!(profileFields as readonly string[]).includes(row.field)) continue;
    sources[row.field as ProfileField] = { source: row.source as ProfileFieldSourceKind, issuerLabel: row.issuerLabel, verified: row.verified, recordedAt: row.recordedAt.toISOString() };
  }
  return sources;
}

export async function recordSource(tx: Tx | Db, userId: string, field: ProfileField, source: Omit<ProfileFieldSource, 'recordedAt'>, at: Date): Promise<void> {
  const values = { userId, field, source: source.source, issuerLabel: source.issuerLabel, verified: source.verified, recordedAt: at };
  await tx
    .insert(profileFieldSource)
    .values(values)
    .onConflictDoUpdate({ target: [profileFieldSource.userId, profileFieldSource.field], set: values });
}

/**
 * Takes what a login's issuer said into the user's profile, by the rule above. Returns the row as it now is.
 * `login`: `main` for the user's main login; `second` for a second login beside it (issue 24),
 * whose unverified values (a name) only fill an empty field, and whose address replaces only one
 * the user has not proven, and only when that issuer verified it — two issuers must not take
 * turns with the name or with where receipts go. Verified values are taken from either.
 */
export async function applyIssuerClaims(db: Db, user: UserRow, login: VerifiedLogin, issuerLabel: string, at: Date, role: 'main' | 'second' = 'main'): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const sources = await sourcesOf(tx, user.id);
    const changes: Partial<typeof appUser.$inferInsert> = {};
    const take = async (field: Exclude<ProfileField, 'email'>, value: string | null, verified: boolean) => {
      if (value === null) return;
      // The user's own value — an edit (a cleared field too), a declaration, the customer centre's
      // correction, or one typed before provenance was kept — outranks an unverified claim; the
      // issuer's earlier word does not. A value equal to the claim came from the issuer (at a login
      // before provenance was kept; numbers compared as numbers, as older rows kept the issuer's spelling).
      const source = sources[field];
      const theirs = source !== null && source.source !== 'ISSUER';
      const issuerOwned = source?.source === 'ISSUER' || (source === null && sameValue(field, user[field], value));
      if (!verified && (theirs || (!issuerOwned && user[field]))) return;
      if (!verified && role === 'second' && user[field]) return;
      if (user[field] !== value) changes[field] = value;
      await recordSource(tx, user.id, field, { source: 'ISSUER', issuerLabel, verified }, at);
    };
    await take('givenName', login.givenName, false);
    await take('familyName', login.familyName, false);
    await take('phoneNumber', login.phoneNumber, login.phoneVerified);
    await take('birthdate', login.birthdate, login.birthdateVerified);

    if (role === 'second' && (user.emailVerifiedAt !== null || !login.emailVerified)) {
      // The main login's proven address stands.
    } else if (login.email && login.email !== user.email) {
      changes.email = login.email;
      changes.emailVerifiedAt = login.emailVerified ? at : null;
    } else if (login.emailVerified && user.emailVerifiedAt === null) {
      // Since when the address is proven: the data export lists mail to it only from then on (issue 20).
      changes.emailVerifiedAt = at;
    }
    if (login.email && (changes.email !== undefined || role === 'main')) await recordSource(tx, user.id, 'email', { source: 'ISSUER', issuerLabel, verified: login.emailVerified }, at);

    if (Object.keys(changes).length === 0) return user;
    const [updated] = await tx.update(appUser).set(changes).where(eq(appUser.id, user.id)).returning();
    return updated ?? user;
  });
}

function sameValue(field: ProfileField, stored: string | null, claimed: string): boolean {
  if (stored === null) return false;
  if (field !== 'phoneNumber') return stored === claimed;
  return parsePhoneNumberFromString(stored, 'NO')?.number === claimed;
}

/** The fields of `requested` that differ from the user's and are locked: an edit the page should not have offered. */
export function lockedChanges(user: UserRow, sources: ProfileSources, requested: Partial<Record<ProfileField, string | null>>): ProfileField[] {
  return (Object.keys(requested) as ProfileField[]).filter((field) => requested[field] !== user[field] && isLockedField(sources[field]));
}

/** The fields the user changed on Min Side become theirs: "oppgitt av deg". */
export async function recordUserEdits(tx: Tx | Db, user: UserRow, requested: Partial<Record<ProfileField, string | null>>, at: Date): Promise<void> {
  for (const field of Object.keys(requested) as ProfileField[]) {
    if (requested[field] === user[field]) continue;
    await recordSource(tx, user.id, field, { source: 'USER', issuerLabel: null, verified: false }, at);
  }
}

/** Locks the birthdate the buyer gave for a purchase with an age limit (SPEC §5): later edits cannot reopen or close an offer. */
export async function declareBirthdate(tx: Tx, userId: string, birthdate: string, at: Date): Promise<void> {
  const [current] = await tx
    .select()
    .from(profileFieldSource)
    .where(and(eq(profileFieldSource.userId, userId), eq(profileFieldSource.field, 'birthdate')));
  // Locked already: the issuer's verified word, an earlier declaration, or the customer centre's correction stands.
  if (current && ((current.source === 'ISSUER' && current.verified) || current.source === 'DECLARED' || current.source === 'CUSTOMER_SERVICE')) return;
  await tx.update(appUser).set({ birthdate }).where(eq(appUser.id, userId));
  await recordSource(tx, userId, 'birthdate', { source: 'DECLARED', issuerLabel: null, verified: false }, at);
}
