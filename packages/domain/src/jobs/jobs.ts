import { z } from 'zod';

/**
 * Scheduled jobs as operators see them (`GET /api/operator/jobs`,
 * `POST /api/operator/jobs/{name}/run`, `npm run admin -- jobs`; docs/decisions/017).
 */
const jobOutcomes = ['running', 'succeeded', 'failed', 'abandoned'] as const;

const jobNamePattern = /^[a-z][a-z0-9-]{0,63}$/;
export const jobNameParamsSchema = z.object({ name: z.string().regex(jobNamePattern) });

export const jobRunSchema = z.object({
  id: z.string(),
  job: z.string(),
  /** The scheduled time bucket (ISO instant), or `manual:<id>` for a run by hand. */
  slot: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  instance: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  outcome: z.enum(jobOutcomes),
  error: z.string().nullable(),
  /** What the job function returned (its report), as JSON. */
  result: z.unknown(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

const jobStatusSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** e.g. "every 5m" or "daily 03:00 Europe/Oslo". */
  schedule: z.string(),
  nextRunAt: z.string(),
  /** A run holds the job's lease now (on any instance). */
  running: z.boolean(),
  lastRun: jobRunSchema.nullable(),
});
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const jobListSchema = z.object({ jobs: z.array(jobStatusSchema) });
