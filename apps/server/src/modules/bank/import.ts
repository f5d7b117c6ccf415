import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { AVTALEGIRO_MANDATE_TYPE } from '@minside/bank-files';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { bankFile, bankTransaction } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { batches, readHeader, type Header, type ImportedKind, type LineSource } from './import-passes.ts';
import { signedAmountOf, titleOfAssignment } from './import-record.ts';
import { applyMandate } from './mandates.ts';
import { createOcrPayments } from './ocr-payments.ts';

/**
 * Imports a bank file from Nets (issue 21): OCR Giro payments settle invoices (ocr-payments.ts),
 * AvtaleGiro mandate files confirm or delete mandates (mandates.ts). Only the bank's word moves money here.
 *
 * Two passes over the file (import-passes.ts): the first reads it whole and strictly (a file that breaks the layout is
 * refused whole and changes nothing), the second applies it in batches. Every transaction is one
 * `bank_transaction` row keyed by (file, position), written in the same database transaction as
 * its effect, so an import killed at any point and run again settles each transaction once; a
 * second import of a finished transmission changes nothing and says `duplicate`.
 */

interface UnmatchedTransaction {
  kid: string;
  amountOre: number;
  reason: string;
}

export interface BankImportSummary {
  kind: ImportedKind;
  transmissionNumber: string;
  transactions: number;
  /** Invoices this import marked paid. */
  settled: number;
  duplicate: boolean;
  /** What a person must place: the reconciliation list's rows from this file, the first UNMATCHED_LISTED of them. */
  unmatched: UnmatchedTransaction[];
  /** All of them: a file the bank sent to the wrong customer can hold 100,000 (the whole list is `bank reconciliation`). */
  unmatchedCount: number;
}

/** The import's answer lists this many unmatched transactions at most: the answer stays small whatever the file. */
const UNMATCHED_LISTED = 1_000;

export interface BankImportDeps {
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
  portalOrigin: (titleCode: string) => string;
}

export function createBankImport({ db, catalogue, mailer, now, portalOrigin }: BankImportDeps) {
  const titleOf = titleOfAssignment(catalogue);
  const applyOcr = createOcrPayments({ catalogue, mailer, now, portalOrigin, titleOf });

  async function summaryOf(fileId: string, header: Header, duplicate: boolean): Promise<BankImportSummary> {
    const [counts] = await db
      .select({
        settled: sql<string>`count(*) filter (where ${bankTransaction.outcome} in ('SETTLED', 'OVERPAID'))`,
        unmatched: sql<string>`count(*) filter (where ${bankTransaction.reason} is not null)`,
      })
      .from(bankTransaction)
      .where(eq(bankTransaction.bankFileId, fileId));
    const unmatched = await db
      .select({ kid: bankTransaction.kid, amountOre: bankTransaction.openAmountOre, reason: bankTransaction.reason })
      .from(bankTransaction)
      .where(and(eq(bankTransaction.bankFileId, fileId), sql`${bankTransaction.reason} is not null`))
      .orderBy(asc(bankTransaction.seq))
      .limit(UNMATCHED_LISTED);
    return {
      kind: header.kind,
      transmissionNumber: header.transmissionNumber,
      transactions: header.transactions,
      settled: Number(counts?.settled ?? 0),
      duplicate,
      unmatched: unmatched.map((row) => ({ kid: row.kid, amountOre: row.amountOre, reason: row.reason ?? '' })),
      unmatchedCount: Number(counts?.unmatched ?? 0),
    };
  }

  return {
    /**
     * Imports one file. `lines` is called twice (check, then apply). Throws the reader's
     * BankFileError when the file breaks the layout, before anything is stored.
     */
    async importFile(lines: LineSource, file: { sha256: string; fileName: string | null }): Promise<BankImportSummary> {
      const header = await readHeader(lines);
      const fileId = randomUUID();
      const at = now();
      await db
        .insert(bankFile)
        .values({
          id: fileId,
          direction: 'IN',
          kind: header.kind,
          dataTransmitter: header.dataTransmitter,
          transmissionNumber: header.transmissionNumber,
          dataRecipient: header.dataRecipient,
          sha256: file.sha256,
          fileName: file.fileName,
          status: 'IMPORTING',
          transactions: header.transactions,
          amountOre: header.amountOre,
          netsDate: header.netsDate,
          createdAt: at,
        })
        .onConflictDoNothing();
      const [stored] = await db
        .select()
        .from(bankFile)
        .where(and(eq(bankFile.direction, 'IN'), eq(bankFile.kind, header.kind), eq(bankFile.dataTransmitter, header.dataTransmitter), eq(bankFile.transmissionNumber, header.transmissionNumber)));
      if (!stored) throw new Error('bank_file row missing after insert');
      if (stored.sha256 !== file.sha256) {
        // The bank numbers transmissions; the same number with other content is a mistake somewhere, never a second import.
        throw new AppError(409, 'BANK_FILE_TRANSMISSION_REUSED', `Forsendelse ${header.transmissionNumber} er allerede lest inn med et annet innhold. Kontakt banken før filen leses inn.`);
      }
      if (stored.status === 'IMPORTED') return summaryOf(stored.id, header, true);

      for await (const batch of batches(lines)) {
        await db.transaction(async (tx) => {
          // One importer at a time per file: a second run waits here and then skips what the first did.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${stored.id}))`);
          const done = new Set(
            (
              await tx
                .select({ seq: bankTransaction.seq })
                .from(bankTransaction)
                .where(
                  and(
                    eq(bankTransaction.bankFileId, stored.id),
                    inArray(
                      bankTransaction.seq,
                      batch.map((item) => item.seq),
                    ),
                  ),
                )
            ).map((row) => row.seq),
          );
          for (const item of batch) {
            if (done.has(item.seq)) continue;
            const t = item.transaction;
            const result =
              t.type === 'ocr-transaction' ? await applyOcr(tx, stored.id, { ...item, transaction: t }) : await applyMandate(tx, { ...item, transaction: t }, { mailer, portalOrigin, now, titleOf });
            await tx.insert(bankTransaction).values({
              bankFileId: stored.id,
              seq: item.seq,
              titleCode: result.titleCode,
              transactionType: t.type === 'ocr-transaction' ? t.transactionType : AVTALEGIRO_MANDATE_TYPE,
              kid: t.kid ?? '',
              amountOre: t.type === 'ocr-transaction' ? signedAmountOf(t) : 0,
              settledOn: t.type === 'ocr-transaction' ? t.netsDate : header.netsDate,
              bankDate: t.type === 'ocr-transaction' ? t.bankDate : null,
              debitAccount: t.type === 'ocr-transaction' ? t.debitAccount : null,
              assignmentAccount: item.assignment.account,
              ariaInvoiceNo: result.ariaInvoiceNo,
              paymentId: result.paymentId,
              outcome: result.outcome,
              reason: result.reason,
              openAmountOre: result.openAmountOre,
              createdAt: now(),
            });
          }
        });
      }
      await db
        .update(bankFile)
        .set({ status: 'IMPORTED', completedAt: now() })
        .where(and(eq(bankFile.id, stored.id), eq(bankFile.status, 'IMPORTING')));
      return summaryOf(stored.id, header, false);
    },
  };
}
