import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-title maintenance switch. MAINTENANCE=on in the environment takes every title down
 * at once; a row here takes one title down (an operator tool sets it).
 */
export const titleMaintenance = pgTable('title_maintenance', {
  titleCode: text('title_code').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  message: text('message'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
