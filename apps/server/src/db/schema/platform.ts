import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Fixed-window hit counters of the generic rate limiter (lib/shared-state/rate-limiter.ts)
 * when REDIS_URL is not set: one row per key and window, swept after the window ends.
 */
export const rateLimitCounter = pgTable(
  'rate_limit_counter',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] }), index('rate_limit_counter_expires_idx').on(table.expiresAt)],
);

/**
 * The first answer to a state-changing API call that carried an `Idempotency-Key`
 * (plugins/idempotency.ts) when REDIS_URL is not set. `scope` is user, method, route and key;
 * `fingerprint` the hash of what was asked. A row without `status` is a call still running.
 * Swept after `expires_at`.
 */
export const idempotentRequest = pgTable(
  'idempotent_request',
  {
    scope: text('scope').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('idempotent_request_expires_idx').on(table.expiresAt)],
);

// ---------------------------------------------------------------------------------------
// Paper delivery (modules/delivery): vacation stops, redirects, moves and complaints.
// delivery_address above is the address the subscription started with; moves are
// PERMANENT delivery changes, so the address in use on a day is the newest move that has
// begun (docs/decisions/007-paper-delivery.md).
// ---------------------------------------------------------------------------------------

/**
 * One row per job: the lock that keeps two runs of the same job from overlapping across
 * instances. A run holds it until `leaseUntil` (renewed while it runs); a crashed instance's
 * lease simply runs out.
 */
export const jobState = pgTable('job_state', {
  job: text('job').primaryKey(),
  runningRunId: text('running_run_id'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});

/**
 * Every run of a job, scheduled or by hand. `slot` is the scheduled time bucket (an ISO
 * instant) or `manual:<id>`; UNIQUE (job, slot) is what makes a scheduled slot run once
 * across instances. Also the operators' record: who ran it, how long, how it ended.
 */
export const jobRun = pgTable(
  'job_run',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    slot: text('slot').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'manual'] }).notNull(),
    /** Which process ran it (host:pid), for the operator reading the log. */
    instance: text('instance').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    outcome: text('outcome', { enum: ['running', 'succeeded', 'failed', 'abandoned'] }).notNull(),
    error: text('error'),
    result: jsonb('result'),
  },
  (table) => [uniqueIndex('job_run_slot_idx').on(table.job, table.slot), index('job_run_job_started_idx').on(table.job, table.startedAt)],
);
