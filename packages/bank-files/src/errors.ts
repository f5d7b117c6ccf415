/**
 * The two errors of the package: `BankFileError` for a file that breaks the layout (what the
 * reader finds, with the 1-based line and a Norwegian message for the person who sent or got the
 * file), `BankFileWriteError` for a writer fed values that cannot go into a file (a programming
 * error on our side, in English, with the path of the offending value).
 */

/** Stable machine codes of `BankFileError`: tests and callers switch on these, never on the text. */
export type BankFileErrorCode =
  /** A byte or character outside printable ISO-8859-1 (control characters included). */
  | 'INVALID_CHARACTER'
  /** A record that is not exactly 80 characters. */
  | 'RECORD_LENGTH'
  /** A record that does not start with the format code `NY`. */
  | 'FORMAT_CODE'
  /** Service code (positions 3–4) other than 00, 09 and 21. */
  | 'UNKNOWN_SERVICE_CODE'
  /** Record type (positions 7–8) unknown, or not used with this service code. */
  | 'UNKNOWN_RECORD_TYPE'
  /** Transmission, assignment or transaction type (positions 5–6) not valid for the record. */
  | 'UNKNOWN_TRANSACTION_TYPE'
  /** A field that is not what its layout says: not numeric, not a date, filler not blank… */
  | 'INVALID_FIELD'
  /** A record where the layout does not allow it (order of records, nesting, kind of assignment). */
  | 'UNEXPECTED_RECORD'
  /** The items of one transaction disagree on the transaction number or transaction type. */
  | 'TRANSACTION_MISMATCH'
  /** Transaction numbers not in strictly ascending order within an assignment. */
  | 'TRANSACTION_ORDER'
  /** An assignment number used twice in one transmission. */
  | 'DUPLICATE_ASSIGNMENT'
  /** Assignments of different directions in one transmission (claims to Nets with files from Nets). */
  | 'MIXED_KINDS'
  /** The number of transactions or records in an end record is not what was read. */
  | 'COUNT_MISMATCH'
  /** The amount sum in an end record is not the sum of the transactions read. */
  | 'CHECKSUM_MISMATCH'
  /** The earliest/latest date (or first date) in an end record is not the one of the transactions. */
  | 'DATE_MISMATCH'
  /** A transmission without assignments (both manuals: one or more assignments). */
  | 'EMPTY_TRANSMISSION'
  /** No lines at all. */
  | 'EMPTY_FILE'
  /** The input ended before the end record of the transmission. */
  | 'MISSING_END'
  /** Something other than empty lines after the end record of the transmission. */
  | 'TRAILING_DATA';

export class BankFileError extends Error {
  override readonly name = 'BankFileError';
  readonly code: BankFileErrorCode;
  /** 1-based line of the record at fault (for MISSING_END: the line where the end record should be). */
  readonly line: number;
  /** The field at fault, in the API's own names (`amount`, `kid`, `record` for the whole record…). */
  readonly field: string;

  /** `detail` is the Norwegian text after `Linje N: `. */
  constructor(code: BankFileErrorCode, line: number, field: string, detail: string) {
    super(`Linje ${line}: ${detail}`);
    this.code = code;
    this.line = line;
    this.field = field;
  }
}

export type BankFileWriteErrorCode =
  /** A value that does not fit its field (length, digits, range, date, character set). */
  | 'INVALID_VALUE'
  /** Transaction numbers not ascending, or an assignment number used twice. */
  | 'OUT_OF_ORDER'
  /** The sum of the amounts passed Number.MAX_SAFE_INTEGER øre. */
  | 'AMOUNT_OVERFLOW'
  /** A transmission without assignments. */
  | 'EMPTY_TRANSMISSION'
  /** A parsed file the writers cannot write as one transmission. */
  | 'UNSUPPORTED';

export class BankFileWriteError extends Error {
  override readonly name = 'BankFileWriteError';
  readonly code: BankFileWriteErrorCode;
  /** Path of the offending value in the writer's input, e.g. `assignments[0].transactions[3].kid`. */
  readonly field: string;

  constructor(code: BankFileWriteErrorCode, field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.code = code;
    this.field = field;
  }
}
