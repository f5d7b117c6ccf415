import { eq } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { idpAccount } from '../../db/schema.ts';
import { normaliseEmail } from '@minside/domain';
import { hashPassword } from './password.ts';

export type IdentityAccount = typeof idpAccount.$inferSelect;

export interface IdentityAccountInput {
  /** The OIDC `sub`. Kept when the e-mail already has an account. */
  id: string;
  email: string;
  password: string;
  givenName: string;
  familyName: string;
  phoneNumber?: string | null;
}

/** How e-mails are stored and compared: what a person types, trimmed and lower-cased (the domain's one rule). */
export const normalizeEmail = normaliseEmail;

function drizzleOf(db: Db | Pick<Database, 'db'>): Db {
  return 'db' in db ? db.db : db;
}

/**
 * Creates the provider account for an e-mail, or updates its password and names (seeding,
 * tests, tools). Accepts the drizzle handle or the Database around it.
 */
export async function upsertIdentityAccount(db: Db | Pick<Database, 'db'>, input: IdentityAccountInput): Promise<void> {
  const values = {
    email: normalizeEmail(input.email),
    passwordHash: await hashPassword(input.password),
    givenName: input.givenName,
    familyName: input.familyName,
    phoneNumber: input.phoneNumber ?? null,
    // Seeding, tests and tools vouch for the address themselves.
    emailVerified: true,
  };
  await drizzleOf(db)
    .insert(idpAccount)
    .values({ id: input.id, ...values })
    .onConflictDoUpdate({ target: idpAccount.email, set: values });
}

export async function findIdentityAccountById(db: Db, id: string): Promise<IdentityAccount | undefined> {
  return (await db.select().from(idpAccount).where(eq(idpAccount.id, id)).limit(1))[0];
}

export async function findIdentityAccountByEmail(db: Db, email: string): Promise<IdentityAccount | undefined> {
  return (
    await db
      .select()
      .from(idpAccount)
      .where(eq(idpAccount.email, normalizeEmail(email)))
      .limit(1)
  )[0];
}

/**
 * A new login from a sign-up whose address was proven by its code (signup.ts): verified from
 * the start. Never touches an existing account: returns undefined when the e-mail is taken,
 * decided by the unique index, so two sign-ups at once cannot both win.
 */
export async function createVerifiedIdentityAccount(
  db: Pick<Db, 'insert'>,
  input: { id: string; email: string; passwordHash: string; givenName: string; familyName: string },
): Promise<IdentityAccount | undefined> {
  const [created] = await db
    .insert(idpAccount)
    .values({ ...input, email: normalizeEmail(input.email), emailVerified: true, phoneNumber: null })
    .onConflictDoNothing({ target: idpAccount.email })
    .returning();
  return created;
}
