import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appUser } from './users.ts';

export const consentChoice = pgTable(
  'consent_choice',
  {
    /** Counts up: the order choices were made in, even within one millisecond. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    analytics: boolean('analytics').notNull(),
    marketing: boolean('marketing').notNull(),
    personalisation: boolean('personalisation').notNull(),
    /** dialog, settings or vendor (packages/domain consentSources). */
    source: text('source').notNull(),
    titleCode: text('title_code'),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('consent_choice_user_idx').on(table.userId, table.id)],
);

// ---------------------------------------------------------------------------------------
// Privacy (modules/consent, modules/privacy): the permissions of the consent pages with
// their history, and data-rights requests — exports (the zip kept 7 days) and erasures
// (docs/decisions/015-privacy-and-data-rights.md).
// ---------------------------------------------------------------------------------------

/** One row per change of one permission (/samtykke1–3); the newest row per permission holds. */
export const consentPermissionChoice = pgTable(
  'consent_permission_choice',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    /** A ConsentPermission of packages/domain/src/consent/consent.ts. */
    permission: text('permission').notNull(),
    granted: boolean('granted').notNull(),
    titleCode: text('title_code'),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('consent_permission_choice_user_idx').on(table.userId, table.permission, table.id)],
);
