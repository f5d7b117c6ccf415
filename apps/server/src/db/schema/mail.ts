import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { appUser } from './users.ts';

/** Every e-mail the portal sends: written in the same transaction as the change that sends it, delivered after. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** The same message as HTML (integrations/mail/templates.ts); null for plain-text mail. */
    html: text('html'),
    /** A second enqueue with the same key adds nothing: one change, one e-mail (ARCHITECTURE "Idempotency"). */
    idempotencyKey: text('idempotency_key').unique(),
    createdAt: createdAt(),
    /** Set once handed to the SMTP server; stays null in the embedded default (read at /_dev/mail). */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    /** Delivery attempts so far; the retry job backs off by them. */
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time: after a failure (backoff), and while one instance is sending it (a lease). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /**
     * The sender, fixed when queued so a retry sends the same headers (ADR 010 "Sender"): the title
     * it is for, its name (the From display name; the address is MAIL_FROM's) and its customer
     * centre (Reply-To). Null on rows from before issue 23: they go out as MAIL_FROM, as then.
     */
    titleCode: text('title_code'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    /** integrations/mail/kinds.ts; an optional kind is not sent to a user who turned it off. */
    kind: text('kind'),
    /** The recipient's login, for an optional kind (whose opt-out is checked again before sending). */
    userId: text('user_id'),
    /** An optional kind's one-click unsubscribe URL (List-Unsubscribe, RFC 8058); null for transactional mail. */
    listUnsubscribe: text('list_unsubscribe'),
  },
  (table) => [index('mail_outbox_unsent_idx').on(table.sentAt, table.createdAt)],
);

/**
 * A kind of optional e-mail (integrations/mail/kinds.ts) a user turned off for one title, by the
 * one-click unsubscribe link (RFC 8058). The mailer does not queue, nor send, that kind to them.
 */
export const mailOptOut = pgTable(
  'mail_opt_out',
  {
    userId: text('user_id')
      .notNull()
      .references(() => appUser.id),
    titleCode: text('title_code').notNull(),
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.titleCode, table.kind] })],
);

// ---------------------------------------------------------------------------------------
// Family sharing (modules/family). The invitations themselves are subscription_member rows
// (kind family); each e-mailed link is a row here, so a withdrawn invitation, a used link
// and a link replaced by a newer one can all be told apart (docs/decisions/010).
// ---------------------------------------------------------------------------------------
