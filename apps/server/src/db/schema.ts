/**
 * The database schema, one file per area under `schema/` (issue 26.2); this file is what
 * drizzle-kit reads (drizzle.config.ts) and what the code imports, so a table's area is its
 * file while every import stays `db/schema.ts`. A new table goes into its area's file.
 */
export * from './schema/titles.ts';
export * from './schema/identity-provider.ts';
export * from './schema/users.ts';
export * from './schema/platform.ts';
export * from './schema/subscription.ts';
export * from './schema/family.ts';
export * from './schema/delivery.ts';
export * from './schema/student.ts';
export * from './schema/billing.ts';
export * from './schema/bank.ts';
export * from './schema/mail.ts';
export * from './schema/consent.ts';
export * from './schema/privacy.ts';
export * from './schema/ordering.ts';
