/**
 * The strict streaming reader. It holds one transmission's running totals and at most one
 * transaction (≤ 86 records) at a time, so memory stays constant however long the file is.
 * Every record is checked: length, character set, `NY`, known service/record/transaction codes,
 * every field against its layout, the order of records, transaction numbers, and every count,
 * sum and date in the end records against what was read.
 */
import { BankFileError } from './errors.ts';
import type { BankFileErrorCode } from './errors.ts';
import { RECORD_LENGTH, firstNonLatin1, isAll, isDigits, isKid, netsDateToIso, trimEnd } from './fields.ts';
import { splitLines } from './text.ts';
import { NETS_ID } from './types.ts';
import type {
  AssignmentKind,
  AssignmentStart,
  AvtaleGiroCancellation,
  AvtaleGiroClaim,
  AvtaleGiroClaimType,
  AvtaleGiroMandate,
  BankFileEvent,
  BankFileKind,
  BankTransaction,
  Many,
  MandateRegistrationType,
  OcrTransaction,
  OcrTransactionType,
  ParsedAssignment,
  ParsedBankFile,
  SpecificationRecord,
  TransmissionStart,
  TransmissionTotals,
} from './types.ts';

// ── field extraction ─────────────────────────────────────────────────────────────────────────

function fail(code: BankFileErrorCode, line: number, field: string, detail: string): never {
  throw new BankFileError(code, line, field, detail);
}

function pos(from: number, to: number): string {
  return from === to ? `pos. ${from}` : `pos. ${from}-${to}`;
}

/** 1-based inclusive positions, as in the manuals. */
function cut(rec: string, from: number, to: number): string {
  return rec.slice(from - 1, to);
}

function digits(rec: string, line: number, from: number, to: number, field: string, label: string): string {
  const value = cut(rec, from, to);
  if (!isDigits(value)) fail('INVALID_FIELD', line, field, `feltet ${label} (${pos(from, to)}) er ikke numerisk: "${value}"`);
  return value;
}

function integer(rec: string, line: number, from: number, to: number, field: string, label: string): number {
  const value = Number(digits(rec, line, from, to, field, label));
  if (!Number.isSafeInteger(value)) fail('INVALID_FIELD', line, field, `feltet ${label} (${pos(from, to)}) er for stort for denne leseren (over ${Number.MAX_SAFE_INTEGER})`);
  return value;
}

function date(rec: string, line: number, from: number, to: number, field: string, label: string, nullable: boolean): string | null {
  const value = digits(rec, line, from, to, field, label);
  if (nullable && value === '000000') return null;
  const iso = netsDateToIso(value);
  if (iso === null) fail('INVALID_FIELD', line, field, `feltet ${label} (${pos(from, to)}) er ikke en gyldig dato (DDMMÅÅ): "${value}"`);
  return iso;
}

function requiredDate(rec: string, line: number, from: number, to: number, field: string, label: string): string {
  return date(rec, line, from, to, field, label, false) as string;
}

function filler(rec: string, line: number, from: number, to: number, char: '0' | ' '): void {
  const value = cut(rec, from, to);
  if (!isAll(value, char)) {
    fail('INVALID_FIELD', line, 'filler', `filler (${pos(from, to)}) skal være ${char === '0' ? 'nuller' : 'blanke'}: "${value}"`);
  }
}

/** KID: right-aligned digits, blank-filled on the left. */
function kid(rec: string, line: number, from: number, to: number, required: boolean): string | null {
  const value = cut(rec, from, to);
  const trimmed = value.trimStart();
  if (trimmed === '') {
    if (required) fail('INVALID_FIELD', line, 'kid', `KID (${pos(from, to)}) mangler`);
    return null;
  }
  if (!isKid(trimmed)) fail('INVALID_FIELD', line, 'kid', `KID (${pos(from, to)}) skal være sifre (det siste kan være «-»), høyrejustert: "${value}"`);
  return trimmed;
}

function text(rec: string, from: number, to: number): string {
  return trimEnd(cut(rec, from, to));
}

// ── codes ────────────────────────────────────────────────────────────────────────────────────

const RECORD_TYPES_BY_SERVICE: Readonly<Record<string, readonly string[]>> = {
  '00': ['10', '89'],
  '09': ['20', '30', '31', '32', '88'],
  '21': ['20', '30', '31', '49', '70', '88'],
};
const ALL_RECORD_TYPES = new Set(['10', '20', '30', '31', '32', '49', '70', '88', '89']);

function validTypeCodes(service: string, recordType: string): readonly string[] {
  if (service === '00') return ['00'];
  if (recordType === '20' || recordType === '88') return service === '09' ? ['00'] : ['00', '24', '36'];
  if (service === '09') {
    if (recordType === '32') return ['20', '21'];
    return ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21'];
  }
  if (recordType === '49') return ['21'];
  if (recordType === '70') return ['94'];
  return ['02', '21', '93'];
}

const RECORD_NAMES: Readonly<Record<string, string>> = {
  '10': 'startpost for forsendelse (10)',
  '20': 'startpost for oppdrag (20)',
  '30': 'beløpspost 1 (30)',
  '31': 'beløpspost 2 (31)',
  '32': 'beløpspost 3 (32)',
  '49': 'spesifikasjonspost (49)',
  '70': 'avtalepost (70)',
  '88': 'sluttpost for oppdrag (88)',
  '89': 'sluttpost for forsendelse (89)',
};

const KIND_NAMES: Readonly<Record<AssignmentKind, string>> = {
  'ocr-giro': 'OCR giro',
  'avtalegiro-claims': 'AvtaleGiro betalingskrav',
  'avtalegiro-cancellations': 'AvtaleGiro sletteanmodninger',
  'avtalegiro-mandates': 'AvtaleGiro faste betalingsoppdrag',
};

function fileKind(kind: AssignmentKind): BankFileKind {
  return kind === 'avtalegiro-cancellations' ? 'avtalegiro-claims' : kind;
}

/** Files from Nets (OCR Giro and mandates may share one) vs. claims to Nets. */
function fromNets(kind: AssignmentKind): boolean {
  return kind === 'ocr-giro' || kind === 'avtalegiro-mandates';
}

function unexpected(line: number, recordType: string, expected: string): never {
  return fail('UNEXPECTED_RECORD', line, 'recordType', `uventet ${RECORD_NAMES[recordType] ?? `post (${recordType})`}, forventet ${expected}`);
}

function dateText(iso: string | null): string {
  return iso ?? 'ingen';
}

// ── state ────────────────────────────────────────────────────────────────────────────────────

type Phase = 'start' | 'after-start' | 'in-assignment' | 'between' | 'done';

interface PendingTransaction {
  tx: OcrTransaction | AvtaleGiroClaim | AvtaleGiroCancellation;
  /** Transaction type code of amount item 1, as in the file. */
  typeCode: string;
  item2: boolean;
  item3: boolean;
  specKeys: Set<number>;
}

interface OpenAssignment {
  start: AssignmentStart;
  serviceCode: string;
  assignmentType: string;
  transactions: number;
  records: number;
  amount: number;
  earliest: string | null;
  latest: string | null;
  lastTransactionNumber: number;
  pending: PendingTransaction | null;
}

class Reader {
  private line = 0;
  private phase: Phase = 'start';
  private start: TransmissionStart | null = null;
  private transactions = 0;
  private records = 0;
  private amount = 0;
  private earliestDue: string | null = null;
  private hasOcr = false;
  private readonly assignmentNumbers = new Set<string>();
  private assignment: OpenAssignment | null = null;

  /** Reads one line, appending the events it completes to `out`. */
  push(raw: string, out: BankFileEvent[]): void {
    const line = ++this.line;
    const rec = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.phase === 'done') {
      if (rec !== '') fail('TRAILING_DATA', line, 'record', 'data etter sluttposten for forsendelsen');
      return;
    }
    if (firstNonLatin1(rec) !== -1) fail('INVALID_CHARACTER', line, 'record', 'ugyldig tegn (ikke ISO-8859-1)');
    if (rec.length !== RECORD_LENGTH) fail('RECORD_LENGTH', line, 'record', `posten har ${rec.length} tegn, ikke ${RECORD_LENGTH}`);
    const format = rec.slice(0, 2);
    if (format !== 'NY') fail('FORMAT_CODE', line, 'formatCode', `formatkoden er "${format}", ikke "NY"`);
    const service = rec.slice(2, 4);
    const recordTypes = RECORD_TYPES_BY_SERVICE[service];
    if (recordTypes === undefined) fail('UNKNOWN_SERVICE_CODE', line, 'serviceCode', `ukjent tjenestekode "${service}"`);
    const recordType = rec.slice(6, 8);
    if (!ALL_RECORD_TYPES.has(recordType)) fail('UNKNOWN_RECORD_TYPE', line, 'recordType', `ukjent posttype "${recordType}"`);
    if (!recordTypes.includes(recordType)) {
      fail('UNKNOWN_RECORD_TYPE', line, 'recordType', `posttype "${recordType}" finnes ikke for tjenestekode ${service}`);
    }
    const typeCode = rec.slice(4, 6);
    if (!validTypeCodes(service, recordType).includes(typeCode)) {
      const what = service === '00' ? 'forsendelsestype' : recordType === '20' || recordType === '88' ? 'oppdragstype' : 'transaksjonstype';
      fail(
        'UNKNOWN_TRANSACTION_TYPE',
        line,
        what === 'oppdragstype' ? 'assignmentType' : 'transactionType',
        `ukjent ${what} "${typeCode}" for ${RECORD_NAMES[recordType] ?? recordType} med tjenestekode ${service}`,
      );
    }

    switch (recordType) {
      case '10':
        return this.transmissionStart(rec, line);
      case '20':
        return this.assignmentStart(rec, line, service, typeCode, out);
      case '88':
        return this.assignmentEnd(rec, line, service, typeCode, out);
      case '89':
        return this.transmissionEnd(rec, line, out);
      default:
        return this.transactionRecord(rec, line, service, recordType, typeCode, out);
    }
  }

  finish(): void {
    if (this.line === 0) fail('EMPTY_FILE', 1, 'record', 'filen er tom');
    if (this.phase !== 'done') fail('MISSING_END', this.line + 1, 'record', 'filen slutter uten sluttpost for forsendelsen (89)');
  }

  private transmissionStart(rec: string, line: number): void {
    if (this.phase !== 'start') unexpected(line, '10', this.expected());
    const dataTransmitter = digits(rec, line, 9, 16, 'dataTransmitter', 'dataavsender');
    const transmissionNumber = digits(rec, line, 17, 23, 'transmissionNumber', 'forsendelsesnummer');
    const dataRecipient = digits(rec, line, 24, 31, 'dataRecipient', 'datamottaker');
    filler(rec, line, 32, 80, '0');
    // The kind is set by the first assignment; the event is yielded then.
    this.start = { kind: 'ocr-giro', dataTransmitter, transmissionNumber, dataRecipient, line };
    this.records = 1;
    this.phase = 'after-start';
  }

  private assignmentStart(rec: string, line: number, service: string, typeCode: string, out: BankFileEvent[]): void {
    if (this.phase !== 'after-start' && this.phase !== 'between') unexpected(line, '20', this.expected());
    const start = this.start as TransmissionStart;
    const kind: AssignmentKind = service === '09' ? 'ocr-giro' : typeCode === '00' ? 'avtalegiro-claims' : typeCode === '24' ? 'avtalegiro-mandates' : 'avtalegiro-cancellations';
    let agreementId: string | null = null;
    if (kind === 'ocr-giro') agreementId = digits(rec, line, 9, 17, 'agreementId', 'avtale-ID');
    else filler(rec, line, 9, 17, '0');
    const assignmentNumber = digits(rec, line, 18, 24, 'assignmentNumber', 'oppdragsnummer');
    const account = digits(rec, line, 25, 35, 'account', 'oppdragskonto');
    filler(rec, line, 36, 80, '0');

    if (this.phase === 'after-start') {
      start.kind = fileKind(kind);
      if (fromNets(kind) && start.dataTransmitter !== NETS_ID) {
        fail('INVALID_FIELD', start.line, 'dataTransmitter', `dataavsender er ${start.dataTransmitter}, men filer fra Nets har dataavsender ${NETS_ID}`);
      }
      if (!fromNets(kind) && start.dataRecipient !== NETS_ID) {
        fail('INVALID_FIELD', start.line, 'dataRecipient', `datamottaker er ${start.dataRecipient}, men betalingskrav sendes til Nets (${NETS_ID})`);
      }
      out.push({ type: 'transmission', start: { ...start } });
    } else if (fromNets(kind) !== (start.kind !== 'avtalegiro-claims')) {
      fail(
        'MIXED_KINDS',
        line,
        'assignmentType',
        `oppdrag med ${KIND_NAMES[kind]} kan ikke stå i samme forsendelse som ${start.kind === 'avtalegiro-claims' ? 'betalingskrav til Nets' : 'filer fra Nets'}`,
      );
    }
    if (this.assignmentNumbers.has(assignmentNumber)) {
      fail('DUPLICATE_ASSIGNMENT', line, 'assignmentNumber', `oppdragsnummer ${assignmentNumber} er brukt før i forsendelsen`);
    }
    this.assignmentNumbers.add(assignmentNumber);
    if (kind === 'ocr-giro') this.hasOcr = true;

    const assignment: AssignmentStart = { kind, agreementId, assignmentNumber, account, line };
    this.assignment = {
      start: assignment,
      serviceCode: service,
      assignmentType: typeCode,
      transactions: 0,
      records: 1,
      amount: 0,
      earliest: null,
      latest: null,
      lastTransactionNumber: 0,
      pending: null,
    };
    this.records++;
    this.phase = 'in-assignment';
    out.push({ type: 'assignment', ...assignment });
  }

  private expected(): string {
    switch (this.phase) {
      case 'start':
        return RECORD_NAMES['10'] as string;
      case 'after-start':
        return RECORD_NAMES['20'] as string;
      case 'between':
        return `${RECORD_NAMES['20']} eller ${RECORD_NAMES['89']}`;
      case 'in-assignment':
        return this.expectedInAssignment();
      default:
        return 'ingenting';
    }
  }

  private expectedInAssignment(): string {
    const a = this.assignment as OpenAssignment;
    const next = a.start.kind === 'avtalegiro-mandates' ? RECORD_NAMES['70'] : RECORD_NAMES['30'];
    const p = a.pending;
    if (p === null) return `${next} eller ${RECORD_NAMES['88']}`;
    if (!p.item2 && a.start.kind !== 'avtalegiro-cancellations') return RECORD_NAMES['31'] as string;
    if (a.start.kind === 'ocr-giro' && !p.item3 && (p.typeCode === '20' || p.typeCode === '21')) return RECORD_NAMES['32'] as string;
    if (a.start.kind === 'ocr-giro') return `${next} eller ${RECORD_NAMES['88']}`;
    if (!p.item2 && p.specKeys.size === 0) return `${RECORD_NAMES['31']}, ${RECORD_NAMES['49']}, ${next} eller ${RECORD_NAMES['88']}`;
    return `${RECORD_NAMES['49']}, ${next} eller ${RECORD_NAMES['88']}`;
  }

  /** Is the pending transaction complete, so that a new one or the assignment end may follow? */
  private flushPending(line: number, recordType: string, out: BankFileEvent[]): void {
    const a = this.assignment as OpenAssignment;
    const p = a.pending;
    if (p === null) return;
    const kind = a.start.kind;
    if (!p.item2 && kind !== 'avtalegiro-cancellations') unexpected(line, recordType, RECORD_NAMES['31'] as string);
    if (kind === 'ocr-giro' && !p.item3 && (p.typeCode === '20' || p.typeCode === '21')) unexpected(line, recordType, RECORD_NAMES['32'] as string);
    out.push(p.tx);
    a.pending = null;
  }

  private transactionRecord(rec: string, line: number, service: string, recordType: string, typeCode: string, out: BankFileEvent[]): void {
    if (this.phase !== 'in-assignment') unexpected(line, recordType, this.expected());
    const a = this.assignment as OpenAssignment;
    const kind = a.start.kind;
    if (service !== a.serviceCode) {
      fail('UNEXPECTED_RECORD', line, 'serviceCode', `post med tjenestekode ${service} i et oppdrag med ${KIND_NAMES[kind]} (tjenestekode ${a.serviceCode})`);
    }
    const transactionNumber = integer(rec, line, 9, 15, 'transactionNumber', 'transaksjonsnummer');

    if (recordType === '30' || recordType === '70') {
      if ((recordType === '70') !== (kind === 'avtalegiro-mandates')) unexpected(line, recordType, this.expected());
      this.flushPending(line, recordType, out);
      if (kind === 'avtalegiro-claims' && typeCode === '93') {
        fail('INVALID_FIELD', line, 'transactionType', 'transaksjonstype 93 (sletting) hører hjemme i et oppdrag med sletteanmodninger (oppdragstype 36)');
      }
      if (kind === 'avtalegiro-cancellations' && typeCode !== '93') {
        fail('INVALID_FIELD', line, 'transactionType', `transaksjonstype ${typeCode} i et oppdrag med sletteanmodninger, som bare har transaksjonstype 93`);
      }
      if (transactionNumber < 1) fail('INVALID_FIELD', line, 'transactionNumber', 'transaksjonsnummeret må være større enn null');
      if (transactionNumber <= a.lastTransactionNumber) {
        fail('TRANSACTION_ORDER', line, 'transactionNumber', `transaksjonsnummer ${transactionNumber} er ikke større enn forrige (${a.lastTransactionNumber})`);
      }
      a.lastTransactionNumber = transactionNumber;
      a.transactions++;
      a.records++;
      this.records++;
      if (recordType === '70') {
        out.push(this.mandate(rec, line, transactionNumber));
        return;
      }
      const tx = kind === 'ocr-giro' ? this.ocrItem1(rec, line, transactionNumber, typeCode) : this.avtaleGiroItem1(rec, line, transactionNumber, typeCode, kind);
      const amount = tx.amount;
      a.amount += amount;
      this.amount += amount;
      if (!Number.isSafeInteger(this.amount)) fail('INVALID_FIELD', line, 'amount', `summen av beløpene blir for stor for denne leseren (over ${Number.MAX_SAFE_INTEGER} øre)`);
      const d = tx.type === 'ocr-transaction' ? tx.netsDate : tx.dueDate;
      if (a.earliest === null || d < a.earliest) a.earliest = d;
      if (a.latest === null || d > a.latest) a.latest = d;
      if (tx.type !== 'ocr-transaction' && (this.earliestDue === null || d < this.earliestDue)) this.earliestDue = d;
      a.pending = { tx, typeCode, item2: false, item3: false, specKeys: new Set() };
      return;
    }

    // 31, 32, 49: a continuation of the pending transaction.
    const p = a.pending;
    if (p === null) unexpected(line, recordType, this.expected());
    if (transactionNumber !== p.tx.transactionNumber) {
      fail('TRANSACTION_MISMATCH', line, 'transactionNumber', `transaksjonsnummer ${transactionNumber} stemmer ikke med beløpspost 1 (${p.tx.transactionNumber})`);
    }
    if (recordType !== '49' && typeCode !== p.typeCode) {
      fail('TRANSACTION_MISMATCH', line, 'transactionType', `transaksjonstype ${typeCode} stemmer ikke med beløpspost 1 (${p.typeCode})`);
    }
    if (recordType === '31') {
      if (p.item2 || p.specKeys.size > 0) unexpected(line, recordType, this.expected());
      p.item2 = true;
      if (p.tx.type === 'ocr-transaction') this.ocrItem2(rec, line, p.tx);
      else this.avtaleGiroItem2(rec, line, p.tx);
    } else if (recordType === '32') {
      if (!p.item2 || p.item3 || !(p.typeCode === '20' || p.typeCode === '21')) {
        unexpected(line, recordType, `${this.expected()} (beløpspost 3 finnes bare for transaksjonstype 20 og 21)`);
      }
      p.item3 = true;
      if (p.tx.type === 'ocr-transaction') p.tx.text = text(rec, 16, 55);
      filler(rec, line, 56, 80, '0');
    } else {
      // 49
      if (p.tx.type === 'ocr-transaction' || (!p.item2 && kind !== 'avtalegiro-cancellations')) unexpected(line, recordType, this.expected());
      const spec = this.specification(rec, line);
      const key = spec.lineNumber * 10 + spec.column;
      if (p.specKeys.has(key)) {
        fail('INVALID_FIELD', line, 'specification', `spesifikasjon for linje ${spec.lineNumber}, kolonne ${spec.column} finnes allerede i transaksjonen`);
      }
      p.specKeys.add(key);
      p.tx.specification.push(spec);
    }
    a.records++;
    this.records++;
  }

  private ocrItem1(rec: string, line: number, transactionNumber: number, typeCode: string): OcrTransaction {
    const transactionType = Number(typeCode) as OcrTransactionType;
    const netsDate = requiredDate(rec, line, 16, 21, 'netsDate', 'Nets-dato');
    const centreId = digits(rec, line, 22, 23, 'centreId', 'sentral-ID');
    const dayCode = integer(rec, line, 24, 25, 'dayCode', 'dagkode');
    if (dayCode < 1 || dayCode > 31) fail('INVALID_FIELD', line, 'dayCode', `dagkoden (${pos(24, 25)}) skal være 01-31: "${cut(rec, 24, 25)}"`);
    const partialSettlementNumber = integer(rec, line, 26, 26, 'partialSettlementNumber', 'delavregningsnummer');
    const partialSettlementSerialNumber = digits(rec, line, 27, 31, 'partialSettlementSerialNumber', 'løpenummer');
    const sign = cut(rec, 32, 32);
    if (sign !== '0' && sign !== '-') fail('INVALID_FIELD', line, 'sign', `fortegnet (${pos(32, 32)}) skal være "0" eller "-": "${sign}"`);
    if (sign === '-' && transactionType !== 18 && transactionType !== 20) {
      fail('INVALID_FIELD', line, 'sign', `negativt fortegn finnes bare for tilbakeføringer (transaksjonstype 18 og 20), ikke ${typeCode}`);
    }
    const amount = integer(rec, line, 33, 49, 'amount', 'beløp');
    const k = kid(rec, line, 50, 74, false);
    const cardIssuer = digits(rec, line, 75, 76, 'cardIssuer', 'kortutsteder');
    filler(rec, line, 77, 80, '0');
    return {
      type: 'ocr-transaction',
      transactionNumber,
      transactionType,
      netsDate,
      centreId,
      dayCode,
      partialSettlementNumber,
      partialSettlementSerialNumber,
      sign,
      amount,
      kid: k,
      cardIssuer,
      formNumber: '',
      archiveReference: '',
      filler: '',
      bankDate: null,
      debitAccount: '',
      text: null,
      line,
    };
  }

  private ocrItem2(rec: string, line: number, tx: OcrTransaction): void {
    tx.formNumber = digits(rec, line, 16, 25, 'formNumber', 'blankettnummer');
    tx.archiveReference = digits(rec, line, 26, 34, 'archiveReference', 'arkivreferanse');
    tx.filler = digits(rec, line, 35, 41, 'filler', 'filler');
    tx.bankDate = date(rec, line, 42, 47, 'bankDate', 'bankdato', true);
    tx.debitAccount = digits(rec, line, 48, 58, 'debitAccount', 'debetkonto');
    filler(rec, line, 59, 80, '0');
  }

  private avtaleGiroItem1(rec: string, line: number, transactionNumber: number, typeCode: string, kind: AssignmentKind): AvtaleGiroClaim | AvtaleGiroCancellation {
    const dueDate = requiredDate(rec, line, 16, 21, 'dueDate', 'forfallsdato');
    filler(rec, line, 22, 32, ' ');
    const amount = integer(rec, line, 33, 49, 'amount', 'beløp');
    const k = kid(rec, line, 50, 74, true) as string;
    filler(rec, line, 75, 80, '0');
    if (kind === 'avtalegiro-cancellations') {
      return { type: 'avtalegiro-cancellation', transactionNumber, dueDate, amount, kid: k, payerName: null, externalReference: null, specification: [], line };
    }
    return {
      type: 'avtalegiro-claim',
      transactionNumber,
      transactionType: Number(typeCode) as AvtaleGiroClaimType,
      dueDate,
      amount,
      kid: k,
      payerName: '',
      externalReference: '',
      specification: [],
      line,
    };
  }

  private avtaleGiroItem2(rec: string, line: number, tx: AvtaleGiroClaim | AvtaleGiroCancellation): void {
    tx.payerName = text(rec, 16, 25);
    filler(rec, line, 26, 50, ' ');
    tx.externalReference = text(rec, 51, 75);
    filler(rec, line, 76, 80, '0');
  }

  private specification(rec: string, line: number): SpecificationRecord {
    const notice = cut(rec, 16, 16);
    if (notice !== '4') fail('INVALID_FIELD', line, 'paymentNotice', `betalingsvarsel (${pos(16, 16)}) skal alltid være 4: "${notice}"`);
    const lineNumber = integer(rec, line, 17, 19, 'lineNumber', 'linje');
    if (lineNumber < 1 || lineNumber > 42) fail('INVALID_FIELD', line, 'lineNumber', `linjenummeret (${pos(17, 19)}) skal være 001-042: "${cut(rec, 17, 19)}"`);
    const column = cut(rec, 20, 20);
    if (column !== '1' && column !== '2') fail('INVALID_FIELD', line, 'column', `kolonnen (${pos(20, 20)}) skal være 1 eller 2: "${column}"`);
    const t = text(rec, 21, 60);
    if (t === '') fail('INVALID_FIELD', line, 'text', `spesifikasjonsteksten (${pos(21, 60)}) er tom (tomme spesifikasjonsposter skal ikke sendes)`);
    filler(rec, line, 61, 80, '0');
    return { lineNumber, column: column === '1' ? 1 : 2, text: t };
  }

  private mandate(rec: string, line: number, transactionNumber: number): AvtaleGiroMandate {
    const registration = cut(rec, 16, 16);
    if (registration !== '0' && registration !== '1' && registration !== '2') {
      fail('INVALID_FIELD', line, 'registrationType', `registreringstypen (${pos(16, 16)}) skal være 0, 1 eller 2: "${registration}"`);
    }
    const k = kid(rec, line, 17, 41, true) as string;
    const notify = cut(rec, 42, 42);
    if (notify !== 'J' && notify !== 'N') fail('INVALID_FIELD', line, 'notify', `skriftlig varsel (${pos(42, 42)}) skal være J eller N: "${notify}"`);
    filler(rec, line, 43, 80, '0');
    return {
      type: 'avtalegiro-mandate',
      transactionNumber,
      registrationType: Number(registration) as MandateRegistrationType,
      kid: k,
      notify: notify === 'J',
      line,
    };
  }

  private assignmentEnd(rec: string, line: number, service: string, typeCode: string, out: BankFileEvent[]): void {
    if (this.phase !== 'in-assignment') unexpected(line, '88', this.expected());
    const a = this.assignment as OpenAssignment;
    if (service !== a.serviceCode || typeCode !== a.assignmentType) {
      fail(
        'UNEXPECTED_RECORD',
        line,
        'assignmentType',
        `sluttposten (tjenestekode ${service}, oppdragstype ${typeCode}) hører ikke til oppdraget (tjenestekode ${a.serviceCode}, oppdragstype ${a.assignmentType})`,
      );
    }
    this.flushPending(line, '88', out);
    a.records++;
    this.records++;
    const kind = a.start.kind;

    const transactions = integer(rec, line, 9, 16, 'transactions', 'antall transaksjoner');
    if (transactions !== a.transactions) {
      fail('COUNT_MISMATCH', line, 'transactions', `antall transaksjoner i sluttposten (${transactions}) stemmer ikke med transaksjonene (${a.transactions})`);
    }
    const records = integer(rec, line, 17, 24, 'records', 'antall poster');
    if (records !== a.records) {
      fail('COUNT_MISMATCH', line, 'records', `antall poster i sluttposten (${records}) stemmer ikke med postene i oppdraget (${a.records})`);
    }
    let netsDate: string | null = null;
    let earliestDate: string | null = null;
    let latestDate: string | null = null;
    if (kind === 'avtalegiro-mandates') {
      filler(rec, line, 25, 80, '0');
    } else {
      const amount = integer(rec, line, 25, 41, 'amount', 'sum beløp');
      if (amount !== a.amount) {
        fail('CHECKSUM_MISMATCH', line, 'amount', `beløpssummen i sluttposten (${amount}) stemmer ikke med transaksjonene (${a.amount})`);
      }
      let from = 42;
      if (kind === 'ocr-giro') {
        netsDate = requiredDate(rec, line, 42, 47, 'netsDate', 'Nets-dato');
        from = 48;
      }
      const word = kind === 'ocr-giro' ? 'Nets-dato' : 'forfallsdato';
      earliestDate = date(rec, line, from, from + 5, 'earliestDate', `første ${word}`, true);
      latestDate = date(rec, line, from + 6, from + 11, 'latestDate', `siste ${word}`, true);
      if (earliestDate !== a.earliest) {
        fail('DATE_MISMATCH', line, 'earliestDate', `første ${word} i sluttposten (${dateText(earliestDate)}) stemmer ikke med transaksjonene (${dateText(a.earliest)})`);
      }
      if (latestDate !== a.latest) {
        fail('DATE_MISMATCH', line, 'latestDate', `siste ${word} i sluttposten (${dateText(latestDate)}) stemmer ikke med transaksjonene (${dateText(a.latest)})`);
      }
      filler(rec, line, from + 12, 80, '0');
    }
    this.transactions += a.transactions;
    this.assignment = null;
    this.phase = 'between';
    out.push({ type: 'assignment-end', kind, transactions, records, amount: a.amount, netsDate, earliestDate, latestDate, line });
  }

  private transmissionEnd(rec: string, line: number, out: BankFileEvent[]): void {
    if (this.phase === 'after-start') fail('EMPTY_TRANSMISSION', line, 'record', 'forsendelsen har ingen oppdrag');
    if (this.phase !== 'between') unexpected(line, '89', this.expected());
    this.records++;
    const start = this.start as TransmissionStart;
    const transactions = integer(rec, line, 9, 16, 'transactions', 'antall transaksjoner');
    if (transactions !== this.transactions) {
      fail('COUNT_MISMATCH', line, 'transactions', `antall transaksjoner i sluttposten (${transactions}) stemmer ikke med transaksjonene (${this.transactions})`);
    }
    const records = integer(rec, line, 17, 24, 'records', 'antall poster');
    if (records !== this.records) {
      fail('COUNT_MISMATCH', line, 'records', `antall poster i sluttposten (${records}) stemmer ikke med postene i forsendelsen (${this.records})`);
    }
    const amount = integer(rec, line, 25, 41, 'amount', 'sum beløp');
    if (amount !== this.amount) {
      fail('CHECKSUM_MISMATCH', line, 'amount', `beløpssummen i sluttposten (${amount}) stemmer ikke med transaksjonene (${this.amount})`);
    }
    let d: string | null;
    if (start.kind === 'avtalegiro-claims') {
      d = date(rec, line, 42, 47, 'date', 'første forfallsdato', true);
      if (d !== this.earliestDue) {
        fail('DATE_MISMATCH', line, 'date', `første forfallsdato i sluttposten (${dateText(d)}) stemmer ikke med transaksjonene (${dateText(this.earliestDue)})`);
      }
    } else {
      // Nets' date; zeros allowed only when the transmission holds nothing but mandates.
      d = date(rec, line, 42, 47, 'date', 'Nets-dato', !this.hasOcr);
    }
    filler(rec, line, 48, 80, '0');
    this.phase = 'done';
    out.push({ type: 'transmission-end', totals: { transactions, records, amount, date: d, line } });
  }
}

/**
 * Reads a transmission record by record, yielding events in file order (see `BankFileEvent`).
 * `lines` are the file's lines without line endings (a trailing `\r` is dropped); after the end
 * record only empty lines may follow. Throws `BankFileError` at the first fault.
 */
export async function* readBankFile(lines: Many<string>): AsyncGenerator<BankFileEvent, void, undefined> {
  const reader = new Reader();
  const out: BankFileEvent[] = [];
  for await (const line of lines) {
    reader.push(line, out);
    if (out.length > 0) {
      for (const event of out) yield event;
      out.length = 0;
    }
  }
  reader.finish();
}

/** Reads a whole (small) file into one object. */
export async function parseBankFile(text: string): Promise<ParsedBankFile> {
  let start: TransmissionStart | null = null;
  const assignments: ParsedAssignment[] = [];
  let current: ParsedAssignment | null = null;
  let end: TransmissionTotals | null = null;
  for await (const event of readBankFile(splitLines(text))) {
    switch (event.type) {
      case 'transmission':
        start = event.start;
        break;
      case 'assignment': {
        const { type: _type, ...assignment } = event;
        current = { ...assignment, transactions: [], end: { kind: assignment.kind, transactions: 0, records: 0, amount: 0, netsDate: null, earliestDate: null, latestDate: null, line: 0 } };
        assignments.push(current);
        break;
      }
      case 'assignment-end': {
        const { type: _type, ...end } = event;
        (current as ParsedAssignment).end = end;
        current = null;
        break;
      }
      case 'transmission-end':
        // Not returned here: the reader still has to see that nothing follows the end record.
        end = event.totals;
        break;
      default:
        (current as ParsedAssignment).transactions.push(event satisfies BankTransaction);
    }
  }
  // readBankFile throws MISSING_END unless both were read.
  if (start === null || end === null) throw new Error('unreachable: transmission without start or end');
  return { kind: start.kind, start, assignments, end };
}
