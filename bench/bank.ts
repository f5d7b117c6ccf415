// Benchmark (issue 21 §7): the bank files stream in constant memory, on PostgreSQL.
//   1. OCR import: an OCR Giro file of netbank payments (transaction type 10), each paying one of
//      as many unpaid invoices, imported with the bank service's `importPath` (archive, check pass,
//      apply pass in batches), then checked: every invoice paid.
//   2. AvtaleGiro claims: one claim run (`createClaimRun(...).run(date)`) for as many subscribers
//      on AvtaleGiro with an unpaid invoice in the claim window; the file is read back with the
//      streaming reader and its claims counted.
// Each measurement runs in a child process of its own (this file with `child …`) on a scratch
// database made for it (dropped afterwards), so its peak RSS (`process.resourceUsage().maxRSS`) is
// its own; both run at two sizes, and memory is constant when the peak does not grow with them.
// Each has a floor on the same database, for a ratio that does not drift with the machine:
//   import: the three single-row writes a settled payment needs (insert payment, update invoice,
//           insert bank_transaction), plain parameterised statements, 200 per transaction;
//   claims: `COPY (select … the claims' rows, joined as the writer reads them …) TO STDOUT`.
//
//   npm run bench:bank -w bench                       (also part of `npm run bench`)
//   IMPORT_SIZES=10000,100000 CLAIM_SIZES=100000,1000000 (defaults) ONLY=import|claims
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (the server to make scratch databases on)
//   CHILD_HEAP_MB=48 caps the children's V8 old space (and the semi-spaces at 4 MB): peak RSS then
//   shows what the code holds, not how far V8 lets its heap grow first (docs/performance.md);
//   a leak ends the run out of memory. TRACE_MEMORY=1: the live heap every 2 s (after a forced GC).
//   QUERY_TIMEOUT_MS: the children's query timeout (default: the CLI's, DEFAULT_QUERY_TIMEOUT_MS).
//   KEEP_DATABASE=1 keeps the scratch databases for a look (drop them yourself afterwards).
//   PROFILE=1: the children run with --cpu-prof; a summary of where their CPU time went is printed.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { encodeBankFile, linesFromBytes, readBankFile, withLineEndings, writeOcrGiro, type OcrTransactionInput } from '@minside/bank-files';
import { addDays, kidFor, osloToday, systemClock } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import { createDatabase } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { createBankFileArchive, type BankFileArchive } from '../apps/server/src/modules/bank/archive.ts';
import { createClaimRun } from '../apps/server/src/modules/bank/claims.ts';
import { CLAIM_MAX_LEAD_DAYS, CLAIM_MIN_LEAD_DAYS } from '../apps/server/src/modules/billing/claim-window.ts';
import { createBankService } from '../apps/server/src/modules/bank/service.ts';
import { createLocalTransport } from '../apps/server/src/modules/bank/transport.ts';
import { admin, mb, measured, profileSummary as summarise, round, runChild as runScript, type ChildReport, createMeasurements } from './measure.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sizes = (value: string | undefined, fallback: number[]) => (value ? value.split(',').map(Number) : fallback);
const IMPORT_SIZES = sizes(process.env.IMPORT_SIZES, [10_000, 100_000]);
const CLAIM_SIZES = sizes(process.env.CLAIM_SIZES, [100_000, 1_000_000]);
const ONLY = process.env.ONLY;
const PROFILE = process.env.PROFILE === '1';
/** Caps the children's V8 old space (MB): a leak then ends the run out of memory instead of only raising the peak. 0: Node's default. */
const CHILD_HEAP_MB = Number(process.env.CHILD_HEAP_MB ?? 0);
/** The children's query timeout: the CLI's default (db/client.ts) unless set; 0 turns it off. */
const QUERY_TIMEOUT_MS = process.env.QUERY_TIMEOUT_MS === undefined ? undefined : Number(process.env.QUERY_TIMEOUT_MS);
const title = defaultCatalogue.byTitleCode('ADR');
const UNIT = '71000001';
const FLOOR_BATCH = 200;
const PROGRESS_S = Number(process.env.PROGRESS_S ?? 30);
/** The generated rows: account and invoice numbers far from the demo data's and the identity defaults. */
const ACCOUNT_BASE = 60_000_000;
const INVOICE_BASE = 200_000_000;
const amountOf = (n: number) => 9_900 + (n % 300) * 100;
const runChild = (args: string[], profileDir: string | null) => runScript(path.join(import.meta.dirname, 'bank.ts'), args, { heapMb: CHILD_HEAP_MB, profileDir });
const profileSummary = (dir: string) =>
  summarise(dir, [
    ['/packages/bank-files/', 'bank-files'],
    ['/modules/bank/', 'bank module'],
  ]);

// ── child processes: one measurement each, its peak RSS its own (measure.ts) ─────────────────

const mailer = { enqueue: async () => 'bench', deliverPending: async () => 0, delivers: false };

/** The archive the app uses, with the moments the service hands work to it marked as phases. */
function timedArchive(root: string, phase: (name: string) => void): BankFileArchive {
  const archive = createBankFileArchive(root);
  return {
    ...archive,
    root,
    async archiveIncomingFile(source) {
      const archived = await archive.archiveIncomingFile(source);
      phase('archive');
      return archived;
    },
    async writeOutgoingLines(fileName, records) {
      phase('decide');
      const written = await archive.writeOutgoingLines(fileName, records);
      phase('write');
      return written;
    },
  };
}

async function childImport(url: string, file: string, bankDir: string): Promise<ChildReport> {
  // The CLI's database: the pool and the default query timeout.
  const database = await createDatabase({ kind: 'postgres', url, ...(QUERY_TIMEOUT_MS === undefined ? {} : { queryTimeoutMs: QUERY_TIMEOUT_MS }) });
  try {
    return await measured(async (phase) => {
      const service = createBankService({
        db: database.db,
        catalogue: defaultCatalogue,
        mailer,
        archive: timedArchive(bankDir, phase),
        transport: createLocalTransport(bankDir),
        customerUnitId: UNIT,
        production: false,
        now: systemClock,
        portalOrigin: () => 'http://adresseavisen.localhost',
        log: { info: () => {}, warn: () => {}, error: () => {} },
      });
      const summary = await service.importPath(file);
      phase('check + apply');
      return { transactions: summary.transactions, settled: summary.settled, unmatched: summary.unmatched.length, duplicate: summary.duplicate };
    });
  } finally {
    await database.close();
  }
}

async function childClaims(url: string, date: string, bankDir: string): Promise<ChildReport> {
  const database = await createDatabase({ kind: 'postgres', url, ...(QUERY_TIMEOUT_MS === undefined ? {} : { queryTimeoutMs: QUERY_TIMEOUT_MS }) });
  try {
    return await measured(async (phase) => {
      const run = createClaimRun({ db: database.db, catalogue: defaultCatalogue, archive: timedArchive(bankDir, phase), customerUnitId: UNIT, now: systemClock });
      const summary = await run.run(date);
      return { claims: summary.claims, cancellations: summary.cancellations, path: summary.path, bytes: summary.path ? statSync(summary.path).size : 0 };
    });
  } finally {
    await database.close();
  }
}

/** The streaming reader alone over a file: what the import's check pass costs, and the read-back of the claim file. */
async function childRead(file: string): Promise<ChildReport> {
  return measured(async () => {
    const counts: Record<string, number> = {};
    for await (const event of readBankFile(linesFromBytes(createReadStream(file) as AsyncIterable<Uint8Array>))) counts[event.type] = (counts[event.type] ?? 0) + 1;
    return counts;
  });
}

// ── the parent: databases, files, floors, report ─────────────────────────────────────────────

async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `minside_bench_bank_${randomBytes(5).toString('hex')}`;
  await admin(SERVER_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const database = await createDatabase({ kind: 'postgres', url: url.toString(), queryTimeoutMs: 0 });
  await migrate(database);
  await database.close();
  const drop = async () => {
    if (process.env.KEEP_DATABASE === '1') console.error(`kept ${url.toString()} (KEEP_DATABASE=1): drop it yourself`);
    else await admin(SERVER_URL, (client) => client.query(`drop database if exists ${name} with (force)`));
  };
  return { url: url.toString(), drop };
}

/**
 * `count` subscribers of ADR, each with one unpaid invoice due on `dueOn`: users, accounts and
 * subscriptions from generate_series; the KIDs (computed by the domain's kidFor) COPYed into a
 * staging table and joined in. With `avtaleGiro`, every subscription pays by AvtaleGiro with an
 * ACTIVE mandate whose KID is its mandate KID (half want the bank's notice).
 */
async function generate(client: pg.Client, count: number, dueOn: string, avtaleGiro: boolean): Promise<void> {
  await client.query('set synchronous_commit = off');
  await client.query('create unlogged table bench_kid (n integer primary key, invoice_kid text not null, mandate_kid text not null)');
  const kids = Readable.from(
    (function* () {
      for (let n = 1; n <= count; n += 1) yield `${n}\t${kidFor('invoice', INVOICE_BASE + n, title.bank)}\t${kidFor('mandate', n, title.bank)}\n`;
    })(),
  );
  await pipeline(kids, client.query(copyFrom('copy bench_kid (n, invoice_kid, mandate_kid) from stdin')));
  const series = `generate_series(1, ${count}) n`;
  await client.query(`insert into app_user (id, identity_sub, email, given_name, family_name, created_at)
    select 'bench-user-' || n, 'bench-sub-' || n, 'bench' || n || '@example.test', 'Kari', 'Nordmann' || (n % 1000), now() from ${series}`);
  await client.query(`insert into account (aria_account_no, user_id, first_title_code, created_at) select ${ACCOUNT_BASE} + n, 'bench-user-' || n, 'ADR', now() from ${series}`);
  await client.query(
    `insert into subscription (id, aria_account_no, title_code, aria_plan_id, plan_name, plan_product_type, eligible_for_sharing, inst_status_code,
      billing_period, price_ore, payment_method, features, started_on, current_period_end, created_at)
    select 'bench-sub-' || n, ${ACCOUNT_BASE} + n, 'ADR', 'ADR_DIGITAL_MONTH', 'Digital', 'DIGITAL', true, 1, 'MONTH', 29900, $1,
      '{"plusContent":true,"ePaper":true,"paper":false,"familySharing":false,"thirdPartyBundle":false}', $2::date - 365, $2::date + 30, now() from ${series}`,
    [avtaleGiro ? 'AVTALEGIRO' : 'INVOICE', dueOn],
  );
  await client.query(
    `insert into invoice (aria_invoice_no, aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number, created_at)
    select ${INVOICE_BASE} + k.n, ${ACCOUNT_BASE} + k.n, 'bench-sub-' || k.n, k.invoice_kid, 9900 + (k.n % 300) * 100, 'Digital, 1. måned', $1::date, $1::date + 30, $1::date, $2, now()
    from bench_kid k`,
    [dueOn, title.bank.creditorAccount],
  );
  if (avtaleGiro) {
    await client.query(`insert into payment_agreement (id, subscription_id, method, status, provider, provider_agreement_id, bank_account_number, bank_notice, created_at, updated_at)
      select 'bench-mandate-' || k.n, 'bench-sub-' || k.n, 'AVTALEGIRO', 'ACTIVE', 'bank', k.mandate_kid, '86011117947', k.n % 2 = 0, now(), now() from bench_kid k`);
  }
  await client.query('drop table bench_kid');
  // Statistics and the visibility map, as autovacuum would leave a settled database.
  await client.query('vacuum analyze app_user, account, subscription, invoice, payment_agreement');
}

/** The OCR Giro file, written record by record through the streaming writer: `count` netbank payments of invoices 1…count. */
async function writeOcrFile(file: string, count: number, date: string): Promise<void> {
  const bankDate = addDays(date, -1);
  async function* payments(): AsyncGenerator<OcrTransactionInput> {
    for (let n = 1; n <= count; n += 1) {
      yield {
        transactionType: 10,
        netsDate: date,
        centreId: '13',
        dayCode: Number(date.slice(8, 10)),
        partialSettlementNumber: 1,
        partialSettlementSerialNumber: '00001',
        sign: '0',
        amount: amountOf(n),
        kid: kidFor('invoice', INVOICE_BASE + n, title.bank),
        formNumber: '0000000000',
        archiveReference: String(n).padStart(9, '0'),
        bankDate,
        debitAccount: '86011117947',
        text: null,
      };
    }
  }
  const records = writeOcrGiro({
    transmissionNumber: '0000001',
    dataRecipient: UNIT,
    netsDate: date,
    assignments: [{ agreementId: title.bank.ocrAgreementId, assignmentNumber: '0000001', account: title.bank.creditorAccount, netsDate: date, transactions: payments() }],
  });
  const bytes = Readable.from(
    (async function* () {
      for await (const chunk of withLineEndings(records)) yield encodeBankFile(chunk);
    })(),
  );
  await pipeline(bytes, createWriteStream(file));
}

async function importBench(count: number): Promise<Record<string, unknown>> {
  const today = osloToday(systemClock());
  const work = mkdtempSync(path.join(tmpdir(), 'minside-bench-bank-'));
  const scratch = await scratchDatabase();
  try {
    const setupStarted = performance.now();
    // Invoices 1…count are paid by the file, count+1…2·count by the floor.
    await admin(scratch.url, (client) => generate(client, 2 * count, addDays(today, 10), false));
    const file = path.join(work, `ocr-${count}.txt`);
    await writeOcrFile(file, count, today);
    const setupSeconds = round((performance.now() - setupStarted) / 1000);
    const profileDir = PROFILE ? mkdtempSync(path.join(work, 'profile-')) : null;
    // The import's progress as the database sees it, every PROGRESS_S seconds: does the rate hold as the tables fill?
    const progress = await admin(scratch.url, async (client) => {
      const timeline: { s: number; settled: number; load1: number }[] = [];
      const started = performance.now();
      const poll = setInterval(() => {
        client
          .query<{ n: string }>('select count(*) as n from bank_transaction')
          .then(({ rows }) => timeline.push({ s: Math.round((performance.now() - started) / 1000), settled: Number(rows[0]?.n), load1: round(loadavg()[0] ?? 0) }))
          .catch(() => {});
      }, PROGRESS_S * 1000);
      try {
        return { app: await runChild(['import', scratch.url, file, path.join(work, 'bank')], profileDir), timeline };
      } finally {
        clearInterval(poll);
      }
    });
    const app = progress.app;
    const read = await runChild(['read', file], null);
    const [check] = await admin(
      scratch.url,
      async (client) =>
        (
          await client.query<{ paid: string; settled: string; payments: string }>(
            `select (select count(*) from invoice where paid_at is not null and aria_invoice_no between $1 and $2) as paid,
                  (select count(*) from bank_transaction where outcome = 'SETTLED') as settled,
                  (select count(*) from payment where status = 'CAPTURED') as payments`,
            [INVOICE_BASE + 1, INVOICE_BASE + count],
          )
        ).rows,
    );
    const paid = Number(check?.paid);
    if (paid !== count || Number(check?.settled) !== count || Number(check?.payments) !== count) {
      throw new Error(`the import did not do the work: ${JSON.stringify(check)} of ${count}`);
    }
    const floor = await admin(scratch.url, (client) => importFloor(client, count, today));
    const rate = count / app.seconds;
    return {
      transactions: count,
      fileBytes: statSync(file).size,
      setupSeconds,
      app: { ...app, transactionsPerSecond: Math.round(rate) },
      checkedAfterwards: { invoicesPaid: paid, bankTransactionsSettled: Number(check?.settled) },
      readerAlone: { seconds: read.seconds, recordsPerSecond: Math.round((count * 2) / read.seconds), maxRssMb: read.maxRssMb, events: read.result },
      floor: { ...floor, transactionsPerSecond: Math.round(count / floor.seconds) },
      appOverFloor: round(rate / (count / floor.seconds), 3),
      ratePerInterval: progress.timeline.map((point, index, all) => {
        const before = all[index - 1] ?? { s: 0, settled: 0 };
        return `${point.s}s ${Math.round((point.settled - before.settled) / (point.s - before.s))}/s load ${point.load1}`;
      }),
      ...(profileDir ? { profile: profileSummary(profileDir) } : {}),
    };
  } finally {
    await scratch.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The writes a settled payment needs, and nothing else: payment row, invoice paid, bank_transaction row; 200 per transaction. */
async function importFloor(client: pg.Client, count: number, today: string): Promise<{ seconds: number; statements: number }> {
  const fileId = `bench-floor-${randomBytes(4).toString('hex')}`;
  await client.query(
    `insert into bank_file (id, direction, kind, data_transmitter, transmission_number, data_recipient, sha256, status, created_at) values ($1, 'IN', 'ocr-giro', '00008080', '9999999', $2, '', 'IMPORTING', now())`,
    [fileId, UNIT],
  );
  const started = performance.now();
  let statements = 0;
  for (let first = 1; first <= count; first += FLOOR_BATCH) {
    await client.query('begin');
    for (let n = first; n < first + FLOOR_BATCH && n <= count; n += 1) {
      const no = INVOICE_BASE + count + n;
      const paymentId = `${fileId}-${n}`;
      await client.query(
        `insert into payment (id, idempotency_key, purpose, method, amount_ore, status, aria_account_no, subscription_id, aria_invoice_no, provider, provider_reference, return_url, details, created_at, updated_at, settled_at)
         values ($1, $1, 'INVOICE', 'BANKGIRO', $2, 'CAPTURED', $3, $4, $5, 'bank', $1, '/fakturaoversikt', '{}', now(), now(), now())`,
        [paymentId, amountOf(count + n), ACCOUNT_BASE + count + n, `bench-sub-${count + n}`, no],
      );
      await client.query(`update invoice set paid_at = now(), settled_by = 'BANKGIRO' where aria_invoice_no = $1`, [no]);
      await client.query(
        `insert into bank_transaction (bank_file_id, seq, title_code, transaction_type, kid, amount_ore, settled_on, aria_invoice_no, payment_id, outcome, created_at)
         values ($1, $2, 'ADR', 10, $3, $4, $5, $6, $7, 'SETTLED', now())`,
        [fileId, n, kidFor('invoice', no, title.bank), amountOf(count + n), today, no, paymentId],
      );
      statements += 3;
    }
    await client.query('commit');
  }
  return { seconds: round((performance.now() - started) / 1000), statements };
}

async function claimsBench(count: number): Promise<Record<string, unknown>> {
  const date = osloToday(systemClock());
  const dueOn = addDays(date, 7);
  const work = mkdtempSync(path.join(tmpdir(), 'minside-bench-bank-'));
  const scratch = await scratchDatabase();
  try {
    const setupStarted = performance.now();
    await admin(scratch.url, (client) => generate(client, count, dueOn, true));
    const setupSeconds = round((performance.now() - setupStarted) / 1000);
    const profileDir = PROFILE ? mkdtempSync(path.join(work, 'profile-')) : null;
    const app = await runChild(['claims', scratch.url, date, path.join(work, 'bank')], profileDir);
    if (app.result['claims'] !== count) throw new Error(`the claim run claimed ${String(app.result['claims'])} of ${count}`);
    const file = String(app.result['path']);
    const read = await runChild(['read', file], null);
    if (read.result['avtalegiro-claim'] !== count) throw new Error(`the claim file holds ${String(read.result['avtalegiro-claim'])} claims, not ${count}`);
    const floor = await admin(scratch.url, (client) => claimsFloor(client, date));
    const rate = count / app.seconds;
    const bytes = Number(app.result['bytes']);
    return {
      claims: count,
      setupSeconds,
      app: { ...app, claimsPerSecond: Math.round(rate), fileMb: mb(bytes) },
      readBack: { seconds: read.seconds, claimsPerSecond: Math.round(count / read.seconds), maxRssMb: read.maxRssMb, claimsCounted: read.result['avtalegiro-claim'] },
      floor: { ...floor, rowsPerSecond: Math.round(floor.rows / floor.seconds) },
      appOverFloor: round(rate / (floor.rows / floor.seconds), 3),
      ...(profileDir ? { profile: profileSummary(profileDir) } : {}),
    };
  } finally {
    await scratch.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The claims' rows as the writer reads them (claim, invoice, subscription, owner, mandate), streamed out of PostgreSQL and counted. */
async function claimsFloor(client: pg.Client, date: string): Promise<{ seconds: number; rows: number; mb: number }> {
  const started = performance.now();
  let bytes = 0;
  let rows = 0;
  const stream = client.query(
    copyTo(`copy (
      select i.aria_invoice_no, pa.provider_agreement_id, i.amount_ore, i.due_on, s.title_code, i.description, u.family_name, pa.bank_notice
        from invoice i
        join subscription s on s.id = i.subscription_id and s.payment_method = 'AVTALEGIRO'
        join payment_agreement pa on pa.subscription_id = s.id and pa.method = 'AVTALEGIRO' and pa.status = 'ACTIVE' and pa.provider_agreement_id is not null
        left join account a on a.aria_account_no = i.aria_account_no
        left join app_user u on u.id = a.user_id
       where i.paid_at is null and i.amount_ore > 0 and i.due_on between '${addDays(date, CLAIM_MIN_LEAD_DAYS)}' and '${addDays(date, CLAIM_MAX_LEAD_DAYS)}'
       order by s.title_code, i.aria_invoice_no) to stdout`),
  );
  await pipeline(
    stream,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 0x0a) rows += 1;
        done();
      },
    }),
  );
  return { seconds: round((performance.now() - started) / 1000), rows, mb: mb(bytes) };
}

async function main(): Promise<void> {
  // Not imported at the top: support.ts brings the whole app, which the children must not carry.
  const { machine } = await import('./support.ts');
  const loadBefore = machine().loadAverage;
  const report: Record<string, unknown> = { suite: 'bank files (issue 21 §7), PostgreSQL' };
  const server = await admin(SERVER_URL, async (client) => (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version);
  const measurements = createMeasurements();
  const { attempt } = measurements;
  if (ONLY !== 'claims') {
    const runs = [];
    for (const count of IMPORT_SIZES) runs.push(await attempt(`OCR import of ${count} payments`, () => importBench(count)));
    report['ocrImport'] = runs;
  }
  if (ONLY !== 'import') {
    const runs = [];
    for (const count of CLAIM_SIZES) runs.push(await attempt(`AvtaleGiro claims for ${count} subscribers`, () => claimsBench(count)));
    report['claims'] = runs;
  }
  report['machine'] = { ...machine(), postgres: server, loadAverageBefore: loadBefore, childHeapMb: CHILD_HEAP_MB || 'default', queryTimeoutMs: QUERY_TIMEOUT_MS ?? 'default' };
  console.log(JSON.stringify(report, null, 2));
  if (measurements.failed > 0) process.exitCode = 1;
}

const [mode, kind, ...args] = process.argv.slice(2);
if (mode === 'child') {
  const work = kind === 'import' ? childImport(args[0]!, args[1]!, args[2]!) : kind === 'claims' ? childClaims(args[0]!, args[1]!, args[2]!) : childRead(args[0]!);
  work.then(
    (report) => {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      // Let the profiler write its file: exit by running out of work, not process.exit.
    },
    (error: unknown) => {
      console.error(error);
      // drizzle reports the failed rollback; the cause is what happened first (e.g. pg's "Query read timeout").
      const first = (error as { cause?: { message?: string } }).cause?.message;
      process.stdout.write(`${JSON.stringify({ error: `${(error as Error).message}${first ? ` (${first})` : ''}` })}\n`);
      process.exitCode = 1;
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
