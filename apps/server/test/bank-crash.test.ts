import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, kidFor, osloToday, systemClock } from '@minside/domain';
import { bankFileText, parseBankFile, writeOcrGiro } from '@minside/bank-files';
import { defaultCatalogue } from '@minside/titles';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { createScratchDatabase, DEMO_PASSWORD, type ScratchDatabase } from './helper.ts';
import { netbankPayment } from './support.ts';

// Issue 21 §8: an import or a claim run killed at any point (SIGKILL, or its database connections
// cut) and run again settles each transaction exactly once and writes each claim exactly once. The
// real operator commands (`admin bank import`, `admin bank claims`, the built bundle) are killed at
// many points on a real PostgreSQL server; after the last run the ledger holds every payment once
// and the claim file every claim once: none lost, none doubled. PostgreSQL only: it is the database
// that survives a killed client, as production's does (PGlite lives inside the process that is killed).

const admin = fileURLToPath(new URL('../dist/admin.js', import.meta.url));
const INVOICES = 1_500;
const adr = defaultCatalogue.byTitleCode('ADR').bank;

describe.runIf(process.env.TEST_DATABASE_URL)('bank import and claim run killed or cut off and run again (postgres)', () => {
  let scratch: ScratchDatabase;
  let database: Database;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    expect(existsSync(admin), 'apps/server/dist/admin.js is missing: run `npm run build` first').toBe(true);
    scratch = await createScratchDatabase('postgres');
    database = await createDatabase(scratch.options);
    await migrate(database);
    await seedDemoData(database, { password: DEMO_PASSWORD, now: systemClock });
    dir = mkdtempSync(path.join(tmpdir(), 'minside-bank-crash-'));
    file = await payingFile('Krasjtest', '0000777');
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await scratch?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Many open invoices of one subscription, each with its own KID, and an OCR file that pays every one. */
  async function payingFile(description: string, transmissionNumber: string): Promise<string> {
    await database.rows(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      select 40000002, 'demo-digital-adr', '0', 10000 + n, ${description}, '2040-01-01', '2040-01-31', '2039-12-30', '1503.12.40007' from generate_series(1, ${INVOICES}) n`);
    const numbers = await database.rows<{ no: string }>(sql`select aria_invoice_no::text as no from invoice where description = ${description} order by aria_invoice_no`);
    for (const { no } of numbers) await database.rows(sql`update invoice set kid = ${kidFor('invoice', Number(no), adr)} where aria_invoice_no = ${Number(no)}`);
    const today = osloToday(systemClock());
    const transactions = numbers.map(({ no }, index) =>
      netbankPayment(kidFor('invoice', Number(no), adr), 10_000 + index + 1, today, { archiveReference: String(index + 1).padStart(9, '0'), bankDate: today }),
    );
    const target = path.join(dir, `ocr-${transmissionNumber}.txt`);
    const text = await bankFileText(
      writeOcrGiro({
        transmissionNumber,
        dataRecipient: '71000001',
        netsDate: today,
        assignments: [{ agreementId: adr.ocrAgreementId, assignmentNumber: transmissionNumber, account: adr.creditorAccount, netsDate: today, transactions }],
      }),
    );
    writeFileSync(target, Buffer.from(text, 'latin1'));
    return target;
  }

  const settledRows = async () => Number((await database.rows<{ n: string }>(sql`select count(*)::text as n from bank_transaction`))[0]?.n ?? 0);

  /** When to stop a run: after `ms` (start-up), or once `until` says so (then after `afterMs`); by SIGKILL, or by cutting its database connections. */
  type Stop = { ms: number } | { until: () => Promise<boolean>; afterMs?: number; cut?: boolean };
  const afterRows = (rows: number): Stop => ({ until: async () => (await settledRows()) >= rows });

  /** Cuts every other connection to the scratch database, as a database restart or a network cut would. */
  const cutConnections = () => database.rows(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);

  /** Runs an operator command (`admin bank …`, the built bundle) and stops it as `stop` says, unless it finished first. */
  function runAdmin(args: string[], stop: Stop | null): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [admin, 'bank', ...args], {
        env: {
          ...process.env,
          DATABASE_URL: scratch.options.kind === 'postgres' ? scratch.options.url : '',
          BANK_FILES_DIR: path.join(dir, 'bank'),
          NODE_ENV: 'development',
          LOG_LEVEL: 'warn',
          OPERATOR_TOKEN: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let exited = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = stop && 'ms' in stop ? setTimeout(() => child.kill('SIGKILL'), stop.ms) : null;
      const watch = async () => {
        while (!exited && stop && 'until' in stop) {
          if (await stop.until().catch(() => false)) {
            if (stop.afterMs) await new Promise((wait) => setTimeout(wait, stop.afterMs));
            if (stop.cut) await cutConnections().catch(() => undefined);
            else child.kill('SIGKILL');
            return;
          }
          await new Promise((wait) => setTimeout(wait, 20));
        }
      };
      void watch();
      child.on('exit', (code, signal) => {
        exited = true;
        if (timer) clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  const ledgerOf = (description: string) =>
    database.rows<{ paid: string; payments: string; sum: string; doubled: string }>(sql`
      select
        (select count(*) from invoice where description = ${description} and paid_at is not null)::text as paid,
        (select count(*) from payment p join invoice i using (aria_invoice_no) where i.description = ${description} and p.provider = 'bank' and p.status = 'CAPTURED')::text as payments,
        (select coalesce(sum(p.amount_ore), 0) from payment p join invoice i using (aria_invoice_no) where i.description = ${description} and p.provider = 'bank' and p.status = 'CAPTURED')::text as sum,
        (select count(*) from (select aria_invoice_no from payment p join invoice i using (aria_invoice_no) where i.description = ${description} and p.provider = 'bank' group by aria_invoice_no having count(*) > 1) d)::text as doubled`);

  it('settles every payment exactly once however often the import is killed', async () => {
    // Kill points spread over start-up and the import itself; each run resumes where the last stopped.
    const partial = new Set<number>();
    const kills: Stop[] = [{ ms: 300 }, { ms: 1_500 }, afterRows(1), ...[150, 400, 600, 850, 1_100, 1_300].map(afterRows)];
    for (const kill of kills) {
      const run = await runAdmin(['import', file], kill);
      if (run.signal !== 'SIGKILL') expect(run.code, run.stderr).toBe(0);
      const done = await settledRows();
      if (done > 0 && done < INVOICES) partial.add(done);
    }
    // The test must have killed imports mid-way, or it proves nothing.
    expect(partial.size, 'no kill landed inside the import: the kill points need adjusting').toBeGreaterThanOrEqual(4);

    const last = await runAdmin(['import', file], null);
    expect(last.code, last.stderr).toBe(0);
    const summary = JSON.parse(last.stdout) as { settled: number; transactions: number; duplicate: boolean; unmatched: unknown[] };
    expect(summary).toMatchObject({ transactions: INVOICES, settled: INVOICES, unmatched: [] });

    const [ledger] = await database.rows<{ rows: string; distinct_seq: string; payments: string; paid: string; sum: string; doubled: string }>(sql`
      select
        (select count(*) from bank_transaction)::text as rows,
        (select count(distinct seq) from bank_transaction)::text as distinct_seq,
        (select count(*) from payment where provider = 'bank' and status = 'CAPTURED')::text as payments,
        (select count(*) from invoice where description = 'Krasjtest' and paid_at is not null)::text as paid,
        (select coalesce(sum(amount_ore), 0) from payment where provider = 'bank' and status = 'CAPTURED')::text as sum,
        (select count(*) from (select aria_invoice_no from payment where provider = 'bank' group by aria_invoice_no having count(*) > 1) d)::text as doubled`);
    expect(ledger).toEqual({
      rows: String(INVOICES),
      distinct_seq: String(INVOICES),
      payments: String(INVOICES),
      paid: String(INVOICES),
      sum: String(INVOICES * 10_000 + (INVOICES * (INVOICES + 1)) / 2),
      doubled: '0',
    });

    // And once more, whole: the transmission is known, nothing changes.
    const again = await runAdmin(['import', file], null);
    expect(JSON.parse(again.stdout)).toMatchObject({ duplicate: true, settled: INVOICES });
  }, 240_000);
  it('settles every payment exactly once when its database connections are cut in the middle of an import', async () => {
    const cutFile = await payingFile('Krasjtest-kutt', '0000778');
    const before = await settledRows();
    // Cut at two points inside the import; each run fails on the cut and the next resumes.
    const cuts = [200, 700].map((rows): Stop => ({ until: async () => (await settledRows()) >= before + rows, cut: true }));
    let interrupted = 0;
    for (const stop of cuts) {
      const run = await runAdmin(['import', cutFile], stop);
      if (run.code !== 0) {
        interrupted += 1;
        // The operator is told, in one line without a stack, and nothing half-done is claimed.
        expect(run.stderr).toContain('the database connection was lost');
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
    }
    expect(interrupted, 'no cut landed inside the import').toBeGreaterThanOrEqual(1);
    const last = await runAdmin(['import', cutFile], null);
    expect(last.code, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ transactions: INVOICES, settled: INVOICES, unmatched: [] });
    expect((await ledgerOf('Krasjtest-kutt'))[0]).toEqual({ paid: String(INVOICES), payments: String(INVOICES), sum: String(INVOICES * 10_000 + (INVOICES * (INVOICES + 1)) / 2), doubled: '0' });
  }, 240_000);

  it('writes each AvtaleGiro claim exactly once however often the claim run is killed', async () => {
    // Papir's subscription is on AvtaleGiro with a mandate the bank confirmed (the seed): many invoices due in a week.
    const CLAIMS = 20_000;
    const today = osloToday(systemClock());
    await database.rows(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      select 40000001, 'demo-papir-adr', '0', 20000 + n, 'Krasjtrekk ' || n, '2040-01-01', '2040-01-31', ${addDays(today, 7)}, '1503.12.40007' from generate_series(1, ${CLAIMS}) n`);
    const fileState = async () => (await database.rows<{ status: string }>(sql`select status from bank_file where direction = 'OUT' and kind = 'avtalegiro-claims'`))[0]?.status ?? null;
    const deciding = async () =>
      (
        await database.rows<{ n: string }>(
          sql`select count(*)::text as n from pg_stat_activity where datname = current_database() and state = 'active' and query ilike '%insert into "avtalegiro_claim"%'`,
        )
      )[0]?.n !== '0';
    // Start-up, in the middle of deciding (one transaction), and at three points while the file is written.
    const kills: Stop[] = [
      { ms: 300 },
      { until: deciding },
      { until: async () => (await fileState()) === 'WRITING' },
      { until: async () => (await fileState()) === 'WRITING', afterMs: 300 },
      { until: async () => (await fileState()) === 'WRITING', afterMs: 900 },
    ];
    const states: (string | null)[] = [];
    for (const kill of kills) {
      const run = await runAdmin(['claims'], kill);
      if (run.signal !== 'SIGKILL') expect(run.code, run.stderr).toBe(0);
      states.push(await fileState());
    }
    // The kills must have landed while the file was being written, or this proves little.
    expect(states.filter((state) => state === 'WRITING').length, `states after the kills: ${states.join(', ')}`).toBeGreaterThanOrEqual(2);

    const last = await runAdmin(['claims'], null);
    expect(last.code, last.stderr).toBe(0);
    const [file] = await database.rows<{ status: string; transactions: number; file_name: string }>(
      sql`select status, transactions, file_name from bank_file where direction = 'OUT' and kind = 'avtalegiro-claims'`,
    );
    expect(file?.status).toBe('WRITTEN');
    const [claims] = await database.rows<{ rows: string; invoices: string }>(sql`
      select count(*)::text as rows, count(distinct c.aria_invoice_no)::text as invoices from avtalegiro_claim c join invoice i using (aria_invoice_no) where i.description like 'Krasjtrekk %'`);
    expect(claims).toEqual({ rows: String(CLAIMS), invoices: String(CLAIMS) });
    // One complete file in the outbox (half-written ones under their temporary names are never sent), every claim in it once.
    const outbox = path.join(dir, 'bank', 'outbox');
    const complete = readdirSync(outbox).filter((name) => !name.endsWith('.partial'));
    expect(complete).toEqual([file?.file_name]);
    const parsed = await parseBankFile(readFileSync(path.join(outbox, complete[0] ?? ''), 'latin1'));
    const references = parsed.assignments.flatMap((assignment) => assignment.transactions).map((t) => ('externalReference' in t ? t.externalReference : null));
    expect(references.length).toBe(file?.transactions);
    expect(new Set(references).size).toBe(references.length);
    expect(references.length).toBeGreaterThanOrEqual(CLAIMS);

    // Run again: the same file, nothing claimed twice.
    const again = await runAdmin(['claims'], null);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(outbox).filter((name) => !name.endsWith('.partial'))).toEqual(complete);
    expect((await database.rows<{ n: string }>(sql`select count(*)::text as n from avtalegiro_claim`))[0]?.n).toBe(String(file?.transactions));
  }, 240_000);
});
