import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { invoice } from './billing.ts';

/** Numbers the AvtaleGiro mandates: the serial in a mandate's customer KID (issue 21), never reused. */
export const avtaleGiroMandateNo = pgSequence('avtalegiro_mandate_no_seq', { startWith: 1 });

/**
 * One bank file, in or out (issue 21): an imported OCR Giro or AvtaleGiro mandate transmission, or
 * a written AvtaleGiro claim transmission. The unique key makes a second import of the same
 * transmission a no-op; `status` IMPORTING means a run stopped part-way and the next one resumes.
 */
export const bankFile = pgTable(
  'bank_file',
  {
    id: text('id').primaryKey(),
    /** IN (from the bank) or OUT (to the bank). */
    direction: text('direction').notNull(),
    /** ocr-giro, avtalegiro-mandates or avtalegiro-claims. */
    kind: text('kind').notNull(),
    dataTransmitter: text('data_transmitter').notNull(),
    transmissionNumber: text('transmission_number').notNull(),
    dataRecipient: text('data_recipient').notNull(),
    /** SHA-256 of the file's bytes; the archived copy is kept under this name. */
    sha256: text('sha256').notNull(),
    fileName: text('file_name'),
    /** IMPORTING, IMPORTED, WRITING, WRITTEN. */
    status: text('status').notNull(),
    transactions: integer('transactions').notNull().default(0),
    /** The transmission end record's amount sum (øre); for claims the sum written. */
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull().default(0),
    /** The bank's date in the end record; for claims the run's date. */
    netsDate: date('nets_date', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('bank_file_transmission_idx').on(table.direction, table.kind, table.dataTransmitter, table.transmissionNumber)],
);

/**
 * One transaction of an imported bank file, once: the primary key (file, position) is what makes an
 * import killed part-way settle each payment exactly once when it runs again. `outcome` says what
 * the portal did with it; the rows still open for a person are the reconciliation list.
 */
export const bankTransaction = pgTable(
  'bank_transaction',
  {
    bankFileId: text('bank_file_id')
      .notNull()
      .references(() => bankFile.id),
    /** 1-based position of the transaction in the file. */
    seq: integer('seq').notNull(),
    /** The title whose agreement or account the assignment names; null when none does. */
    titleCode: text('title_code'),
    /** The file's transaction type (OCR Giro 10–21; AvtaleGiro mandates 94). */
    transactionType: integer('transaction_type').notNull(),
    kid: text('kid').notNull(),
    /** Signed: a reversal is negative. */
    amountOre: bigint('amount_ore', { mode: 'number' }).notNull(),
    /** OCR: the settlement (nets) date; mandates: the file's date. */
    settledOn: date('settled_on', { mode: 'string' }),
    bankDate: date('bank_date', { mode: 'string' }),
    debitAccount: text('debit_account'),
    assignmentAccount: text('assignment_account'),
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' }),
    paymentId: text('payment_id'),
    /** SETTLED, PARTIAL, OVERPAID, REVERSED, MANDATE, UNMATCHED. */
    outcome: text('outcome').notNull(),
    /** Why a person must look (UNKNOWN_KID, INVOICE_CLOSED, WRONG_ACCOUNT, OVERPAYMENT, …); null when nothing is open. */
    reason: text('reason'),
    /** The øre a person must place (the whole amount, or an over-payment's excess). */
    openAmountOre: bigint('open_amount_ore', { mode: 'number' }).notNull().default(0),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedNote: text('resolved_note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.bankFileId, table.seq] }), index('bank_transaction_open_idx').on(table.reason, table.resolvedAt), index('bank_transaction_kid_idx').on(table.kid)],
);

/**
 * One AvtaleGiro claim sent to the bank for an invoice (issue 21): the keys make a claim run killed
 * part-way write each invoice's claim once; `cancelledIn` is the file that withdrew it.
 */
export const avtaleGiroClaim = pgTable(
  'avtalegiro_claim',
  {
    ariaInvoiceNo: bigint('aria_invoice_no', { mode: 'number' })
      .notNull()
      .references(() => invoice.ariaInvoiceNo),
    bankFileId: text('bank_file_id')
      .notNull()
      .references(() => bankFile.id),
    /** The mandate's customer KID the claim was made on (the bank draws on that mandate). */
    kid: text('kid').notNull(),
    amountOre: integer('amount_ore').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    cancelledIn: text('cancelled_in').references(() => bankFile.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // An invoice is claimed once per file; withdrawn (part-paid, method changed and back) it may be claimed again later…
    primaryKey({ columns: [table.ariaInvoiceNo, table.bankFileId] }),
    // …but never has two claims out at the bank at once.
    uniqueIndex('avtalegiro_claim_live_idx')
      .on(table.ariaInvoiceNo)
      .where(sql`cancelled_in is null`),
    index('avtalegiro_claim_kid_idx').on(table.kid, table.dueOn),
  ],
);
