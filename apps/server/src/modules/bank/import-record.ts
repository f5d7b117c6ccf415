import { OCR_TRANSACTION_TYPES, type BankFileEvent, type OcrTransaction } from '@minside/bank-files';
import type { Catalogue, PublicationConfig } from '@minside/titles';

// What the import (import.ts) and its two appliers (ocr-payments.ts, mandates.ts) share: a
// transaction with its place in the file, which title it came to, and what became of it.

/** Why a transaction waits for a person (`bank_transaction.reason`), with the operator's Norwegian label. */
export const unmatchedReasons = {
  UNKNOWN_KID: 'Ukjent KID',
  WRONG_ACCOUNT: 'Betalt til en annen avis sin konto',
  INVOICE_CLOSED: 'Fakturaen var allerede betalt eller kreditert',
  OVERPAYMENT: 'Overbetaling',
  REVERSAL_WITHOUT_PAYMENT: 'Tilbakeføring uten en betaling å føre den mot',
  UNKNOWN_MANDATE: 'Ukjent AvtaleGiro-avtale',
  AMOUNT_TOO_LARGE: 'Beløpet er større enn noen faktura kan være',
} as const;

export type UnmatchedReason = keyof typeof unmatchedReasons;

export type Assignment = Extract<BankFileEvent, { type: 'assignment' }>;
export type Positioned<T> = { seq: number; assignment: Assignment; transaction: T };

/** What applying one transaction did: the columns of its `bank_transaction` row. */
export type Outcome = { outcome: string; reason: UnmatchedReason | null; openAmountOre: number; ariaInvoiceNo: number | null; paymentId: string | null; settled: boolean; titleCode: string | null };

/** A reversal (types 18 and 20, whatever its sign field says) takes money back: negative. */
export function signedAmountOf(t: OcrTransaction): number {
  const reversal = t.sign === '-' || t.transactionType === OCR_TRANSACTION_TYPES.REVERSING_WITH_KID || t.transactionType === OCR_TRANSACTION_TYPES.REVERSING_WITH_TEXT;
  return reversal ? -t.amount : t.amount;
}

/** The title an assignment is for: by its OCR agreement id, else by the account it was paid to. */
export function titleOfAssignment(catalogue: Catalogue): (assignment: Assignment) => PublicationConfig | undefined {
  const byAgreement = new Map(catalogue.all().map((title) => [title.bank.ocrAgreementId, title]));
  const byAccount = new Map<string, PublicationConfig>();
  for (const title of catalogue.all()) {
    byAccount.set(title.bank.creditorAccount, title);
    byAccount.set(title.bank.avtaleGiroAccount, title);
  }
  return (assignment: Assignment) => (assignment.agreementId ? byAgreement.get(assignment.agreementId) : undefined) ?? byAccount.get(assignment.account);
}
