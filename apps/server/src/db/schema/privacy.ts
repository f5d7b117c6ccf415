import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from './columns.ts';
import { appUser } from './users.ts';

/**
 * A data-rights request: `export` (the job builds the zip into `archive`, kept until
 * `expires_at`) or `erasure` (the job erases the person; the row stays as the record that it
 * was done, pointing at the pseudonymised user).
 */
export const dataRequest = pgTable(
  'data_request',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    /** export or erasure. */
    kind: text('kind').notNull(),
    /** pending, ready (export), expired (export), completed (erasure). */
    status: text('status').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    /** Not before this time (erasure: when it is scheduled). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    archive: bytea('archive'),
    sizeBytes: integer('size_bytes'),
    /** Erasure: what the request did at once (the subscriptions it cancelled). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** A job run holds the row until then, so two runners never do the same request. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (table) => [
    index('data_request_user_idx').on(table.userId, table.kind, table.requestedAt),
    index('data_request_due_idx').on(table.kind, table.status, table.dueAt),
    // One pending erasure per user: a second click finds the first.
    uniqueIndex('data_request_one_erasure_idx')
      .on(table.userId)
      .where(sql`kind = 'erasure'`),
    // One pending export per user (issue 20): asking again while one is being made answers that one.
    uniqueIndex('data_request_one_pending_export_idx')
      .on(table.userId)
      .where(sql`kind = 'export' and status = 'pending'`),
  ],
);

// ---------------------------------------------------------------------------------------
// Ordering (modules/ordering): an order is the buyer's intent, priced once; its payment goes
// through the payment engine and its subscription is made in the settling transaction.
// Connecting (modules/ordering/connect): accounts bought elsewhere that a login may take over
// (docs/decisions/014-ordering-and-connect.md).
// ---------------------------------------------------------------------------------------
