import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kidFor, osloToday, systemClock } from '@minside/domain';
import { bankFileText, writeOcrGiro } from '@minside/bank-files';
import { defaultCatalogue } from '@minside/titles';
import { createDatabase, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed.ts';
import { createScratchDatabase, DEMO_PASSWORD, type ScratchDatabase } from './helper.ts';
import { netbankPayment } from './support.ts';

// Issue 21 §8: an import killed at any point (SIGKILL) and run again settles each transaction
// exactly once. The real operator command (`admin bank import`, the built bundle) is killed at
// many points of a real import on a real PostgreSQL server; after the last run the ledger holds
// every payment once: none lost, none doubled. PostgreSQL only: it is the database that survives a
// killed client, as production's does (PGlite lives inside the process that is killed).

const admin = fileURLToPath(new URL('../dist/admin.js', import.meta.url));
const INVOICES = 1_500;
const adr = defaultCatalogue.byTitleCode('ADR').bank;

describe.runIf(process.env.TEST_DATABASE_URL)('bank import killed and run again (postgres)', () => {
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
    // Many open invoices of one subscription, each with its own KID, and a file that pays every one.
    await database.rows(sql`
      insert into invoice (aria_account_no, subscription_id, kid, amount_ore, description, period_from, period_to, due_on, bank_account_number)
      select 40000002, 'demo-digital-adr', '0', 10000 + n, 'Krasjtest', '2040-01-01', '2040-01-31', '2039-12-30', '1503.12.40007' from generate_series(1, ${INVOICES}) n`);
    const numbers = await database.rows<{ no: string }>(sql`select aria_invoice_no::text as no from invoice where description = 'Krasjtest' order by aria_invoice_no`);
    for (const { no } of numbers) await database.rows(sql`update invoice set kid = ${kidFor('invoice', Number(no), adr)} where aria_invoice_no = ${Number(no)}`);
    const today = osloToday(systemClock());
    const transactions = numbers.map(({ no }, index) =>
      netbankPayment(kidFor('invoice', Number(no), adr), 10_000 + index + 1, today, { archiveReference: String(index + 1).padStart(9, '0'), bankDate: today }),
    );
    dir = mkdtempSync(path.join(tmpdir(), 'minside-bank-crash-'));
    file = path.join(dir, 'ocr.txt');
    const text = await bankFileText(writeOcrGiro({ transmissionNumber: '0000777', dataRecipient: '71000001', netsDate: today, assignments: [{ agreementId: adr.ocrAgreementId, assignmentNumber: '0000777', account: adr.creditorAccount, netsDate: today, transactions }] }));
    writeFileSync(file, Buffer.from(text, 'latin1'));
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await scratch?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const settledRows = async () => Number((await database.rows<{ n: string }>(sql`select count(*)::text as n from bank_transaction`))[0]?.n ?? 0);

  /**
   * Runs the operator's import and kills it with SIGKILL: after `kill.ms` (start-up, before any
   * write), or as soon as `kill.rows` transactions are committed (mid-import, wherever the next
   * batch is), unless it finished first.
   */
  function runImport(kill: { ms: number } | { rows: number } | null): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [admin, 'bank', 'import', file], {
        env: { ...process.env, DATABASE_URL: scratch.options.kind === 'postgres' ? scratch.options.url : '', BANK_FILES_DIR: path.join(dir, 'bank'), NODE_ENV: 'development', LOG_LEVEL: 'warn', OPERATOR_TOKEN: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let exited = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = kill && 'ms' in kill ? setTimeout(() => child.kill('SIGKILL'), kill.ms) : null;
      const watch = async () => {
        while (!exited && kill && 'rows' in kill) {
          if ((await settledRows()) >= kill.rows) {
            child.kill('SIGKILL');
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


  it('settles every payment exactly once however often the import is killed', async () => {
    // Kill points spread over start-up and the import itself; each run resumes where the last stopped.
    const partial = new Set<number>();
    const kills = [{ ms: 300 }, { ms: 1_500 }, { rows: 1 }, ...[150, 400, 600, 850, 1_100, 1_300].map((rows) => ({ rows }))];
    for (const kill of kills) {
      const run = await runImport(kill);
      if (run.signal !== 'SIGKILL') expect(run.code, run.stderr).toBe(0);
      const done = await settledRows();
      if (done > 0 && done < INVOICES) partial.add(done);
    }
    // The test must have killed imports mid-way, or it proves nothing.
    expect(partial.size, 'no kill landed inside the import: the kill points need adjusting').toBeGreaterThanOrEqual(4);

    const last = await runImport(null);
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
    const again = await runImport(null);
    expect(JSON.parse(again.stdout)).toMatchObject({ duplicate: true, settled: INVOICES });
  }, 240_000);
});
