import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** The provider's user accounts: e-mail and a scrypt password hash. `id` is the OIDC `sub`. */
export const idpAccount = pgTable('idp_account', {
  id: text('id').primaryKey(),
  /** Stored lower-cased; the login form lower-cases what is typed. */
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(true),
  passwordHash: text('password_hash').notNull(),
  givenName: text('given_name').notNull(),
  familyName: text('family_name').notNull(),
  phoneNumber: text('phone_number'),
  createdAt: createdAt(),
});

/**
 * A sign-up waiting for the code mailed to its address (issue 20): nothing of it is a login
 * until the code is typed in the same login interaction (`interactionUid`), when the
 * `idp_account` is made from it. `mailed` false: the address had a login already, so no
 * code went out (its owner got a notice instead) and every code is wrong. Rows die at
 * `expiresAt` and are swept.
 */
export const idpSignup = pgTable(
  'idp_signup',
  {
    id: text('id').primaryKey(),
    interactionUid: text('interaction_uid').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    codeHash: text('code_hash').notNull(),
    mailed: boolean('mailed').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('idp_signup_expires_idx').on(table.expiresAt)],
);

/**
 * "Glemt passord?" at the embedded provider: a six-digit code mailed to the address, typed in the
 * same login interaction (`interactionUid`) with the new password. A row is made for every
 * request, whether or not the address has a login (`accountId` null, `mailed` false: its
 * owner got a notice instead of a code and every code is wrong), so the answer and the limits
 * say nothing about who has a login. Kept a day for the limits per address, then swept.
 */
export const idpPasswordReset = pgTable(
  'idp_password_reset',
  {
    id: text('id').primaryKey(),
    interactionUid: text('interaction_uid').notNull(),
    email: text('email').notNull(),
    accountId: text('account_id'),
    codeHash: text('code_hash').notNull(),
    mailed: boolean('mailed').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  // email_created serves the limits per address; created the daily sweep.
  (table) => [index('idp_password_reset_email_created_idx').on(table.email, table.createdAt), index('idp_password_reset_created_idx').on(table.createdAt)],
);

/** oidc-provider's storage adapter: one row per model instance (sessions, codes, grants …). */
export const idpPayload = pgTable(
  'idp_payload',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('idp_payload_grant_id_idx').on(table.grantId),
    index('idp_payload_uid_idx').on(table.uid),
    index('idp_payload_expires_at_idx').on(table.expiresAt),
  ],
);

/** The provider's persistent secrets: signing keys (JWKS) and cookie keys, created once. */
export const idpSecret = pgTable('idp_secret', {
  name: text('name').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: createdAt(),
});

/** Failed password attempts, per account e-mail and per client IP: the login throttle counts these. */
export const idpLoginFailure = pgTable(
  'idp_login_failure',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `email:<address>` or `ip:<address>`. */
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // key_at serves the throttle's count; at alone the sweep of old failures on every login (issue 11: no full index scans).
  (table) => [index('idp_login_failure_key_at_idx').on(table.key, table.at), index('idp_login_failure_at_idx').on(table.at)],
);

// ---------------------------------------------------------------------------------------
// The portal: users known by their identity `sub`, their accounts and subscriptions.
// ---------------------------------------------------------------------------------------
