/**
 * Streaming writers: async generators of 80-character records (no line endings; see
 * `withLineEndings`/`bankFileText`). Assignments and transactions may be async iterables (a
 * database cursor), and counts, sums and earliest/latest dates are computed as records go out,
 * so a million claims take constant memory. Input is validated with the reader's rules, so what
 * a writer yields the reader accepts; a bad value throws `BankFileWriteError` naming its path.
 */
import { BankFileWriteError } from './errors.ts';
import { MAX_TRANSACTION_NUMBER, isDigits, isFieldText, isIntIn, isKid, isSafeAmount, isWritableIsoDate, isoToNetsDate, leftText, rightKid, spaces, trimEnd, zeroPad, zeros } from './fields.ts';
import { AVTALEGIRO_CANCELLATION_TYPE, AVTALEGIRO_MANDATE_TYPE, NETS_ID } from './types.ts';
import type {
  AvtaleGiroCancellationAssignmentInput,
  AvtaleGiroCancellationInput,
  AvtaleGiroClaimAssignmentInput,
  AvtaleGiroClaimInput,
  AvtaleGiroClaimsTransmissionInput,
  AvtaleGiroMandateAssignmentInput,
  AvtaleGiroMandateInput,
  AvtaleGiroMandatesTransmissionInput,
  OcrGiroAssignmentInput,
  OcrGiroTransmissionInput,
  OcrTransactionInput,
  ParsedBankFile,
  SpecificationRecord,
} from './types.ts';

type Lines = AsyncGenerator<string, void, undefined>;

// ── validation ───────────────────────────────────────────────────────────────────────────────

function bad(field: string, detail: string): never {
  throw new BankFileWriteError('INVALID_VALUE', field, detail);
}

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function needDigits(value: unknown, length: number, field: string): string {
  if (typeof value !== 'string' || !isDigits(value, length)) bad(field, `must be exactly ${length} digits, got ${show(value)}`);
  return value;
}

function needDate(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isWritableIsoDate(value)) bad(field, `must be a date YYYY-MM-DD between 1969-01-01 and 2068-12-31, got ${show(value)}`);
  return isoToNetsDate(value);
}

function needInt(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !isIntIn(value, min, max)) bad(field, `must be an integer ${min}–${max}, got ${show(value)}`);
  return value;
}

function needAmount(value: unknown, field: string): string {
  if (typeof value !== 'number' || !isSafeAmount(value)) bad(field, `must be whole øre, 0 to Number.MAX_SAFE_INTEGER, got ${show(value)}`);
  return zeroPad(value, 17);
}

function needKid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isKid(value)) bad(field, `KID must be 1 to 25 digits (the last may be "-", a MOD11 check digit of 10), got ${show(value)}`);
  return rightKid(value);
}

function needText(value: unknown, max: number, field: string): string {
  if (typeof value !== 'string' || !isFieldText(value, max)) {
    bad(field, `must be at most ${max} printable ISO-8859-1 characters, got ${show(value)}`);
  }
  return leftText(value, max);
}

function needSpecification(spec: readonly SpecificationRecord[] | undefined, transactionNumber: string, field: string): string[] {
  if (spec === undefined) return [];
  if (!Array.isArray(spec)) bad(field, 'must be an array of specification records');
  const seen = new Set<number>();
  return spec.map((s, i) => {
    const path = `${field}[${i}]`;
    const lineNumber = needInt(s.lineNumber, 1, 42, `${path}.lineNumber`);
    if (s.column !== 1 && s.column !== 2) bad(`${path}.column`, `must be 1 or 2, got ${show(s.column)}`);
    const t = needText(s.text, 40, `${path}.text`);
    if (trimEnd(t) === '') bad(`${path}.text`, 'must not be blank (empty specification records are not sent)');
    const key = lineNumber * 10 + s.column;
    if (seen.has(key)) bad(path, `line ${lineNumber}, column ${s.column} is given twice`);
    seen.add(key);
    return `NY212149${transactionNumber}4${zeroPad(lineNumber, 3)}${s.column}${t}${zeros(20)}`;
  });
}

// ── running totals ───────────────────────────────────────────────────────────────────────────

class Totals {
  transactions = 0;
  records = 1;
  amount = 0;
  earliest: string | null = null;
  latest: string | null = null;
  private lastNumber = 0;

  /** The transaction number to write: the given one (ascending) or the next. */
  number(given: number | undefined, field: string): string {
    const n = given ?? this.lastNumber + 1;
    needInt(n, 1, MAX_TRANSACTION_NUMBER, field);
    if (n <= this.lastNumber) throw new BankFileWriteError('OUT_OF_ORDER', field, `transaction numbers must ascend within an assignment: ${n} after ${this.lastNumber}`);
    this.lastNumber = n;
    return zeroPad(n, 7);
  }

  add(records: number, amount: number, date: string | null, field: string): void {
    this.transactions++;
    this.records += records;
    this.amount += amount;
    if (!Number.isSafeInteger(this.amount)) throw new BankFileWriteError('AMOUNT_OVERFLOW', field, 'the sum of the amounts passes Number.MAX_SAFE_INTEGER øre');
    if (date !== null) {
      if (this.earliest === null || date < this.earliest) this.earliest = date;
      if (this.latest === null || date > this.latest) this.latest = date;
    }
  }

  addAssignment(a: Totals, field: string): void {
    this.transactions += a.transactions;
    this.records += a.records;
    this.amount += a.amount;
    if (!Number.isSafeInteger(this.amount)) throw new BankFileWriteError('AMOUNT_OVERFLOW', field, 'the sum of the amounts passes Number.MAX_SAFE_INTEGER øre');
    if (a.earliest !== null && (this.earliest === null || a.earliest < this.earliest)) this.earliest = a.earliest;
    if (a.latest !== null && (this.latest === null || a.latest > this.latest)) this.latest = a.latest;
  }

  counts(field: string): string {
    if (this.transactions > 99_999_999 || this.records > 99_999_999) bad(field, 'more than 99,999,999 transactions or records');
    return `${zeroPad(this.transactions, 8)}${zeroPad(this.records, 8)}`;
  }
}

function netsDateOrZeros(iso: string | null): string {
  return iso === null ? zeros(6) : isoToNetsDate(iso);
}

function transmissionStart(dataTransmitter: string, transmissionNumber: string, dataRecipient: string): string {
  return `NY000010${dataTransmitter}${transmissionNumber}${dataRecipient}${zeros(49)}`;
}

function transmissionEnd(t: Totals, date: string): string {
  return `NY000089${t.counts('transmission')}${zeroPad(t.amount, 17)}${date}${zeros(33)}`;
}

function assignmentStart(service: string, type: string, agreementId: string | null, assignmentNumber: string, account: string): string {
  return `NY${service}${type}20${agreementId ?? zeros(9)}${assignmentNumber}${account}${zeros(45)}`;
}

function checkAssignment(a: { assignmentNumber: unknown; account: unknown }, path: string, used: Set<string>): { assignmentNumber: string; account: string } {
  const assignmentNumber = needDigits(a.assignmentNumber, 7, `${path}.assignmentNumber`);
  const account = needDigits(a.account, 11, `${path}.account`);
  if (used.has(assignmentNumber)) throw new BankFileWriteError('OUT_OF_ORDER', `${path}.assignmentNumber`, `assignment number ${assignmentNumber} is used twice in the transmission`);
  used.add(assignmentNumber);
  return { assignmentNumber, account };
}

function noAssignments(): never {
  throw new BankFileWriteError('EMPTY_TRANSMISSION', 'assignments', 'a transmission needs at least one assignment');
}

// ── OCR Giro ─────────────────────────────────────────────────────────────────────────────────

function ocrRecords(tx: OcrTransactionInput, number: string, path: string): string[] {
  const type = needInt(tx.transactionType, 10, 21, `${path}.transactionType`);
  const tt = zeroPad(type, 2);
  const netsDate = needDate(tx.netsDate, `${path}.netsDate`);
  const centreId = needDigits(tx.centreId, 2, `${path}.centreId`);
  const dayCode = zeroPad(needInt(tx.dayCode, 1, 31, `${path}.dayCode`), 2);
  const psn = needInt(tx.partialSettlementNumber, 0, 9, `${path}.partialSettlementNumber`);
  const serial = needDigits(tx.partialSettlementSerialNumber, 5, `${path}.partialSettlementSerialNumber`);
  if (tx.sign !== '0' && tx.sign !== '-') bad(`${path}.sign`, `must be "0" or "-", got ${show(tx.sign)}`);
  if (tx.sign === '-' && type !== 18 && type !== 20) bad(`${path}.sign`, `"-" is only for reversals (types 18 and 20), not ${type}`);
  const amount = needAmount(tx.amount, `${path}.amount`);
  const kid = tx.kid === null ? spaces(25) : needKid(tx.kid, `${path}.kid`);
  const cardIssuer = needDigits(tx.cardIssuer ?? '00', 2, `${path}.cardIssuer`);
  const formNumber = needDigits(tx.formNumber, 10, `${path}.formNumber`);
  const archiveReference = needDigits(tx.archiveReference, 9, `${path}.archiveReference`);
  const filler = needDigits(tx.filler ?? zeros(7), 7, `${path}.filler`);
  const bankDate = tx.bankDate === null ? zeros(6) : needDate(tx.bankDate, `${path}.bankDate`);
  const debitAccount = needDigits(tx.debitAccount, 11, `${path}.debitAccount`);
  const records = [
    `NY09${tt}30${number}${netsDate}${centreId}${dayCode}${psn}${serial}${tx.sign}${amount}${kid}${cardIssuer}${zeros(4)}`,
    `NY09${tt}31${number}${formNumber}${archiveReference}${filler}${bankDate}${debitAccount}${zeros(22)}`,
  ];
  if (type === 20 || type === 21) {
    if (tx.text === null) bad(`${path}.text`, `transaction type ${type} has a free text (amount item 3); use '' for a blank one`);
    records.push(`NY09${tt}32${number}${needText(tx.text, 40, `${path}.text`)}${zeros(25)}`);
  } else if (tx.text !== null) {
    bad(`${path}.text`, `only transaction types 20 and 21 have a free text, so must be null for ${type}`);
  }
  return records;
}

/** One assignment as a writer lays it out: its start record, its transactions' records, its end record. */
interface AssignmentLayout<T> {
  start: string;
  transactions: AsyncIterable<T> | Iterable<T>;
  /** The records of one transaction, given its (checked) transaction number. */
  records(tx: T, number: string, path: string): string[];
  amount(tx: T): number;
  /** The date the end records' first and last dates are taken from (null: none). */
  date(tx: T): string | null;
  end(totals: Totals, path: string): string;
}

/**
 * The bookkeeping every transmission shares: the start record, each assignment's transaction
 * numbers and totals, the assignment numbers used once, and the end record with the counts.
 */
async function* transmission<A extends { transactions: unknown }, T>(
  start: string,
  assignments: AsyncIterable<A> | Iterable<A>,
  layout: (assignment: A, path: string, used: Set<string>) => AssignmentLayout<T>,
  end: (totals: Totals) => string,
): Lines {
  yield start;
  const total = new Totals();
  const used = new Set<string>();
  let i = 0;
  for await (const a of assignments) {
    const path = `assignments[${i}]`;
    const plan = layout(a, path, used);
    yield plan.start;
    const t = new Totals();
    let j = 0;
    for await (const tx of plan.transactions) {
      const txPath = `${path}.transactions[${j}]`;
      const records = plan.records(tx, t.number((tx as { transactionNumber?: number }).transactionNumber, `${txPath}.transactionNumber`), txPath);
      for (const record of records) yield record;
      t.add(records.length, plan.amount(tx), plan.date(tx), txPath);
      j++;
    }
    t.records++;
    yield plan.end(t, path);
    total.addAssignment(t, path);
    i++;
  }
  if (i === 0) noAssignments();
  total.records++;
  yield end(total);
}

/** OCR Giro transactions, as Nets sends them (for tests, simulators and re-writing parsed files). */
export async function* writeOcrGiro(input: OcrGiroTransmissionInput): Lines {
  const dataTransmitter = input.dataTransmitter ?? NETS_ID;
  if (dataTransmitter !== NETS_ID) bad('dataTransmitter', `OCR Giro files come from Nets: must be ${NETS_ID}, got ${show(dataTransmitter)}`);
  const transmissionNumber = needDigits(input.transmissionNumber, 7, 'transmissionNumber');
  const dataRecipient = needDigits(input.dataRecipient, 8, 'dataRecipient');
  const endDate = needDate(input.netsDate, 'netsDate');
  yield* transmission<OcrGiroAssignmentInput, OcrTransactionInput>(
    transmissionStart(dataTransmitter, transmissionNumber, dataRecipient),
    input.assignments,
    (a, path, used) => {
      const agreementId = needDigits(a.agreementId, 9, `${path}.agreementId`);
      const { assignmentNumber, account } = checkAssignment(a, path, used);
      const netsDate = needDate(a.netsDate, `${path}.netsDate`);
      return {
        start: assignmentStart('09', '00', agreementId, assignmentNumber, account),
        transactions: a.transactions,
        records: ocrRecords,
        amount: (tx) => tx.amount,
        date: (tx) => tx.netsDate,
        end: (t, endPath) => `NY090088${t.counts(endPath)}${zeroPad(t.amount, 17)}${netsDate}${netsDateOrZeros(t.earliest)}${netsDateOrZeros(t.latest)}${zeros(21)}`,
      };
    },
    (total) => transmissionEnd(total, endDate),
  );
}

// ── AvtaleGiro claims and cancellations ──────────────────────────────────────────────────────

function claimRecords(tx: AvtaleGiroClaimInput | AvtaleGiroCancellationInput, cancellation: boolean, number: string, path: string): string[] {
  let tt: string;
  if (cancellation) tt = String(AVTALEGIRO_CANCELLATION_TYPE);
  else {
    const type = (tx as AvtaleGiroClaimInput).transactionType;
    if (type !== 2 && type !== 21) bad(`${path}.transactionType`, `must be 2 (payee notifies) or 21 (bank notifies), got ${show(type)}`);
    tt = zeroPad(type, 2);
  }
  const dueDate = needDate(tx.dueDate, `${path}.dueDate`);
  const amount = needAmount(tx.amount, `${path}.amount`);
  const kid = needKid(tx.kid, `${path}.kid`);
  const records = [`NY21${tt}30${number}${dueDate}${spaces(11)}${amount}${kid}${zeros(6)}`];
  const payerName = tx.payerName ?? (cancellation ? null : '');
  const externalReference = tx.externalReference ?? (cancellation ? null : '');
  if (payerName !== null || externalReference !== null) {
    const name = needText(payerName ?? '', 10, `${path}.payerName`);
    const reference = needText(externalReference ?? '', 25, `${path}.externalReference`);
    records.push(`NY21${tt}31${number}${name}${spaces(25)}${reference}${zeros(5)}`);
  }
  records.push(...needSpecification(tx.specification, number, `${path}.specification`));
  return records;
}

/**
 * AvtaleGiro payment claims (assignment type 00) and cancellations (assignment type 36) to Nets.
 * The transmission end carries the earliest due date of all its transactions, as the AvtaleGiro
 * specification asks ("første dato").
 */
export async function* writeAvtaleGiroClaims(input: AvtaleGiroClaimsTransmissionInput): Lines {
  const dataTransmitter = needDigits(input.dataTransmitter, 8, 'dataTransmitter');
  const transmissionNumber = needDigits(input.transmissionNumber, 7, 'transmissionNumber');
  const dataRecipient = input.dataRecipient ?? NETS_ID;
  if (dataRecipient !== NETS_ID) bad('dataRecipient', `claims go to Nets: must be ${NETS_ID}, got ${show(dataRecipient)}`);
  yield* transmission<AvtaleGiroClaimAssignmentInput | AvtaleGiroCancellationAssignmentInput, AvtaleGiroClaimInput | AvtaleGiroCancellationInput>(
    transmissionStart(dataTransmitter, transmissionNumber, dataRecipient),
    input.assignments,
    (a, path, used) => {
      const kind = a.kind ?? 'avtalegiro-claims';
      if (kind !== 'avtalegiro-claims' && kind !== 'avtalegiro-cancellations') {
        bad(`${path}.kind`, `must be 'avtalegiro-claims' or 'avtalegiro-cancellations', got ${show(kind)}`);
      }
      const cancellation = kind === 'avtalegiro-cancellations';
      const at = cancellation ? '36' : '00';
      const { assignmentNumber, account } = checkAssignment(a, path, used);
      return {
        start: assignmentStart('21', at, null, assignmentNumber, account),
        transactions: a.transactions,
        records: (tx, number, txPath) => claimRecords(tx, cancellation, number, txPath),
        amount: (tx) => tx.amount,
        date: (tx) => tx.dueDate,
        end: (t, endPath) => `NY21${at}88${t.counts(endPath)}${zeroPad(t.amount, 17)}${netsDateOrZeros(t.earliest)}${netsDateOrZeros(t.latest)}${zeros(27)}`,
      };
    },
    (total) => transmissionEnd(total, netsDateOrZeros(total.earliest)),
  );
}

// ── AvtaleGiro mandates ──────────────────────────────────────────────────────────────────────

function mandateRecord(tx: AvtaleGiroMandateInput, number: string, path: string): string {
  const registration = needInt(tx.registrationType, 0, 2, `${path}.registrationType`);
  const kid = needKid(tx.kid, `${path}.kid`);
  if (typeof tx.notify !== 'boolean') bad(`${path}.notify`, `must be a boolean, got ${show(tx.notify)}`);
  return `NY21${AVTALEGIRO_MANDATE_TYPE}70${number}${registration}${kid}${tx.notify ? 'J' : 'N'}${zeros(38)}`;
}

/** AvtaleGiro mandates (assignment type 24), as Nets sends them. */
export async function* writeAvtaleGiroMandates(input: AvtaleGiroMandatesTransmissionInput): Lines {
  const dataTransmitter = input.dataTransmitter ?? NETS_ID;
  if (dataTransmitter !== NETS_ID) bad('dataTransmitter', `mandate files come from Nets: must be ${NETS_ID}, got ${show(dataTransmitter)}`);
  const transmissionNumber = needDigits(input.transmissionNumber, 7, 'transmissionNumber');
  const dataRecipient = needDigits(input.dataRecipient, 8, 'dataRecipient');
  const endDate = input.netsDate === null ? zeros(6) : needDate(input.netsDate, 'netsDate');
  yield* transmission<AvtaleGiroMandateAssignmentInput, AvtaleGiroMandateInput>(
    transmissionStart(dataTransmitter, transmissionNumber, dataRecipient),
    input.assignments,
    (a, path, used) => {
      const { assignmentNumber, account } = checkAssignment(a, path, used);
      return {
        start: assignmentStart('21', '24', null, assignmentNumber, account),
        transactions: a.transactions,
        records: (tx, number, txPath) => [mandateRecord(tx, number, txPath)],
        amount: () => 0,
        date: () => null,
        end: (t, endPath) => `NY212488${t.counts(endPath)}${zeros(56)}`,
      };
    },
    (total) => transmissionEnd(total, endDate),
  );
}

// ── parsed files ─────────────────────────────────────────────────────────────────────────────

/**
 * Writes a parsed file back (byte-identical for any file the reader accepted, line endings
 * aside). Transmissions that mix OCR Giro and mandate assignments, which Nets may send, are not
 * supported: the writers write one kind each.
 */
export function writeParsedBankFile(parsed: ParsedBankFile): Lines {
  const { start, end } = parsed;
  const kinds = new Set(parsed.assignments.map((a) => a.kind));
  if (parsed.kind === 'ocr-giro') {
    if (kinds.has('avtalegiro-mandates')) throw new BankFileWriteError('UNSUPPORTED', 'assignments', 'OCR Giro and mandate assignments in one transmission are read, not written');
    return writeOcrGiro({
      dataTransmitter: start.dataTransmitter,
      transmissionNumber: start.transmissionNumber,
      dataRecipient: start.dataRecipient,
      netsDate: end.date ?? '',
      assignments: parsed.assignments.map((a) => ({
        agreementId: a.agreementId ?? '',
        assignmentNumber: a.assignmentNumber,
        account: a.account,
        netsDate: a.end.netsDate ?? '',
        transactions: a.transactions.flatMap((t) => (t.type === 'ocr-transaction' ? [t] : [])),
      })),
    });
  }
  if (parsed.kind === 'avtalegiro-mandates') {
    if (kinds.has('ocr-giro')) throw new BankFileWriteError('UNSUPPORTED', 'assignments', 'OCR Giro and mandate assignments in one transmission are read, not written');
    return writeAvtaleGiroMandates({
      dataTransmitter: start.dataTransmitter,
      transmissionNumber: start.transmissionNumber,
      dataRecipient: start.dataRecipient,
      netsDate: end.date,
      assignments: parsed.assignments.map((a) => ({
        assignmentNumber: a.assignmentNumber,
        account: a.account,
        transactions: a.transactions.flatMap((t) => (t.type === 'avtalegiro-mandate' ? [t] : [])),
      })),
    });
  }
  return writeAvtaleGiroClaims({
    dataTransmitter: start.dataTransmitter,
    transmissionNumber: start.transmissionNumber,
    dataRecipient: start.dataRecipient,
    assignments: parsed.assignments.map((a) =>
      a.kind === 'avtalegiro-cancellations'
        ? {
            kind: 'avtalegiro-cancellations' as const,
            assignmentNumber: a.assignmentNumber,
            account: a.account,
            transactions: a.transactions.flatMap((t) => (t.type === 'avtalegiro-cancellation' ? [t] : [])),
          }
        : {
            kind: 'avtalegiro-claims' as const,
            assignmentNumber: a.assignmentNumber,
            account: a.account,
            transactions: a.transactions.flatMap((t) => (t.type === 'avtalegiro-claim' ? [t] : [])),
          },
    ),
  });
}
