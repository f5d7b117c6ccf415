import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../lib/app-error.ts';
import type { BankImportSummary } from './import.ts';
import { sha256OfFile } from './archive.ts';
import { filesIn, type BankTransport } from './transport.ts';

/**
 * One exchange with the bank (issue 21; the `bank-exchange` job, `npm run admin -- bank
 * exchange`): fetch the bank's new files and import each, then deliver the claim files waiting in
 * the outbox. A refused file is quarantined (service.ts logs it at warn with its name) and taken
 * out of the way, so it is never imported again and never stops the others. A file that could
 * not be imported for another reason (the database away) stays where it is for the next exchange,
 * and the exchange fails after doing everything else, so the job run says so.
 */
export interface BankExchangeSummary {
  /** Files found in the inbox (downloaded, or left by a person or an earlier exchange). */
  received: number;
  imported: number;
  /** Transmissions imported before: nothing changed. */
  duplicates: number;
  quarantined: number;
  /** Claim files delivered to the bank (moved from outbox/ to sent/). */
  sent: number;
}

export interface BankExchangeDeps {
  transport: BankTransport;
  /** BANK_FILES_DIR: its outbox/ and sent/. */
  root: string;
  importPath(filePath: string): Promise<BankImportSummary>;
  log: {
    info(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

export async function exchangeBankFiles({ transport, root, importPath, log }: BankExchangeDeps): Promise<BankExchangeSummary> {
  const summary: BankExchangeSummary = { received: 0, imported: 0, duplicates: 0, quarantined: 0, sent: 0 };
  const failed: string[] = [];
  const session = await transport.open();
  try {
    const { files: incoming, failed: notFetched } = await session.receive();
    failed.push(...notFetched);
    summary.received = incoming.length;
    for (const file of incoming) {
      try {
        const imported = await importPath(file.path);
        if (imported.duplicate) summary.duplicates += 1;
        else summary.imported += 1;
      } catch (error) {
        // The file's own fault: the service quarantined it (and logged it) before refusing it.
        if (!(error instanceof AppError && error.statusCode < 500)) {
          failed.push(file.name);
          log.error({ err: error, fileName: file.name }, 'bank file could not be imported: it stays in the inbox for the next exchange');
          continue;
        }
        summary.quarantined += 1;
      }
      try {
        await session.acknowledge(file);
      } catch (error) {
        // Harmless to meet again (a duplicate, or quarantined again), but the operator should know it keeps coming.
        failed.push(file.name);
        log.error({ err: error, fileName: file.name }, 'bank file was imported but could not be removed from the inbox');
      }
    }

    const outbox = path.join(root, 'outbox');
    const sent = path.join(root, 'sent');
    for (const name of await filesIn(outbox)) {
      const pending = path.join(outbox, name);
      const delivered = path.join(sent, name);
      try {
        // Written again for a day already sent (`bank claims --date` run twice): the bank has it, never twice.
        if ((await exists(delivered)) && (await sha256OfFile(delivered)) === (await sha256OfFile(pending))) {
          log.info({ fileName: name }, 'bank file was sent before: not sent again');
          await rm(pending, { force: true });
          continue;
        }
        await session.send(pending, name);
        await mkdir(sent, { recursive: true });
        await rename(pending, delivered);
        summary.sent += 1;
        log.info({ fileName: name, to: transport.description }, 'bank file sent');
      } catch (error) {
        failed.push(name);
        log.error({ err: error, fileName: name, to: transport.description }, 'bank file could not be sent: it stays in the outbox for the next exchange');
      }
    }
  } finally {
    await session.close();
  }
  log.info({ ...summary, via: transport.kind }, 'bank exchange finished');
  if (failed.length > 0) {
    throw new Error(
      `Bank exchange: ${failed.length} file(s) not done, tried again on the next exchange: ${failed.join(', ')} ` +
        `(received ${summary.received}, imported ${summary.imported}, duplicates ${summary.duplicates}, quarantined ${summary.quarantined}, sent ${summary.sent})`,
    );
  }
  return summary;
}
