import { readBankFile, type AvtaleGiroMandate, type BankFileEvent, type BankFileKind, type OcrTransaction } from '@minside/bank-files';
import { AppError } from '../../lib/app-error.ts';
import type { Assignment, Positioned } from './import-record.ts';

// The import's two passes over a file (import.ts): the first reads it whole and strictly and
// returns its header, the second hands out its transactions in batches. Nothing here touches the
// database; a file read twice is never held in memory whole.

/** Transactions applied per database transaction: small enough to keep locks short, large enough to be quick. */
const BATCH = 200;

export type ImportedKind = Exclude<BankFileKind, 'avtalegiro-claims'>;

/** Lines of a file, as many times as the import reads it (it reads twice; nothing holds the whole file). */
export type LineSource = () => AsyncIterable<string> | Iterable<string>;

export interface Header {
  kind: ImportedKind;
  dataTransmitter: string;
  transmissionNumber: string;
  dataRecipient: string;
  transactions: number;
  amountOre: number;
  netsDate: string | null;
}

/**
 * Pass 1: the whole file, strictly, to its last line (anything after the end record is a fault
 * too). Throws the reader's BankFileError (line and field) on the first fault, before anything is stored.
 */
export async function readHeader(lines: LineSource): Promise<Header> {
  let start: Extract<BankFileEvent, { type: 'transmission' }>['start'] | undefined;
  let header: Header | undefined;
  for await (const event of readBankFile(lines())) {
    if (event.type === 'transmission') start = event.start;
    if (event.type === 'transmission-end' && start) {
      if (start.kind === 'avtalegiro-claims') {
        throw new AppError(422, 'BANK_FILE_WRONG_DIRECTION', 'Filen er et AvtaleGiro-trekkoppdrag til banken, ikke en fil fra banken.');
      }
      header = {
        kind: start.kind,
        dataTransmitter: start.dataTransmitter,
        transmissionNumber: start.transmissionNumber,
        dataRecipient: start.dataRecipient,
        transactions: event.totals.transactions,
        amountOre: event.totals.amount,
        netsDate: event.totals.date,
      };
    }
  }
  // The reader throws MISSING_END before this; kept for the type checker.
  if (!header) throw new AppError(422, 'BANK_FILE_INVALID', 'Filen mangler sluttpost.');
  return header;
}

/** Pass 2's input: the transactions with their position and assignment, in batches. */
export async function* batches(lines: LineSource): AsyncGenerator<Positioned<OcrTransaction | AvtaleGiroMandate>[]> {
  let assignment: Assignment | undefined;
  let seq = 0;
  let batch: Positioned<OcrTransaction | AvtaleGiroMandate>[] = [];
  for await (const event of readBankFile(lines())) {
    if (event.type === 'assignment') assignment = event;
    if ((event.type === 'ocr-transaction' || event.type === 'avtalegiro-mandate') && assignment) {
      seq += 1;
      batch.push({ seq, assignment, transaction: event });
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
