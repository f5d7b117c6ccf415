import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRun, JobStatus } from '@minside/domain';
import type { Db } from '../db/client.ts';
import { jobRun, jobState } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import type { Schedule } from '../config/schedule.ts';
import { currentSlot, describeSchedule, nextSlot } from './schedule.ts';

export interface JobDefinition {
  name: string;
  /** One line for operators (`npm run admin -- jobs`). */
  description: string;
  schedule: Schedule;
  /** How long a run holds the job before another instance may take over; renewed while it runs. */
  leaseMs?: number;
  /** The job function; its return value is stored as the run's result. */
  run: () => Promise<unknown>;
}

export interface JobRunnerDeps {
  db: Db;
  jobs: readonly JobDefinition[];
  now: () => Date;
  log: FastifyBaseLogger;
  /** Names this process in `job_run.instance`; host:pid by default. */
  instance?: string;
  /** The longest the loop sleeps, so a busy job is retried and a changed clock noticed. */
  maxSleepMs?: number;
}

type Claim = { kind: 'claimed'; id: string; slot: string; startedAt: Date } | { kind: 'taken' } | { kind: 'busy' };

const DEFAULT_LEASE_MS = 10 * 60_000;

/**
 * Runs registered jobs on their schedules, each scheduled slot once across all instances
 * (docs/decisions/017). A run is claimed in one transaction: the job's `job_state` row is
 * locked (FOR UPDATE), the slot must have no `job_run` row yet (UNIQUE (job, slot)), and no
 * other run may hold the job's lease. So the same slot never runs twice and the same job
 * never runs twice at once, on PGlite and PostgreSQL alike.
 */
export function createJobRunner({ db, jobs, now, log, instance = `${hostname()}:${process.pid}`, maxSleepMs = 1_000 }: JobRunnerDeps) {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  if (byName.size !== jobs.length) throw new Error('two jobs have the same name');
  /** The slot this process last settled per job (claimed or found taken): no query until the next one. */
  const settledSlot = new Map<string, string>();
  const running = new Map<string, Promise<JobRun>>();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let started = false;
  let stopped = false;

  async function claim(job: JobDefinition, slot: string, trigger: 'schedule' | 'manual'): Promise<Claim> {
    return db.transaction(async (tx) => {
      const at = now();
      await tx.insert(jobState).values({ job: job.name }).onConflictDoNothing();
      const [state] = await tx.select().from(jobState).where(eq(jobState.job, job.name)).for('update');
      if (trigger === 'schedule') {
        const [taken] = await tx
          .select({ id: jobRun.id })
          .from(jobRun)
          .where(and(eq(jobRun.job, job.name), eq(jobRun.slot, slot)));
        if (taken) return { kind: 'taken' };
      }
      if (state?.leaseUntil && state.leaseUntil.getTime() > at.getTime()) return { kind: 'busy' };
      if (state?.runningRunId) {
        // The lease ran out without the run finishing: its process died or hung.
        await tx
          .update(jobRun)
          .set({ outcome: 'abandoned', finishedAt: at, error: 'lease ran out before the run finished (its instance stopped or hung)' })
          .where(and(eq(jobRun.id, state.runningRunId), eq(jobRun.outcome, 'running')));
      }
      const id = randomUUID();
      await tx.insert(jobRun).values({ id, job: job.name, slot, trigger, instance, startedAt: at, outcome: 'running' });
      await tx
        .update(jobState)
        .set({ runningRunId: id, leaseUntil: new Date(at.getTime() + (job.leaseMs ?? DEFAULT_LEASE_MS)) })
        .where(eq(jobState.job, job.name));
      return { kind: 'claimed', id, slot, startedAt: at };
    });
  }

  async function execute(job: JobDefinition, claimed: Extract<Claim, { kind: 'claimed' }>): Promise<JobRun> {
    const leaseMs = job.leaseMs ?? DEFAULT_LEASE_MS;
    const renew = setInterval(
      () => {
        db.update(jobState)
          .set({ leaseUntil: new Date(now().getTime() + leaseMs) })
          .where(and(eq(jobState.job, job.name), eq(jobState.runningRunId, claimed.id)))
          .catch((error: unknown) => log.warn({ err: error, job: job.name }, 'could not renew the job lease'));
      },
      Math.max(leaseMs / 3, 50),
    );
    renew.unref();
    log.info({ job: job.name, slot: claimed.slot, runId: claimed.id, instance }, 'job started');
    const startedAt = performance.now();
    let outcome: 'succeeded' | 'failed' = 'succeeded';
    let result: unknown = null;
    let error: string | null = null;
    try {
      result = (await job.run()) ?? null;
    } catch (failure) {
      outcome = 'failed';
      error = failure instanceof Error ? failure.message : String(failure);
      log.error({ err: failure, job: job.name, runId: claimed.id }, 'job failed');
    } finally {
      clearInterval(renew);
    }
    const durationMs = Math.round(performance.now() - startedAt);
    const finishedAt = now();
    // A report that is not plain JSON (a Date, a bigint) must not lose the run's record.
    const stored = toJson(result);
    await db.transaction(async (tx) => {
      await tx.update(jobRun).set({ outcome, error, durationMs, finishedAt, result: stored }).where(eq(jobRun.id, claimed.id));
      await tx
        .update(jobState)
        .set({ runningRunId: null, leaseUntil: null })
        .where(and(eq(jobState.job, job.name), eq(jobState.runningRunId, claimed.id)));
    });
    log.info({ job: job.name, slot: claimed.slot, runId: claimed.id, instance, outcome, durationMs }, 'job finished');
    return {
      id: claimed.id,
      job: job.name,
      slot: claimed.slot,
      trigger: claimed.slot.startsWith('manual:') ? 'manual' : 'schedule',
      instance,
      startedAt: claimed.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs,
      outcome,
      error,
      result: stored,
    };
  }

  function launch(job: JobDefinition, claimed: Extract<Claim, { kind: 'claimed' }>): Promise<JobRun> {
    const run = execute(job, claimed).finally(() => running.delete(job.name));
    running.set(job.name, run);
    return run;
  }

  /** One pass: claims every job whose current slot this process has not settled, and starts the ones it won. */
  async function tick(): Promise<void> {
    for (const job of jobs) {
      if (stopped) return;
      if (running.has(job.name)) continue;
      const slot = currentSlot(job.schedule, now()).toISOString();
      if (settledSlot.get(job.name) === slot) continue;
      try {
        const claimed = await claim(job, slot, 'schedule');
        // Busy: another run still holds the job; this slot is tried again on the next pass.
        if (claimed.kind !== 'busy') settledSlot.set(job.name, slot);
        if (claimed.kind === 'claimed') {
          launch(job, claimed).catch((error: unknown) => log.error({ err: error, job: job.name }, 'could not record the job run'));
        }
      } catch (error) {
        log.error({ err: error, job: job.name }, 'could not claim the job');
      }
    }
  }

  function sleepMs(): number {
    const at = now().getTime();
    const soonest = Math.min(...jobs.map((job) => nextSlot(job.schedule, now()).getTime() - at));
    return Math.min(Math.max(soonest, 5), maxSleepMs);
  }

  function loop(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      ticking = tick()
        .catch((error: unknown) => log.error({ err: error }, 'job runner pass failed'))
        .finally(() => {
          ticking = undefined;
          loop();
        });
    }, sleepMs());
  }

  function rowToRun(row: typeof jobRun.$inferSelect): JobRun {
    return {
      id: row.id,
      job: row.job,
      slot: row.slot,
      trigger: row.trigger,
      instance: row.instance,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      durationMs: row.durationMs,
      outcome: row.outcome,
      error: row.error,
      result: row.result ?? null,
    };
  }

  return {
    jobs,
    instance,

    /** Starts the schedule loop (bin/server.ts does, when JOBS is on). The first pass runs at once. */
    start(): void {
      if (started || stopped) return;
      started = true;
      log.info({ jobs: jobs.map((job) => `${job.name} ${describeSchedule(job.schedule)}`), instance }, 'job runner started');
      ticking = tick()
        .catch((error: unknown) => log.error({ err: error }, 'job runner pass failed'))
        .finally(() => {
          ticking = undefined;
          loop();
        });
    },

    /** Stops scheduling and waits for the runs in progress to finish (SIGTERM). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...running.values()]);
    },

    tick,

    /** Resolves when no run of this process is in progress (tests). */
    async whenIdle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },

    /** Runs a job now, claimed like a scheduled run (never beside another run of it); answers its record. */
    async runNow(name: string): Promise<JobRun> {
      const job = byName.get(name);
      if (!job) throw new AppError(404, 'JOB_NOT_FOUND', 'Det finnes ingen jobb med dette navnet.');
      const claimed = running.has(name) ? ({ kind: 'busy' } as const) : await claim(job, `manual:${randomUUID()}`, 'manual');
      if (claimed.kind !== 'claimed') throw new AppError(409, 'JOB_RUNNING', 'Jobben kjører allerede. Prøv igjen når den er ferdig.');
      return launch(job, claimed);
    },

    /** Every job with its schedule, next slot and last run, for operators. */
    async status(): Promise<JobStatus[]> {
      const at = now();
      return Promise.all(
        jobs.map(async (job) => {
          const [last] = await db.select().from(jobRun).where(eq(jobRun.job, job.name)).orderBy(desc(jobRun.startedAt)).limit(1);
          const [state] = await db.select().from(jobState).where(eq(jobState.job, job.name));
          return {
            name: job.name,
            description: job.description,
            schedule: describeSchedule(job.schedule),
            nextRunAt: nextSlot(job.schedule, at).toISOString(),
            running: Boolean(state?.leaseUntil && state.leaseUntil.getTime() > at.getTime()),
            lastRun: last ? rowToRun(last) : null,
          };
        }),
      );
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

function toJson(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as unknown;
  } catch {
    return String(value);
  }
}
