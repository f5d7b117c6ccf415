import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { appUser } from './users.ts';

/** A verified student e-mail address (SPEC §5 Student). */
export const studentVerification = pgTable('student_verification', {
  userId: text('user_id')
    .primaryKey()
    .references(() => appUser.id),
  studentEmail: text('student_email').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  /** When the yearly re-verification reminder went out for the current verification (modules/student). */
  reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
});

// ---------------------------------------------------------------------------------------
// Relying party: login attempts and the portal's own server-side sessions.
// ---------------------------------------------------------------------------------------
