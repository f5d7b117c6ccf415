import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { BankFileError, linesFromBytes, splitLines, decodeBankFile } from '@minside/bank-files';
import { osloToday } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { bankFile, bankTransaction } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { BankFileArchive } from './archive.ts';
import { exchangeBankFiles, type BankExchangeSummary } from './exchange.ts';
import type { BankTransport } from './transport.ts';
import { createClaimRun, DEMO_CUSTOMER_UNIT_ID, type ClaimRunSummary } from './claims.ts';
import { settlementReport, type SettlementReport } from './settlement.ts';
import { createBankImport, type BankImportSummary } from './import.ts';
import type { LineSource } from './import-passes.ts';
import { unmatchedReasons, type UnmatchedReason } from './import-record.ts';

/**
 * The bank rails (issue 21), one service for the operator API, the CLI and the jobs: import a
 * file from the bank, write the day's AvtaleGiro claims, list what needs a person.
 */
export interface BankServiceDeps {
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  archive: BankFileArchive;
  /** How files reach the bank and come back: the local folders, or Nets' SFTP server (transport.ts). */
  transport: BankTransport;
  customerUnitId: string | undefined;
  production: boolean;
  now: () => Date;
  portalOrigin: (titleCode: string) => string;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void; error(details: object, message: string): void };
}

export interface ReconciliationItem {
  fileId: string;
  transmissionNumber: string;
  seq: number;
  titleCode: string | null;
  kid: string;
  amountOre: number;
  reason: UnmatchedReason;
  reasonText: string;
  ariaInvoiceNo: number | null;
  settledOn: string | null;
  debitAccount: string | null;
}

export function createBankService(deps: BankServiceDeps) {
  const { db, catalogue, mailer, archive, transport, now, portalOrigin, log } = deps;
  const importer = createBankImport({ db, catalogue, mailer, now, portalOrigin });

  /** The bank's refusal in its own words: "Linje 3: posten har 79 tegn, ikke 80", as a 422 with a stable code. */
  function refused(error: BankFileError): AppError {
    return new AppError(422, 'BANK_FILE_INVALID', error.message, `${error.code} (line ${error.line}, field ${error.field})`);
  }

  async function importWith(content: Uint8Array | { path: string }, fileName: string | null, lines: LineSource): Promise<BankImportSummary> {
    const { sha256 } = content instanceof Uint8Array ? await archive.archiveIncoming(content, fileName) : await archive.archiveIncomingFile(content.path);
    try {
      return await importer.importFile(lines, { sha256, fileName });
    } catch (error) {
      // Refused for the file's own sake (its layout, a claim file sent back, a transmission number reused): kept aside with the reason.
      const refusal = error instanceof BankFileError ? refused(error) : error instanceof AppError && error.statusCode < 500 ? error : undefined;
      if (!refusal) throw error;
      const at = await archive.quarantine(content, sha256, fileName, refusal.message);
      const where = error instanceof BankFileError ? { line: error.line, field: error.field } : {};
      log.warn(
        { fileName, sha256, quarantined: at, code: error instanceof BankFileError ? error.code : refusal.code, ...where, reason: refusal.message },
        'bank file refused and quarantined: the operator must look at it',
      );
      throw refusal;
    }
  }

  /** A file on disk: read twice as a stream, never whole into memory. */
  function importPath(filePath: string): Promise<BankImportSummary> {
    return importWith({ path: filePath }, path.basename(filePath), () => linesFromBytes(createReadStream(filePath) as AsyncIterable<Uint8Array>));
  }

  return {
    /** A file as bytes (the API's body, a file the CLI read): archived, checked whole, then applied. */
    async importBytes(bytes: Uint8Array, fileName: string | null): Promise<BankImportSummary> {
      if (bytes.length === 0) throw new AppError(422, 'BANK_FILE_INVALID', 'Linje 1: filen er tom.', 'EMPTY_FILE (line 1, field record)');
      return importWith(bytes, fileName, () => linesFromBytes([bytes]));
    },

    /** A file on disk (the CLI, the exchange's inbox). */
    importPath,

    /** A file given as text (the API's text/plain body): must be ISO-8859-1 characters only. */
    async importText(text: string, fileName: string | null): Promise<BankImportSummary> {
      let bytes: Uint8Array;
      try {
        bytes = Uint8Array.from(text, (char) => {
          const code = char.charCodeAt(0);
          if (code > 0xff) throw new BankFileError('INVALID_CHARACTER', splitLines(text.slice(0, text.indexOf(char))).length || 1, 'record', 'tegn som ikke finnes i ISO-8859-1');
          return code;
        });
        decodeBankFile(bytes);
      } catch (error) {
        if (error instanceof BankFileError) throw refused(error);
        throw error;
      }
      return this.importBytes(bytes, fileName);
    },

    /**
     * Writes (or writes again, identically) today's AvtaleGiro claims. Only today's: the file goes
     * to the bank now, so its lead times count from today — a file "for" another day would claim
     * invoices too late for the bank or withdraw claims the bank no longer lets go.
     */
    async claims(date: string): Promise<ClaimRunSummary> {
      if (!deps.customerUnitId && deps.production) {
        throw new AppError(409, 'BANK_NOT_CONFIGURED', 'BANK_CUSTOMER_UNIT_ID er ikke satt: uten kundeenhets-ID fra Nets sendes ingen trekkfil.');
      }
      const today = osloToday(now());
      if (date !== today) {
        throw new AppError(
          409,
          'BANK_CLAIMS_NOT_TODAY',
          `Trekkfilen lages bare for i dag (${today}): den sendes til banken nå, og fristene regnes fra i dag. En fil fra en tidligere dag kan leses med GET /api/operator/bank-files/avtalegiro-claims?date=${date}.`,
        );
      }
      return createClaimRun({ db, catalogue, archive, customerUnitId: deps.customerUnitId ?? DEMO_CUSTOMER_UNIT_ID, now }).run(date);
    },

    /**
     * The claim file written for `date` (by the daily job or `admin bank claims`), read back from
     * the archive: reading never decides or writes claims. Null when no file was written that day.
     */
    async claimFile(date: string): Promise<{ fileName: string; text: string; transactions: number } | null> {
      const [file] = await db
        .select()
        .from(bankFile)
        .where(
          and(
            eq(bankFile.direction, 'OUT'),
            eq(bankFile.kind, 'avtalegiro-claims'),
            eq(bankFile.dataTransmitter, deps.customerUnitId ?? DEMO_CUSTOMER_UNIT_ID),
            eq(bankFile.netsDate, date),
            eq(bankFile.status, 'WRITTEN'),
          ),
        );
      if (!file?.fileName) return null;
      const bytes = await readFile(archive.archivedOutgoing(file.sha256, file.fileName));
      return { fileName: file.fileName, text: bytes.toString('latin1'), transactions: file.transactions };
    },

    /** Today in Oslo on the app's clock: the day the scheduled claim run writes. */
    today(): string {
      return osloToday(now());
    },

    /**
     * Fetches the bank's new files and imports each (a refused one is quarantined and the others go
     * on), then delivers the claim files waiting in the outbox (exchange.ts).
     */
    exchange(): Promise<BankExchangeSummary> {
      return exchangeBankFiles({ transport, root: archive.root, importPath, log });
    },

    /** The bookkeeper's report of one day: by title and channel, with the bank files' control sums. */
    settlement(date: string): Promise<SettlementReport> {
      return settlementReport(db, date);
    },

    /** What a person must place: unknown KIDs, closed invoices, over-payments… oldest first. */
    async reconciliation(): Promise<ReconciliationItem[]> {
      const rows = await db
        .select({ row: bankTransaction, transmissionNumber: bankFile.transmissionNumber })
        .from(bankTransaction)
        .innerJoin(bankFile, eq(bankFile.id, bankTransaction.bankFileId))
        .where(and(sql`${bankTransaction.reason} is not null`, isNull(bankTransaction.resolvedAt)))
        .orderBy(asc(bankTransaction.createdAt), asc(bankTransaction.seq));
      return rows.map(({ row, transmissionNumber }) => {
        const reason = row.reason as UnmatchedReason;
        return {
          fileId: row.bankFileId,
          transmissionNumber,
          seq: row.seq,
          titleCode: row.titleCode,
          kid: row.kid,
          amountOre: row.openAmountOre,
          reason,
          reasonText: unmatchedReasons[reason] ?? reason,
          ariaInvoiceNo: row.ariaInvoiceNo,
          settledOn: row.settledOn,
          debitAccount: row.debitAccount,
        };
      });
    },
  };
}

export type BankService = ReturnType<typeof createBankService>;
