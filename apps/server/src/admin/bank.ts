import { copyFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { formatKroner } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import { settlementCsv } from '../modules/bank/index.ts';
import { AdminInputError, parse, type AdminContext } from './args.ts';

export const bankUsage = 'bank import <file> | exchange | claims [--date YYYY-MM-DD, today] [--out file] | settlement --date YYYY-MM-DD [--out file.csv] | reconciliation';

/** The bank rails from the operator's terminal (issue 21): the same service as /api/operator/bank-files. */
export async function bankCommand(context: AdminContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === 'import') return await importFile(context, rest);
    if (sub === 'exchange') return await exchange(context, rest);
    if (sub === 'claims') return await claims(context, rest);
    if (sub === 'reconciliation') return await reconciliation(context, rest);
    if (sub === 'settlement') return await settlement(context, rest);
  } catch (error) {
    // The file's own fault (a record of 79 characters, a transmission number reused): said as it is, no stack.
    if (error instanceof AppError) throw new AdminInputError(`${error.message}${error.detail ? ` [${error.code}: ${error.detail}]` : ` [${error.code}]`}\nNothing was changed.`);
    throw error;
  }
  throw new AdminInputError(`Usage: npm run admin -- ${bankUsage}`);
}

async function importFile(context: AdminContext, args: string[]): Promise<number> {
  const { positionals } = parse(args, {}, bankUsage);
  const [file, ...more] = positionals;
  if (!file || more.length > 0) throw new AdminInputError(`Give one bank file.\nUsage: npm run admin -- ${bankUsage}`);
  if (!existsSync(file)) throw new AdminInputError(`No such file: ${file}`);
  const summary = await context.app.bank.importPath(file);
  context.print(JSON.stringify(summary, null, 2));
  return 0;
}

async function exchange(context: AdminContext, args: string[]): Promise<number> {
  parse(args, {}, bankUsage);
  const summary = await context.app.bank.exchange().catch((error: unknown) => {
    // The server away, a wrong host key, a file that would not import: one line, no stack; nothing is lost.
    throw new AdminInputError(`Bank exchange failed: ${(error as Error).message}\nWhat was not done stays where it is (inbox, outbox, the bank's server) and is tried again on the next exchange.`);
  });
  context.print(`Bank exchange: ${summary.received} received (${summary.imported} imported, ${summary.duplicates} duplicates, ${summary.quarantined} quarantined), ${summary.sent} sent.`);
  // A quarantined file needs a person: say so in the exit code too.
  if (summary.quarantined > 0) context.print('Quarantined files and their errors are in BANK_FILES_DIR/quarantine/.');
  return summary.quarantined > 0 ? 2 : 0;
}

async function claims(context: AdminContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { date: { type: 'string' }, out: { type: 'string' } }, bankUsage);
  if (positionals.length > 0 || (values.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.date)))
    throw new AdminInputError(`Give the run's date as --date YYYY-MM-DD (today, the only day a claim file is made for).\nUsage: npm run admin -- ${bankUsage}`);
  const run = await context.app.bank.claims(values.date ?? context.app.bank.today());
  if (!run.path) {
    context.print(`No AvtaleGiro claims or cancellations to send for ${run.date}: no file.`);
    return 0;
  }
  if (values.out) await copyFile(run.path, values.out);
  context.print(`AvtaleGiro claims of ${run.date}: transmission ${run.transmissionNumber}, ${run.claims} claims, ${run.cancellations} cancellations, ${formatKroner(run.amountOre)}`);
  context.print(`File: ${values.out ?? run.path}`);
  return 0;
}

async function settlement(context: AdminContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { date: { type: 'string' }, out: { type: 'string' } }, bankUsage);
  if (positionals.length > 0 || !values.date || !/^\d{4}-\d{2}-\d{2}$/.test(values.date)) throw new AdminInputError(`Give the day as --date YYYY-MM-DD.\nUsage: npm run admin -- ${bankUsage}`);
  const report = await context.app.bank.settlement(values.date);
  const csv = settlementCsv(report);
  if (values.out) {
    await writeFile(values.out, csv);
    context.print(`Settlement of ${values.date} written to ${values.out}`);
  } else context.write(csv);
  // A bank file whose rows do not add up to its end record is an error the bookkeeper must hear about.
  return report.bankFiles.every((file) => file.endRecordOre === file.importedOre) ? 0 : 2;
}

async function reconciliation(context: AdminContext, args: string[]): Promise<number> {
  parse(args, {}, bankUsage);
  const items = await context.app.bank.reconciliation();
  if (items.length === 0) {
    context.print('Nothing to reconcile: every bank transaction is placed.');
    return 0;
  }
  context.print(`${items.length} bank transactions need a person:`);
  for (const item of items) {
    context.print(
      `  transmission ${item.transmissionNumber} #${item.seq}  ${item.titleCode ?? '—'}  KID ${item.kid}  ${formatKroner(item.amountOre)}  ${item.reasonText}${item.ariaInvoiceNo ? ` (faktura ${item.ariaInvoiceNo})` : ''}`,
    );
  }
  return 0;
}
