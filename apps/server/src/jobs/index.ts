import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Mailer } from '../integrations/mail/index.ts';
import type { PrivacyService } from '../modules/privacy/index.ts';
import type { StudentService } from '../modules/student/index.ts';
import { jobRoutes } from './routes.ts';
import { createJobRunner, type JobDefinition, type JobRunner } from './runner.ts';
import { parseScheduleOverrides } from '../config/schedule.ts';
import { dailyAt, every } from './schedule.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The scheduled jobs: bin/server.ts starts them, the admin CLI and operators run one now. */
    jobs: JobRunner;
  }
}

export interface JobSources {
  mailer: Pick<Mailer, 'deliverPending'>;
  privacy: Pick<PrivacyService, 'runExports' | 'runErasures'>;
  student: Pick<StudentService, 'sendReverificationReminders'>;
}

/**
 * The product's jobs: the areas' own job functions, called as they are, on their schedules.
 * `app.billingJobs`, `app.ordering`, `app.withdrawals` and `app.bank` must be registered first.
 */
export function productJobs(app: FastifyInstance, { mailer, privacy, student }: JobSources): JobDefinition[] {
  return [
    { name: 'billing-renewals', description: 'Issue, roll and charge subscription renewals (ADR 009)', schedule: dailyAt('03:00'), leaseMs: 30 * 60_000, run: () => app.billingJobs.runRenewals() },
    { name: 'billing-reconciliation', description: 'Settle or time out pending payments, confirm AvtaleGiro (ADR 009)', schedule: every('10m'), run: () => app.billingJobs.runReconciliation() },
    { name: 'mail-outbox', description: 'Send due outbox e-mail with backoff (ADR 010)', schedule: every('1m'), run: async () => ({ sent: await mailer.deliverPending() }) },
    { name: 'ordering-repair', description: 'Settle, fulfil, refund or time out stuck orders (ADR 014)', schedule: every('5m'), run: () => app.ordering.repair() },
    {
      name: 'withdrawal-refunds',
      description: 'Ask again for the refunds of withdrawn purchases the provider has not settled (ADR 030)',
      schedule: every('5m'),
      run: () => app.withdrawals.retryRefunds(),
    },
    { name: 'data-export', description: 'Build pending data exports, delete expired ones (ADR 015)', schedule: every('10m'), run: async () => ({ processed: await privacy.runExports() }) },
    { name: 'data-erasure', description: 'Carry out due account erasures (ADR 015)', schedule: every('1h'), run: async () => ({ processed: await privacy.runErasures() }) },
    { name: 'bank-exchange', description: "Fetch and import the bank's files, send the claim files (ADR 024)", schedule: every('15m'), run: () => app.bank.exchange() },
    // Early, so the file reaches Nets well before its cut-off; the next bank-exchange sends it.
    { name: 'avtalegiro-claims', description: "Write the day's AvtaleGiro claim file (ADR 024)", schedule: dailyAt('05:30'), run: () => app.bank.claims(app.bank.today()) },
    { name: 'billing-documents', description: 'Issue documents for older invoices and store the PDFs not stored yet (ADR 026)', schedule: every('5m'), run: () => app.billingDocuments.complete() },
    { name: 'ehf-outbox', description: 'Write EHF invoices and credit notes for the access point (issue 23)', schedule: every('5m'), run: () => app.ehfOutbox.deliverPending() },
    {
      name: 'student-reminders',
      description: 'E-mail students 30 days before re-verification (ADR 011)',
      schedule: dailyAt('07:00'),
      run: async () => ({ sent: await student.sendReverificationReminders() }),
    },
  ];
}

/**
 * Builds the runner over the given jobs (with JOBS_SCHEDULE_OVERRIDES applied), decorates
 * `app.jobs`, adds the operator routes, and makes `app.close()` wait for a run in progress.
 * Nothing is scheduled until `app.jobs.start()`.
 */
export async function registerJobs(
  app: FastifyInstance,
  { config, db, now, jobs }: { config: Pick<Config, 'jobScheduleOverrides' | 'operatorToken'>; db: Db; now: () => Date; jobs: JobDefinition[] },
): Promise<void> {
  const overrides = parseScheduleOverrides(config.jobScheduleOverrides);
  const unknown = [...overrides.keys()].filter((name) => !jobs.some((job) => job.name === name));
  if (unknown.length > 0) {
    throw new Error(`JOBS_SCHEDULE_OVERRIDES names unknown jobs: ${unknown.join(', ')} (jobs: ${jobs.map((job) => job.name).join(', ')})`);
  }
  const runner = createJobRunner({ db, now, log: app.log, jobs: jobs.map((job) => ({ ...job, schedule: overrides.get(job.name) ?? job.schedule })) });
  app.decorate('jobs', runner);
  // onClose runs once the server has stopped accepting and the requests in flight are answered
  // (close order: stop accepting, drain, stop jobs, then bin/server.ts closes the database). In preClose
  // a long run would keep the server accepting connections only to answer them 503.
  app.addHook('onClose', async () => {
    await runner.stop();
  });
  await app.register(jobRoutes, { runner, operatorToken: config.operatorToken });
}
