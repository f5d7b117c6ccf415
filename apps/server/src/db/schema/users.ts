import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** SPEC §3 User. `identitySub` is the identity id (`spidId` when the provider is spid). */
export const appUser = pgTable(
  'app_user',
  {
    id: text('id').primaryKey(),
    /** The OIDC `sub` of the configured issuer. One issuer per deployment, so it is unique. */
    identitySub: text('identity_sub').notNull().unique(),
    email: text('email').notNull(),
    givenName: text('given_name').notNull().default(''),
    familyName: text('family_name').notNull().default(''),
    phoneNumber: text('phone_number'),
    birthdate: date('birthdate', { mode: 'string' }),
    /**
     * Since when this user has proven `email` (a sign-up code, a confirmed e-mail change, an
     * issuer's email_verified). Null: never. The data export lists mail to the address only
     * from then on (issue 20): mail to the same string before that was not theirs.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('app_user_email_idx').on(table.email)],
);

/**
 * The logins that reach a user (issue 24): one row per issuer and subject. A person may sign in with
 * the group's account and with Vipps and reach the same subscriber; `issuer` is the configured key
 * (`account`, `vipps`), not the issuer's URL, so a moved issuer keeps its people.
 */
export const userLogin = pgTable(
  'user_login',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.issuer, table.subject] }),
    // One login per issuer and user: a second Vipps account is linked only after the first is unlinked.
    uniqueIndex('user_login_user_issuer_idx').on(table.userId, table.issuer),
  ],
);

/**
 * Where each of a user's profile fields came from (issue 24): the issuer (with its word on whether
 * it verified the value), the user, the user's own declaration at a purchase with an age limit,
 * or customer service. A verified or declared field is locked against the user's own edits. No
 * row: the user's own (typed before provenance was kept).
 */
export const profileFieldSource = pgTable(
  'profile_field_source',
  {
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    /** givenName, familyName, email, phoneNumber or birthdate. */
    field: text('field').notNull(),
    /** ISSUER, USER, DECLARED or CUSTOMER_SERVICE. */
    source: text('source').notNull(),
    /** The issuer as the profile names it ("Vipps"), for ISSUER. */
    issuerLabel: text('issuer_label'),
    verified: boolean('verified').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.field] })],
);

/**
 * One login started by `GET /api/loginToken`: the one-time token (stored hashed, it is the
 * OIDC state), the browser it is bound to, and the PKCE verifier and nonce.
 */
export const loginAttempt = pgTable(
  'login_attempt',
  {
    stateHash: text('state_hash').primaryKey(),
    browserBindingHash: text('browser_binding_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    returnTo: text('return_to').notNull(),
    titleCode: text('title_code').notNull(),
    /** The issuer's key (issue 24); null until the person picks one on the portal's login page. */
    issuer: text('issuer'),
    /** LOGIN, or LINK: a signed-in user adds this issuer's login to their own (and with it, its verified claims). */
    purpose: text('purpose').notNull().default('LOGIN'),
    /** For LINK: the user who started it; the login completes only in that user's session. */
    linkUserId: text('link_user_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // The sweep of old attempts deletes by expiry.
  (table) => [index('login_attempt_expires_idx').on(table.expiresAt)],
);

/** A signed-in browser. The cookie holds a random id; only its SHA-256 is stored. */
export const userSession = pgTable(
  'user_session',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    /** Kept for the provider's end-session call (id_token_hint). */
    idToken: text('id_token').notNull(),
    /**
     * The login that opened the session (`user_login` issuer key and subject): unlinking it ends
     * the sessions it opened. Null for sessions from before they were recorded.
     */
    issuer: text('issuer'),
    subject: text('subject'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('user_session_user_idx').on(table.userId), index('user_session_expires_idx').on(table.expiresAt)],
);

/** An e-mail change waiting for the link sent to the new address. Only the token's SHA-256 is kept. */
export const emailChange = pgTable(
  'email_change',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    newEmail: text('new_email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (table) => [index('email_change_user_idx').on(table.userId)],
);

/**
 * A six-digit code sent to a student or work e-mail address. Only a salted SHA-256 of the
 * code is kept; a new code voids the earlier one; rows stay for the send rate limit.
 */
export const verificationCode = pgTable(
  'verification_code',
  {
    id: text('id').primaryKey(),
    /** student or business. */
    purpose: text('purpose').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    /** The address the code was sent to, lower-case. */
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Replaced by a newer code, or too many wrong tries. */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
  },
  (table) => [index('verification_code_user_idx').on(table.userId, table.purpose, table.createdAt)],
);

// ---------------------------------------------------------------------------------------
// Consent (modules/consent): every choice a signed-in user made, kept as history; the
// newest row is the current choice (docs/decisions/012-consent-analytics-monitoring.md).
// ---------------------------------------------------------------------------------------
