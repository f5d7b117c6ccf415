import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * The title catalogue as operators stored it (ADR 019): one row per version, the highest is
 * the active one. Without rows the server uses TITLES_FILE or the built-in data. The version
 * is the primary key, so two operators storing "the next version" at once cannot both win.
 */
export const titleCatalogueVersion = pgTable('title_catalogue_version', {
  version: integer('version').primaryKey(),
  /** The raw catalogue (the titles.json shape, defaults not applied), as `catalogue export` writes it. */
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  /** What made it, e.g. "import titles.json" or "contacts set ADR". */
  source: text('source').notNull(),
  /** The difference to the version before, one line per change, as the command printed it. */
  changes: jsonb('changes').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------
// Embedded identity provider (apps/server/src/identity/provider). A separate system in
// spirit: the portal's own tables never join these; they meet only through the OIDC `sub`.
// ---------------------------------------------------------------------------------------
