/**
 * The values the reader yields and the writers take. Dates are ISO calendar dates `YYYY-MM-DD`;
 * amounts are whole øre as `number` (safe integers, at most Number.MAX_SAFE_INTEGER øre: the
 * 17-digit fields could hold more, but no real file does); identifiers that are digits with
 * meaningful leading zeros (accounts, agreement ids, assignment numbers, KIDs) stay strings.
 */

/** Nets' (Mastercard Payment Services') data transmitter/recipient id. */
export const NETS_ID = '00008080';

/** What a transmission carries, decided by its first assignment. */
export type BankFileKind = 'ocr-giro' | 'avtalegiro-claims' | 'avtalegiro-mandates';

/** What one assignment carries (service code + assignment type). */
export type AssignmentKind =
  /** Service 09, assignment type 00: OCR Giro transactions, from Nets. */
  | 'ocr-giro'
  /** Service 21, assignment type 00: AvtaleGiro payment claims, to Nets. */
  | 'avtalegiro-claims'
  /** Service 21, assignment type 36: cancellations of AvtaleGiro claims, to Nets. */
  | 'avtalegiro-cancellations'
  /** Service 21, assignment type 24: the payee's AvtaleGiro mandates (faste betalingsoppdrag), from Nets. */
  | 'avtalegiro-mandates';

/** OCR Giro transaction types (positions 5–6 of records 30/31/32, service 09). */
export const OCR_TRANSACTION_TYPES = {
  GIRO_DEBITED_ACCOUNT: 10,
  STANDING_ORDERS: 11,
  DIRECT_REMITTANCE: 12,
  BUSINESS_TERMINAL_GIRO: 13,
  COUNTER_GIRO: 14,
  AVTALEGIRO: 15,
  TELEGIRO: 16,
  CASH_GIRO: 17,
  REVERSING_WITH_KID: 18,
  PURCHASE_WITH_KID: 19,
  REVERSING_WITH_TEXT: 20,
  PURCHASE_WITH_TEXT: 21,
} as const;
export type OcrTransactionType = (typeof OCR_TRANSACTION_TYPES)[keyof typeof OCR_TRANSACTION_TYPES];

/**
 * AvtaleGiro claim transaction types (positions 5–6 of records 30/31, service 21, assignment type 00).
 * Per the AvtaleGiro specification v3.3: 02 = no notification from the bank (the payee notifies),
 * 21 = the bank notifies the payer (AvtaleGiro info, with the specification records as text).
 */
export const AVTALEGIRO_CLAIM_TYPES = { PAYEE_NOTIFIES: 2, BANK_NOTIFIES: 21 } as const;
export type AvtaleGiroClaimType = (typeof AVTALEGIRO_CLAIM_TYPES)[keyof typeof AVTALEGIRO_CLAIM_TYPES];

/** Transaction type of cancellation records (assignment type 36). */
export const AVTALEGIRO_CANCELLATION_TYPE = 93;
/** Transaction type of mandate records (record 70). */
export const AVTALEGIRO_MANDATE_TYPE = 94;

/** Registration type of a mandate record: 0 all active mandates, 1 new or changed, 2 deleted. */
export const MANDATE_REGISTRATION_TYPES = { ALL: 0, NEW_OR_CHANGED: 1, DELETED: 2 } as const;
export type MandateRegistrationType = (typeof MANDATE_REGISTRATION_TYPES)[keyof typeof MANDATE_REGISTRATION_TYPES];

// ── transmission and assignment ──────────────────────────────────────────────────────────────

export interface TransmissionStart {
  kind: BankFileKind;
  /** 8 digits: Nets (00008080) in files from Nets, the payee's customer unit id in claims. */
  dataTransmitter: string;
  /** 7 digits. */
  transmissionNumber: string;
  /** 8 digits: the payee's customer unit id in files from Nets, Nets (00008080) in claims. */
  dataRecipient: string;
  line: number;
}

export interface TransmissionTotals {
  /** Number of transactions in the transmission (a transaction is all its records together). */
  transactions: number;
  /** Number of records, the transmission's own start and end records included. */
  records: number;
  /** Sum of all amounts in øre (reversals added, not deducted; cancellations added too). */
  amount: number;
  /**
   * Positions 42–47 of the end record. OCR Giro and mandates: Nets' date (may be null, `000000`,
   * when the transmission holds only mandates). Claims: the earliest due date in the transmission
   * (null only when it holds no transactions).
   */
  date: string | null;
  line: number;
}

export interface AssignmentStart {
  kind: AssignmentKind;
  /** 9 digits for OCR Giro; null for AvtaleGiro (the field is zero filler there). */
  agreementId: string | null;
  /** 7 digits. */
  assignmentNumber: string;
  /** The payee's account, 11 digits. */
  account: string;
  line: number;
}

export interface AssignmentTotals {
  kind: AssignmentKind;
  transactions: number;
  /** Records in the assignment, its own start and end records included. */
  records: number;
  /** Sum of the amounts in øre (0 for mandates, whose end record has no amount). */
  amount: number;
  /** OCR Giro only: the date Nets generated the assignment; null otherwise. */
  netsDate: string | null;
  /** Earliest Nets date (OCR Giro) or due date (claims, cancellations); null if none or mandates. */
  earliestDate: string | null;
  /** Latest Nets date (OCR Giro) or due date (claims, cancellations); null if none or mandates. */
  latestDate: string | null;
  line: number;
}

// ── transactions ─────────────────────────────────────────────────────────────────────────────

/** An OCR Giro transaction: amount item 1 (30), amount item 2 (31), and for types 20/21 amount item 3 (32). */
export interface OcrTransactionFields {
  /** 1–9999999, ascending within the assignment. */
  transactionNumber: number;
  transactionType: OcrTransactionType;
  /** Nets' processing date of the transaction. */
  netsDate: string;
  /** 2 digits: the first two digits of the bank data centre. */
  centreId: string;
  /** Day of the month the transaction was processed, 1–31. */
  dayCode: number;
  /** 0–9 (the manual says 0 for types 18–21; not enforced, see README). */
  partialSettlementNumber: number;
  /** 5 digits. */
  partialSettlementSerialNumber: string;
  /** `-` for a credit note the payee can book electronically (only reversals, 18 and 20), else `0`. */
  sign: '0' | '-';
  /** Øre; never negative in the file: a reversal has sign `-`. */
  amount: number;
  /** Up to 25 digits, right-aligned in the file; null when the field is blank. */
  kid: string | null;
  /** Positions 75–76 ("filler/card drawer" in the manual's table), 2 digits, `00` when unused. */
  cardIssuer: string;
  /** 10 digits: form number of a giro debited in a bank, else zeros. */
  formNumber: string;
  /** 9 digits: archive reference, or the payer's agreement id (direct remittance), or BAX + session (18–21). */
  archiveReference: string;
  /** Positions 35–41 of amount item 2, 7 digits: documented as zero filler, but Nets' own example fills it. */
  filler: string;
  /** Bank date, null when `000000`. */
  bankDate: string | null;
  /** 11 digits, the payer's account if known, else zeros (the manual: zeros for types 18–21; not enforced). */
  debitAccount: string;
  /** Free text of amount item 3, right-trimmed, for types 20 and 21 only (else null). */
  text: string | null;
}

/** One AvtaleGiro specification record (49): half of one line of the payer's notice. */
export interface SpecificationRecord {
  /** 1–42. */
  lineNumber: number;
  /** 1 (characters 1–40 of the line) or 2 (characters 41–80). */
  column: 1 | 2;
  /** Up to 40 characters, right-trimmed, not blank. */
  text: string;
}

/** An AvtaleGiro payment claim: amount item 1 (30), amount item 2 (31), 0–84 specification records (49). */
export interface AvtaleGiroClaimFields {
  transactionNumber: number;
  transactionType: AvtaleGiroClaimType;
  dueDate: string;
  amount: number;
  /** 1–25 digits; required (the claim is matched to the payer's mandate by KID). */
  kid: string;
  /** Abbreviated payer name, up to 10 characters, right-trimmed ('' when blank). */
  payerName: string;
  /** Up to 25 characters shown on the payer's statement, right-trimmed ('' when blank). */
  externalReference: string;
  /** In file order (the specification allows any order within a transaction). */
  specification: SpecificationRecord[];
}

/** A cancellation (sletteanmodning): record 30, optional record 31, optional 49s, all transaction type 93 (49: 21). */
export interface AvtaleGiroCancellationFields {
  transactionNumber: number;
  dueDate: string;
  amount: number;
  kid: string;
  /** Null (together with externalReference) when the optional amount item 2 is absent. */
  payerName: string | null;
  externalReference: string | null;
  specification: SpecificationRecord[];
}

/** A mandate (fast betalingsoppdrag) record 70. */
export interface AvtaleGiroMandateFields {
  transactionNumber: number;
  registrationType: MandateRegistrationType;
  kid: string;
  /** J: the payer wants a written notice of each claim. */
  notify: boolean;
}

export type OcrTransaction = { type: 'ocr-transaction'; line: number } & OcrTransactionFields;
export type AvtaleGiroClaim = { type: 'avtalegiro-claim'; line: number } & AvtaleGiroClaimFields;
export type AvtaleGiroCancellation = { type: 'avtalegiro-cancellation'; line: number } & AvtaleGiroCancellationFields;
export type AvtaleGiroMandate = { type: 'avtalegiro-mandate'; line: number } & AvtaleGiroMandateFields;
export type BankTransaction = OcrTransaction | AvtaleGiroClaim | AvtaleGiroCancellation | AvtaleGiroMandate;

/** What `readBankFile` yields, in file order. Transactions carry the line of their first record. */
export type BankFileEvent =
  | { type: 'transmission'; start: TransmissionStart }
  | ({ type: 'assignment' } & AssignmentStart)
  | BankTransaction
  | ({ type: 'assignment-end' } & AssignmentTotals)
  | { type: 'transmission-end'; totals: TransmissionTotals };

export interface ParsedAssignment extends AssignmentStart {
  transactions: BankTransaction[];
  end: AssignmentTotals;
}

export interface ParsedBankFile {
  kind: BankFileKind;
  start: TransmissionStart;
  assignments: ParsedAssignment[];
  end: TransmissionTotals;
}

// ── writer input ─────────────────────────────────────────────────────────────────────────────

export type Many<T> = Iterable<T> | AsyncIterable<T>;

/** Writers number transactions 1, 2, 3… per assignment when `transactionNumber` is left out. */
type Numbered<T extends { transactionNumber: number }> = Omit<T, 'transactionNumber'> & { transactionNumber?: number };

export type OcrTransactionInput = Omit<Numbered<OcrTransactionFields>, 'cardIssuer' | 'filler'> & {
  /** Default `00`. */
  cardIssuer?: string;
  /** Default `0000000`. */
  filler?: string;
};

export interface OcrGiroAssignmentInput {
  agreementId: string;
  assignmentNumber: string;
  account: string;
  /** The date Nets generated the assignment (assignment end, positions 42–47). */
  netsDate: string;
  transactions: Many<OcrTransactionInput>;
}

export interface OcrGiroTransmissionInput {
  /** Default and only allowed value: NETS_ID. */
  dataTransmitter?: string;
  transmissionNumber: string;
  dataRecipient: string;
  /** Nets' date in the transmission end record. */
  netsDate: string;
  assignments: Many<OcrGiroAssignmentInput>;
}

export type AvtaleGiroClaimInput = Omit<Numbered<AvtaleGiroClaimFields>, 'payerName' | 'externalReference' | 'specification'> & {
  /** Default ''. */
  payerName?: string;
  /** Default ''. */
  externalReference?: string;
  /** Default none. See `specificationFromText`. */
  specification?: readonly SpecificationRecord[];
};

export type AvtaleGiroCancellationInput = Omit<Numbered<AvtaleGiroCancellationFields>, 'payerName' | 'externalReference' | 'specification'> & {
  /** Both null or left out: no amount item 2 (slettepost 2). */
  payerName?: string | null;
  externalReference?: string | null;
  specification?: readonly SpecificationRecord[];
};

export interface AvtaleGiroClaimAssignmentInput {
  /** Default 'avtalegiro-claims'. */
  kind?: 'avtalegiro-claims';
  assignmentNumber: string;
  account: string;
  transactions: Many<AvtaleGiroClaimInput>;
}

export interface AvtaleGiroCancellationAssignmentInput {
  kind: 'avtalegiro-cancellations';
  assignmentNumber: string;
  account: string;
  transactions: Many<AvtaleGiroCancellationInput>;
}

export interface AvtaleGiroClaimsTransmissionInput {
  /** The payee's customer unit id, 8 digits. */
  dataTransmitter: string;
  transmissionNumber: string;
  /** Default and only allowed value: NETS_ID. */
  dataRecipient?: string;
  assignments: Many<AvtaleGiroClaimAssignmentInput | AvtaleGiroCancellationAssignmentInput>;
}

export type AvtaleGiroMandateInput = Numbered<AvtaleGiroMandateFields>;

export interface AvtaleGiroMandateAssignmentInput {
  assignmentNumber: string;
  account: string;
  transactions: Many<AvtaleGiroMandateInput>;
}

export interface AvtaleGiroMandatesTransmissionInput {
  /** Default and only allowed value: NETS_ID. */
  dataTransmitter?: string;
  transmissionNumber: string;
  dataRecipient: string;
  /** Nets' date in the transmission end record, or null (`000000`, allowed for mandates only). */
  netsDate: string | null;
  assignments: Many<AvtaleGiroMandateAssignmentInput>;
}
