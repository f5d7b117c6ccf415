// Benchmark (issue 27 §4): the nightly jobs over the large seed (`npm run seed:large`), on PostgreSQL.
//   1. Renewals: `app.billingJobs.runRenewals()` as the scheduler runs it (crediting sweep, issue,
//      roll, collect), with the clock at 03:00 Oslo (the job's schedule):
//        catch-up — the seed's own day: the seed has every running subscription's current period
//          invoiced and 6 % the next as well, as if no run had come for RENEWAL_LEAD_DAYS, so this run
//          issues the invoices of every period ending in the next 14 days (about half the monthly
//          subscriptions): the backlog after missed nights, and the worst case;
//        nightly — the following NIGHTS days, each a steady night: the periods ending 14 days on are
//          invoiced (≈ 1/30 of the monthly subscriptions), those ending today rolled, and the invoices
//          due today charged.
//      Before the runs, 90 % of the running card and Vipps subscriptions get a stored agreement at the
//      test provider (the seed has none), so `collect` charges them as it would in production.
//      Checked: no subscription period has two invoices (none issued twice, none beside the seed's).
//   2. Restart: on a second copy, a catch-up run killed (SIGKILL) after CRASH_AFTER_BATCHES pages of
//      invoices, then run again: as many invoices as the uninterrupted run, none twice.
//   3. Carrier feed: `carrierFeed` of the title with the most subscriptions for the day (of the next
//      90) with the most stops and redirects in force, written as CSV as `npm run delivery:export` does.
//   4. AvtaleGiro claims: bench/bank.ts's claim run (ONLY=claims CLAIM_SIZES=SUBSCRIBERS), reported
//      here; CLAIMS=0 leaves it out (`npm run bench` runs bank.ts on its own).
// Each measurement runs in a child process (this file with `child …`) for its own peak RSS
// (`process.resourceUsage().maxRSS`), on a copy of the seeded database (CREATE DATABASE … TEMPLATE),
// dropped afterwards, so every run starts from the same data.
//
//   npm run bench:jobs -w bench                      (also part of `npm run bench`, at 10 000)
//   SUBSCRIBERS=10000 (default): seeds a scratch database of that many with seedLarge, dropped at the end.
//   JOBS_TEMPLATE=bench_jobs: copy this database (seeded by `npm run seed:large`) instead; the
//     1 000 000 run of docs/performance.md:
//       createdb bench_jobs && DATABASE_URL=postgres://…/bench_jobs npm run seed:large -- --subscribers 1000000
//       JOBS_TEMPLATE=bench_jobs CLAIMS=0 npm run bench:jobs -w bench      (≈ 8 GB free per copy)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (the server to make databases on)
//   NIGHTS=2, CRASH_AFTER_BATCHES=3, ONLY=renewals,restart,feed,claims (any of them), CHILD_HEAP_MB (as bank.ts),
//   PROFILE=1 (CPU profile of the renewal children, summarised), KEEP_DATABASE=1 (keep the copies).
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { addDays, osloInstantOf, systemClock, toCsv } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { SCALE_INVOICE_BASE } from '../apps/server/src/db/seed-large-model.ts';
import { carrierFeed } from '../apps/server/src/modules/delivery/feed.ts';
import { admin, databaseUrl, measured, profileSummary, round, runChild, type ChildReport, createMeasurements } from './measure.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 10_000);
const TEMPLATE = process.env.JOBS_TEMPLATE;
const NIGHTS = Number(process.env.NIGHTS ?? 2);
const CRASH_AFTER_BATCHES = Number(process.env.CRASH_AFTER_BATCHES ?? 3);
const ONLY = process.env.ONLY;
const PROFILE = process.env.PROFILE === '1';
const CHILD_HEAP_MB = Number(process.env.CHILD_HEAP_MB ?? 0);
const SCRIPT = path.join(import.meta.dirname, 'jobs.ts');
/** The scheduler's hour for the renewal run (jobs/index.ts: daily@03:00). */
const RUN_AT = '03:00';

const wanted = (part: string) => ONLY === undefined || ONLY.split(',').includes(part);

// ── children ────────────────────────────────────────────────────────────────────────────────

/** Statements sent to PostgreSQL: every query of every pooled connection (round trips, less the pipelined COPY). */
function countStatements(): () => number {
  let count = 0;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count += 1;
    return (original as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return () => count;
}

/**
 * CPU seconds the database spent for this process: its pooled connections' backends, read from
 * /proc before the pool closes (PostgreSQL on this machine; a backend the pool closed earlier is
 * missed). With the process's own CPU time, what the run costs whatever else the machine is doing.
 */
async function backendCpuSeconds(database: Database): Promise<number | null> {
  try {
    const backends = await database.rows<{ pid: number }>(sql`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`);
    const ticks = backends.reduce((sum, { pid }) => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // utime and stime: the 14th and 15th fields of stat, the 12th and 13th after the command name.
      return sum + Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    }, 0);
    return round(ticks / 100);
  } catch {
    return null;
  }
}

async function childRenewals(url: string, startsAt: string, crashAfter: number): Promise<ChildReport> {
  const statements = countStatements();
  const database = await createDatabase({ kind: 'postgres', url });
  // The clock starts at the run's hour and goes on from there, as the scheduler's would.
  const started = performance.now();
  const at = new Date(startsAt).getTime();
  const now = () => new Date(at + (performance.now() - started));
  const config = testConfig({ paymentProvider: 'test', vipps: undefined, logLevel: process.env.LOG_LEVEL ?? 'error' });
  const app = await buildApp({ config, database, catalogue: defaultCatalogue, now });
  await app.ready();
  try {
    const before = statements();
    const cpuBefore = process.cpuUsage();
    const batches: Record<string, number> = {};
    return await measured(async (phase) => {
      const report = await app.billingJobs.runRenewals({
        onBatch: (step) => {
          phase(step);
          batches[step] = (batches[step] ?? 0) + 1;
          // A crash between pages of invoices: no cleanup, the open connections simply drop.
          if (crashAfter > 0 && step === 'issue' && batches[step] >= crashAfter) process.kill(process.pid, 'SIGKILL');
        },
      });
      phase('end');
      const cpu = process.cpuUsage(cpuBefore);
      return { ...report, batches, statements: statements() - before, nodeCpuSeconds: round((cpu.user + cpu.system) / 1e6), postgresCpuSeconds: await backendCpuSeconds(database) };
    });
  } finally {
    await app.close();
    await database.close();
  }
}

async function childFeed(url: string, titleCode: string, date: string, file: string): Promise<ChildReport> {
  const database = await createDatabase({ kind: 'postgres', url });
  try {
    return await measured(async (phase) => {
      // As `npm run delivery:export -- --out` (admin/commands.ts deliveryFeed).
      const rows = await carrierFeed({ db: database.db, catalogue: defaultCatalogue, cutoffTime: testConfig().deliveryCutoffTime }, titleCode, date);
      phase('feed');
      writeFileSync(file, toCsv(rows));
      phase('write');
      const kinds: Record<string, number> = {};
      for (const row of rows) kinds[row.kind] = (kinds[row.kind] ?? 0) + 1;
      return { rows: rows.length, kinds, bytes: statSync(file).size };
    });
  } finally {
    await database.close();
  }
}

// ── the parent ──────────────────────────────────────────────────────────────────────────────

const hex = () => randomBytes(4).toString('hex');

async function createEmpty(name: string): Promise<void> {
  await admin(SERVER_URL, (client) => client.query(`create database ${name}`));
}

async function dropDatabase(name: string): Promise<void> {
  if (process.env.KEEP_DATABASE === '1') console.error(`kept database ${name} (KEEP_DATABASE=1): drop it yourself`);
  else await admin(SERVER_URL, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** A database of SUBSCRIBERS generated subscribers: the migrations, the demo data, then seedLarge (as `npm run seed:large`). */
async function seedScratch(name: string): Promise<number> {
  const started = performance.now();
  await createEmpty(name);
  const url = databaseUrl(SERVER_URL, name);
  // Imported here: the children need none of it.
  const [{ migrate }, { seedDemoData }, { seedLarge }, { hashPassword }] = await Promise.all([
    import('../apps/server/src/db/migrate.ts'),
    import('../apps/server/src/db/seed.ts'),
    import('../apps/server/src/db/seed-large.ts'),
    import('../apps/server/src/identity/provider/password.ts'),
  ]);
  const database = await createDatabase({ kind: 'postgres', url, queryTimeoutMs: 0 });
  try {
    await migrate(database);
    await seedDemoData(database, { password: 'demo1234', now: systemClock });
  } finally {
    await database.close();
  }
  await seedLarge({ url, subscribers: SUBSCRIBERS, append: false, passwordHash: await hashPassword('demo1234'), now: systemClock });
  return round((performance.now() - started) / 1000);
}

/** A copy of the seeded database (a file copy: far quicker than WAL-logging every page of it). */
async function copyOf(template: string): Promise<{ name: string; url: string; seconds: number }> {
  const started = performance.now();
  const name = `minside_bench_jobs_${hex()}`;
  await admin(SERVER_URL, (client) => client.query(`create database ${name} template ${template} strategy file_copy`));
  return { name, url: databaseUrl(SERVER_URL, name), seconds: round((performance.now() - started) / 1000) };
}

/** The day the seed was made: its sessions were made that day at 07:00 UTC (seed-large.ts). */
async function seedDay(url: string): Promise<{ day: string; subscribers: number; subscriptions: number }> {
  return admin(url, async (client) => {
    const { rows } = await client.query<{ day: string; subscribers: string; subscriptions: string }>(
      `select (select min(created_at) at time zone 'UTC' from user_session where user_id like 'user-scale-%')::date::text as day,
              (select count(*) from app_user where id like 'user-scale-%') as subscribers,
              (select count(*) from subscription where id like 'sub-scale-%') as subscriptions`,
    );
    const row = rows[0];
    if (!row?.day) throw new Error('no generated subscribers with sessions in the database: seed it with `npm run seed:large` first');
    return { day: row.day, subscribers: Number(row.subscribers), subscriptions: Number(row.subscriptions) };
  });
}

/**
 * Stored agreements at the test provider for 90 % of the running card and Vipps subscriptions (the
 * seed has none; without them every card invoice would wait like a giro): `collect` charges them.
 */
async function storeAgreements(url: string, day: string): Promise<{ agreements: number; seconds: number }> {
  const started = performance.now();
  const agreements = await admin(url, async (client) => {
    await client.query('begin');
    const chosen = `from subscription s where s.id like 'sub-scale-%' and s.payment_method in ('CARD', 'VIPPS') and s.inst_status_code = 1 and abs(hashtext(s.id)) % 10 <> 0`;
    await client.query(
      `insert into test_provider_transaction (id, idempotency_key, kind, method, amount_ore, status, merchant_reference, agreement_id, return_url, description, card, created_at, updated_at)
       select 'tp_bench_' || s.id, 'bench-agreement:' || s.id, 'AGREEMENT', case s.payment_method when 'CARD' then 'SWEDBANK-PPG' else 'VIPPS' end, 0, 'AUTHORIZED',
              'bench-' || s.id, null, '/', 'Bench-avtale',
              case s.payment_method when 'CARD' then '{"brand":"Visa","last4":"4242","expiryMonth":12,"expiryYear":2030}'::jsonb end, $1::timestamptz, $1::timestamptz ${chosen}`,
      [`${addDays(day, -60)}T10:00:00Z`],
    );
    const { rowCount } = await client.query(
      `insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, card_brand, card_last4, card_expiry_month, card_expiry_year, created_at, updated_at)
       select 'bench-agreement-' || s.id, s.id, case s.payment_method when 'CARD' then 'SWEDBANK-PPG' else 'VIPPS' end, 'ACTIVE', 'test', 'tp_bench_' || s.id,
              case s.payment_method when 'CARD' then 'Visa' end, case s.payment_method when 'CARD' then '4242' end,
              case s.payment_method when 'CARD' then 12 end, case s.payment_method when 'CARD' then 2030 end, $1::timestamptz, $1::timestamptz ${chosen}`,
      [`${addDays(day, -60)}T10:00:00Z`],
    );
    await client.query('commit');
    await client.query('analyze test_provider_transaction, payment_agreement');
    return rowCount ?? 0;
  });
  return { agreements, seconds: round((performance.now() - started) / 1000) };
}

/**
 * The invoices the runs issued (numbered by the invoice sequence above `after`; the seed's are numbered
 * from SCALE_INVOICE_BASE) whose subscription period has another invoice too: must be none.
 */
async function doubleInvoices(url: string, after: number): Promise<{ issued: number; twice: number; besideEarlier: number }> {
  return admin(url, async (client) => {
    await client.query('set statement_timeout = 0');
    const { rows } = await client.query<{ issued: string; twice: string; beside: string }>(
      `with issued as (select subscription_id, period_from from invoice where aria_invoice_no > $1 and aria_invoice_no < $2 and subscription_id is not null)
       select (select count(*) from issued) as issued,
              (select count(*) from (select 1 from issued group by subscription_id, period_from having count(*) > 1) twice) as twice,
              (select count(*) from invoice i join issued n on n.subscription_id = i.subscription_id and n.period_from = i.period_from where i.aria_invoice_no <= $1 or i.aria_invoice_no >= $2) as beside`,
      [after, SCALE_INVOICE_BASE],
    );
    const row = rows[0];
    return { issued: Number(row?.issued), twice: Number(row?.twice), besideEarlier: Number(row?.beside) };
  });
}

/** The last invoice the sequence numbered (the demo data's, or a run's). */
async function lastInvoiceNo(url: string): Promise<number> {
  return admin(url, async (client) =>
    Number((await client.query<{ no: string }>('select coalesce(max(aria_invoice_no), 0) as no from invoice where aria_invoice_no < $1', [SCALE_INVOICE_BASE])).rows[0]?.no),
  );
}

/** One renewal run in a child at 03:00 Oslo on `day`; the parent samples the invoices issued so far every PROGRESS_S seconds. */
async function renewalRun(url: string, day: string, label: string, crashAfter = 0): Promise<Record<string, unknown>> {
  const startsAt = osloInstantOf(day, RUN_AT).toISOString();
  const firstNo = await lastInvoiceNo(url);
  const timeline: string[] = [];
  const started = performance.now();
  const progressS = Number(process.env.PROGRESS_S ?? 30);
  const sampler = setInterval(() => {
    void admin(url, (client) => client.query<{ n: string }>('select count(*) as n from invoice where aria_invoice_no > $1 and aria_invoice_no < $2', [firstNo, SCALE_INVOICE_BASE]))
      .then(({ rows }) => timeline.push(`${Math.round((performance.now() - started) / 1000)}s ${rows[0]?.n} issued, load ${round(loadavg()[0] ?? 0)}`))
      .catch(() => {});
  }, progressS * 1000);
  const profileDir = PROFILE && crashAfter === 0 ? mkdtempSync(path.join(tmpdir(), 'minside-bench-jobs-profile-')) : null;
  console.error(`${label}: renewal run at ${startsAt}${crashAfter ? `, killed after ${crashAfter} batches` : ''}…`);
  try {
    const child = await runChild(SCRIPT, ['renewals', url, startsAt, String(crashAfter)], { heapMb: CHILD_HEAP_MB, profileDir });
    const result = child.result as { invoicesCredited: number; invoicesIssued: number; periodsRolled: number; charged: number; statements: number };
    const rows = result.invoicesCredited + result.invoicesIssued + result.periodsRolled + result.charged;
    return {
      label,
      day,
      ...child,
      rows,
      rowsPerSecond: Math.round(rows / child.seconds),
      statementsPerRow: rows > 0 ? round(result.statements / rows, 1) : null,
      timeline,
      ...(profileDir ? { profile: profileSummary(profileDir, [['/modules/billing/', 'billing']]) } : {}),
    };
  } catch (error) {
    if (crashAfter > 0 && /SIGKILL/.test((error as Error).message)) return { label, day, killed: true, seconds: round((performance.now() - started) / 1000), timeline };
    throw error;
  } finally {
    clearInterval(sampler);
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

/** The title with the most subscriptions, and the day of the next 90 with the most stops and redirects in force for it. */
async function busiestFeed(url: string, from: string): Promise<{ titleCode: string; date: string; inForce: number }> {
  return admin(url, async (client) => {
    const title = (await client.query<{ title_code: string }>('select title_code from subscription group by title_code order by count(*) desc limit 1')).rows[0]?.title_code ?? 'ADR';
    const { rows } = await client.query<{ day: string; n: string }>(
      `select d::date::text as day, count(c.id) as n
         from generate_series($2::date, $2::date + 90, interval '1 day') d
         join delivery_change c on c.status = 'active' and c.from_date <= d::date and (c.to_date is null or c.to_date >= d::date)
         join subscription s on s.id = c.subscription_id and s.title_code = $1
        group by d order by n desc, d limit 1`,
      [title, from],
    );
    return { titleCode: title, date: rows[0]?.day ?? from, inForce: Number(rows[0]?.n ?? 0) };
  });
}

/** bench/bank.ts's claim run for SUBSCRIBERS AvtaleGiro subscribers (its own scratch database), its report as it printed it. */
function claimsReport(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bank.ts')], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ONLY: 'claims', CLAIM_SIZES: String(SUBSCRIBERS) },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        const report = JSON.parse(out) as Record<string, unknown>;
        resolve(code === 0 ? report : { failed: `bank.ts exited with ${code}`, ...report });
      } catch {
        reject(new Error(`bank.ts exited with ${code} and printed no report`));
      }
    });
  });
}

async function main(): Promise<void> {
  const { machine } = await import('./support.ts');
  const loadBefore = machine().loadAverage;
  const report: Record<string, unknown> = { suite: 'nightly jobs at scale (issue 27 §4), PostgreSQL' };
  const measurements = createMeasurements();
  const { attempt } = measurements;

  const needsSeed = wanted('renewals') || wanted('feed') || wanted('restart');
  const seeded = TEMPLATE || !needsSeed ? null : `minside_bench_jobs_seed_${hex()}`;
  const template = TEMPLATE ?? (seeded as string);
  const copies: string[] = [];
  const release = async (name: string) => {
    copies.splice(copies.indexOf(name), 1);
    await dropDatabase(name);
  };
  try {
    if (seeded) report['seedSeconds'] = await seedScratch(seeded);
    const seed = needsSeed ? await seedDay(databaseUrl(SERVER_URL, template)) : { day: '', subscribers: 0, subscriptions: 0 };
    if (needsSeed) report['seed'] = { database: TEMPLATE ?? 'scratch', ...seed };

    if (wanted('renewals') || wanted('feed')) {
      const copy = await copyOf(template);
      copies.push(copy.name);
      report['copySeconds'] = copy.seconds;
      if (wanted('renewals')) {
        report['agreements'] = await storeAgreements(copy.url, seed.day);
        const firstNo = await lastInvoiceNo(copy.url);
        const runs = [await attempt('catch-up renewal run', () => renewalRun(copy.url, seed.day, 'catch-up'))];
        for (let night = 1; night <= NIGHTS; night += 1) runs.push(await attempt(`nightly renewal run ${night}`, () => renewalRun(copy.url, addDays(seed.day, night), `night ${night}`)));
        report['renewals'] = runs;
        const check = await doubleInvoices(copy.url, firstNo);
        report['renewalCheck'] = check;
        if (check.twice > 0 || check.besideEarlier > 0) {
          measurements.fail();
          console.error(`double invoices: ${JSON.stringify(check)}`);
        }
      }
      if (wanted('feed')) {
        report['feed'] = await attempt('carrier feed', async () => {
          const busiest = await busiestFeed(copy.url, seed.day);
          const work = mkdtempSync(path.join(tmpdir(), 'minside-bench-feed-'));
          try {
            const child = await runChild(SCRIPT, ['feed', copy.url, busiest.titleCode, busiest.date, path.join(work, 'feed.csv')], { heapMb: CHILD_HEAP_MB, profileDir: null });
            return { ...busiest, ...child, rowsPerSecond: Math.round(Number(child.result['rows']) / child.seconds) };
          } finally {
            rmSync(work, { recursive: true, force: true });
          }
        });
      }
      await release(copy.name);
    }

    if (wanted('restart')) {
      report['restart'] = await attempt('restart after a crash', async () => {
        const copy = await copyOf(template);
        copies.push(copy.name);
        await storeAgreements(copy.url, seed.day);
        const firstNo = await lastInvoiceNo(copy.url);
        const crashed = await renewalRun(copy.url, seed.day, 'killed', CRASH_AFTER_BATCHES);
        const afterCrash = (await doubleInvoices(copy.url, firstNo)).issued;
        const rerun = await renewalRun(copy.url, seed.day, 'rerun');
        const check = await doubleInvoices(copy.url, firstNo);
        await release(copy.name);
        if (check.twice > 0 || check.besideEarlier > 0) throw new Error(`double invoices after the rerun: ${JSON.stringify(check)}`);
        // With the uninterrupted catch-up run of this invocation: the killed run and its rerun issued as many.
        const uninterrupted = (report['renewals'] as { label?: string; result?: { invoicesIssued?: number } }[] | undefined)?.find((run) => run.label === 'catch-up')?.result?.invoicesIssued;
        if (uninterrupted !== undefined && uninterrupted !== check.issued) throw new Error(`the killed run and its rerun issued ${check.issued} invoices, the uninterrupted run ${uninterrupted}`);
        return {
          killedAfterBatches: CRASH_AFTER_BATCHES,
          killed: crashed,
          issuedBeforeTheKill: afterCrash,
          rerun: { seconds: rerun['seconds'], maxRssMb: rerun['maxRssMb'], result: rerun['result'] },
          check,
        };
      });
    }

    if (wanted('claims') && process.env.CLAIMS !== '0') report['claims'] = await attempt('AvtaleGiro claims (bench/bank.ts)', claimsReport);
  } finally {
    for (const name of copies) await dropDatabase(name).catch(() => {});
    if (seeded) await dropDatabase(seeded);
  }
  report['machine'] = { ...machine(), loadAverageBefore: loadBefore, childHeapMb: CHILD_HEAP_MB || 'default' };
  console.log(JSON.stringify(report, null, 2));
  if (measurements.failed > 0) process.exitCode = 1;
}

const [mode, kind, ...args] = process.argv.slice(2);
if (mode === 'child') {
  const work = kind === 'renewals' ? childRenewals(args[0]!, args[1]!, Number(args[2] ?? 0)) : childFeed(args[0]!, args[1]!, args[2]!, args[3]!);
  work.then(
    (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
    (error: unknown) => {
      console.error(error);
      process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
      process.exitCode = 1;
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
