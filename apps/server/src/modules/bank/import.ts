import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { AVTALEGIRO_MANDATE_TYPE, readBankFile, type AvtaleGiroMandate, type BankFileEvent, type BankFileKind, type OcrTransaction, OCR_TRANSACTION_TYPES } from '@minside/bank-files';
import { osloNoonOf, readKid } from '@minside/domain';
import type { Catalogue, PublicationConfig } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { avtaleGiroClaim, bankFile, bankTransaction, invoice, payment, paymentAgreement, subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { enqueuePaymentReceipt, paidSoFar } from '../billing/index.ts';
import { mandateDeleted } from './mandates.ts';

/**
 * Imports a bank file from Nets (issue 21): OCR Giro payments settle invoices, AvtaleGiro mandate
 * files confirm or delete mandates. Only the bank's word moves money here.
 *
 * Two passes over the file: the first reads it whole and strictly (a file that breaks the layout is
 * refused whole and changes nothing), the second applies it in batches. Every transaction is one
 * `bank_transaction` row keyed by (file, position), written in the same database transaction as
 * its effect, so an import killed at any point and run again settles each transaction once; a
 * second import of a finished transmission changes nothing and says `duplicate`.
 */

/** Transactions applied per database transaction: small enough to keep locks short, large enough to be quick. */
const BATCH = 200;

type ImportedKind = Exclude<BankFileKind, 'avtalegiro-claims'>;

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

/** Lines of a file, as many times as the import reads it (it reads twice; nothing holds the whole file). */
export type LineSource = () => AsyncIterable<string> | Iterable<string>;

export interface BankImportDeps {
  db: Db;
  catalogue: Catalogue;
  mailer: Mailer;
  now: () => Date;
  portalOrigin: (titleCode: string) => string;
}

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

/** A reversal (types 18 and 20, whatever its sign field says) takes money back: negative. */
function signedAmountOf(t: OcrTransaction): number {
  const reversal = t.sign === '-' || t.transactionType === OCR_TRANSACTION_TYPES.REVERSING_WITH_KID || t.transactionType === OCR_TRANSACTION_TYPES.REVERSING_WITH_TEXT;
  return reversal ? -t.amount : t.amount;
}
export type UnmatchedReason = keyof typeof unmatchedReasons;

interface Header {
  kind: ImportedKind;
  dataTransmitter: string;
  transmissionNumber: string;
  dataRecipient: string;
  transactions: number;
  amountOre: number;
  netsDate: string | null;
}

type Assignment = Extract<BankFileEvent, { type: 'assignment' }>;
type Positioned<T> = { seq: number; assignment: Assignment; transaction: T };

/**
 * Pass 1: the whole file, strictly, to its last line (anything after the end record is a fault
 * too). Throws the reader's BankFileError (line and field) on the first fault, before anything is stored.
 */
async function readHeader(lines: LineSource): Promise<Header> {
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
async function* batches(lines: LineSource): AsyncGenerator<Positioned<OcrTransaction | AvtaleGiroMandate>[]> {
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

export function createBankImport({ db, catalogue, mailer, now, portalOrigin }: BankImportDeps) {
  const byAgreement = new Map(catalogue.all().map((title) => [title.bank.ocrAgreementId, title]));
  const byAccount = new Map<string, PublicationConfig>();
  for (const title of catalogue.all()) {
    byAccount.set(title.bank.creditorAccount, title);
    byAccount.set(title.bank.avtaleGiroAccount, title);
  }
  const titleOf = (assignment: Assignment) => (assignment.agreementId ? byAgreement.get(assignment.agreementId) : undefined) ?? byAccount.get(assignment.account);

  /** The invoice a KID names, locked; null with the reason when it names none of this title's. */
  async function invoiceForKid(tx: Tx, title: PublicationConfig, kid: string, amountOre: number, drawnOn: string): Promise<{ row: typeof invoice.$inferSelect } | { reason: UnmatchedReason }> {
    const named = readKid(kid, title.bank);
    let row: typeof invoice.$inferSelect | undefined;
    if (named?.kind === 'invoice') {
      [row] = await tx.select().from(invoice).where(and(eq(invoice.ariaInvoiceNo, named.serial), eq(invoice.kid, kid))).for('update');
    } else if (named?.kind === 'mandate') {
      // An AvtaleGiro draw on a mandate's customer KID is for the claim of that due date and amount —
      // paid or not, withdrawn or not: a draw for an invoice already paid another way (or whose
      // withdrawal came too late) is a closed invoice for a person, and a reversed draw must find the
      // invoice it paid. Without an exact match, the oldest claim still out.
      const [claim] = await tx
        .select({ no: avtaleGiroClaim.ariaInvoiceNo })
        .from(avtaleGiroClaim)
        .innerJoin(invoice, eq(invoice.ariaInvoiceNo, avtaleGiroClaim.ariaInvoiceNo))
        .where(eq(avtaleGiroClaim.kid, kid))
        .orderBy(
          sql`(${avtaleGiroClaim.dueOn} = ${drawnOn} and ${avtaleGiroClaim.amountOre} = ${amountOre}) desc`,
          sql`${avtaleGiroClaim.cancelledIn} is null desc`,
          sql`${invoice.paidAt} is null desc`,
          sql`${avtaleGiroClaim.amountOre} = ${amountOre} desc`,
          asc(avtaleGiroClaim.dueOn),
        )
        .limit(1);
      if (claim) [row] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, claim.no)).for('update');
    } else {
      // KIDs from before the title's scheme (issue 21) are looked up as they were printed: only an unambiguous one counts.
      const found = await tx.select().from(invoice).where(eq(invoice.kid, kid)).limit(2).for('update');
      if (found.length === 1) row = found[0];
    }
    if (!row) return { reason: 'UNKNOWN_KID' };
    const [owner] = await tx.select({ titleCode: subscription.titleCode }).from(subscription).where(eq(subscription.id, row.subscriptionId ?? ''));
    if (owner && owner.titleCode !== title.titleCode) return { reason: 'WRONG_ACCOUNT' };
    return { row };
  }

  type Outcome = { outcome: string; reason: UnmatchedReason | null; openAmountOre: number; ariaInvoiceNo: number | null; paymentId: string | null; settled: boolean; titleCode: string | null };

  async function applyOcr(tx: Tx, fileId: string, item: Positioned<OcrTransaction>): Promise<Outcome> {
    const { transaction: t, assignment } = item;
    const title = titleOf(assignment);
    const signed = signedAmountOf(t);
    const reversal = signed < 0;
    const open = (reason: UnmatchedReason, ariaInvoiceNo: number | null = null): Outcome => ({ outcome: 'UNMATCHED', reason, openAmountOre: signed, ariaInvoiceNo, paymentId: null, settled: false, titleCode: title?.titleCode ?? null });
    if (!title) return open('WRONG_ACCOUNT');
    if (!t.kid) return open('UNKNOWN_KID');
    // No invoice is that large; the payment table holds øre up to 2^31 − 1 (21.4 million kroner).
    if (t.amount > 2_147_483_647) return open('AMOUNT_TOO_LARGE');
    const found = await invoiceForKid(tx, title, t.kid, t.amount, t.bankDate ?? t.netsDate);
    if ('reason' in found) return open(found.reason);
    const target = found.row;
    const paidOn = t.bankDate ?? t.netsDate;

    if (reversal) {
      // The bank takes back a payment it gave us: the newest bank payment of that amount on the invoice.
      const [original] = await tx
        .select()
        .from(payment)
        .where(and(eq(payment.ariaInvoiceNo, target.ariaInvoiceNo), eq(payment.provider, 'bank'), eq(payment.status, 'CAPTURED'), eq(payment.amountOre, t.amount)))
        .orderBy(sql`${payment.createdAt} desc`)
        .limit(1)
        .for('update');
      if (!original) return open('REVERSAL_WITHOUT_PAYMENT', target.ariaInvoiceNo);
      await tx
        .update(payment)
        .set({ status: 'REFUNDED', errorCode: 'BANK_REVERSAL', updatedAt: now(), details: sql`${payment.details} || ${JSON.stringify({ reversedIn: fileId, reversedSeq: item.seq })}::jsonb` })
        .where(eq(payment.id, original.id));
      if (target.paidAt && (await paidSoFar(tx, target.ariaInvoiceNo)) < target.amountOre && target.settledBy !== 'CREDIT') {
        await tx.update(invoice).set({ paidAt: null, settledBy: null }).where(eq(invoice.ariaInvoiceNo, target.ariaInvoiceNo));
      }
      return { outcome: 'REVERSED', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId: original.id, settled: false, titleCode: title.titleCode };
    }

    if (target.paidAt) return open('INVOICE_CLOSED', target.ariaInvoiceNo);
    const at = now();
    const paymentId = randomUUID();
    const method = t.transactionType === OCR_TRANSACTION_TYPES.AVTALEGIRO ? 'AVTALEGIRO' : 'BANKGIRO';
    await tx.insert(payment).values({
      id: paymentId,
      idempotencyKey: `bank:${fileId}:${item.seq}`,
      purpose: 'INVOICE',
      method,
      amountOre: t.amount,
      status: 'CAPTURED',
      userId: null,
      ariaAccountNo: target.ariaAccountNo,
      subscriptionId: target.subscriptionId,
      ariaInvoiceNo: target.ariaInvoiceNo,
      provider: 'bank',
      providerReference: `${fileId}:${item.seq}`,
      returnUrl: '/fakturaoversikt',
      details: { transactionType: t.transactionType, bankDate: t.bankDate, netsDate: t.netsDate, debitAccount: t.debitAccount, archiveReference: t.archiveReference },
      createdAt: at,
      updatedAt: at,
      settledAt: osloNoonOf(paidOn),
    });
    await enqueuePaymentReceipt(tx, { mailer, catalogue, portalOrigin }, paymentId);
    const paid = await paidSoFar(tx, target.ariaInvoiceNo);
    if (paid < target.amountOre) return { outcome: 'PARTIAL', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: false, titleCode: title.titleCode };
    await tx.update(invoice).set({ paidAt: osloNoonOf(paidOn), settledBy: method }).where(eq(invoice.ariaInvoiceNo, target.ariaInvoiceNo));
    const excess = paid - target.amountOre;
    return excess > 0
      ? { outcome: 'OVERPAID', reason: 'OVERPAYMENT', openAmountOre: excess, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: true, titleCode: title.titleCode }
      : { outcome: 'SETTLED', reason: null, openAmountOre: 0, ariaInvoiceNo: target.ariaInvoiceNo, paymentId, settled: true, titleCode: title.titleCode };
  }

  async function applyMandate(tx: Tx, item: Positioned<AvtaleGiroMandate>): Promise<Outcome> {
    const { transaction: m, assignment } = item;
    const title = titleOf(assignment);
    const open = (reason: UnmatchedReason): Outcome => ({ outcome: 'UNMATCHED', reason, openAmountOre: 0, ariaInvoiceNo: null, paymentId: null, settled: false, titleCode: title?.titleCode ?? null });
    if (!title) return open('WRONG_ACCOUNT');
    if (readKid(m.kid, title.bank)?.kind !== 'mandate') return open('UNKNOWN_MANDATE');
    // Every row of ours with this KID: the one in use (PENDING or ACTIVE), and older ones set aside for a card or giro.
    const rows = await tx
      .select()
      .from(paymentAgreement)
      .where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid)))
      .for('update');
    if (rows.length === 0) return open('UNKNOWN_MANDATE');
    const current = rows.find((row) => row.status === 'PENDING' || row.status === 'ACTIVE');
    const at = now();
    const done: Outcome = { outcome: 'MANDATE', reason: null, openAmountOre: 0, ariaInvoiceNo: null, paymentId: null, settled: false, titleCode: title.titleCode };
    if (m.registrationType === 2) {
      // Deleted at the bank: on every row, so choosing AvtaleGiro again waits for a new confirmation.
      await tx.update(paymentAgreement).set({ status: 'DELETED', bankNotice: null, updatedAt: at }).where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid), ne(paymentAgreement.status, 'DELETED')));
      if (current) await mandateDeleted(tx, { mailer, portalOrigin }, current, title);
      return done;
    }
    // 0 (the bank's full list) and 1 (new or changed): the mandate stands, with the payer's notice
    // choice; a row set aside stays set aside, but remembers the bank has the mandate.
    await tx
      .update(paymentAgreement)
      .set({ bankNotice: m.notify, updatedAt: at })
      .where(and(eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.providerAgreementId, m.kid), eq(paymentAgreement.status, 'REPLACED')));
    if (current) await tx.update(paymentAgreement).set({ status: 'ACTIVE', bankNotice: m.notify, updatedAt: at }).where(eq(paymentAgreement.id, current.id));
    return done;
  }

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
        .values({ id: fileId, direction: 'IN', kind: header.kind, dataTransmitter: header.dataTransmitter, transmissionNumber: header.transmissionNumber, dataRecipient: header.dataRecipient, sha256: file.sha256, fileName: file.fileName, status: 'IMPORTING', transactions: header.transactions, amountOre: header.amountOre, netsDate: header.netsDate, createdAt: at })
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
            (await tx.select({ seq: bankTransaction.seq }).from(bankTransaction).where(and(eq(bankTransaction.bankFileId, stored.id), inArray(bankTransaction.seq, batch.map((item) => item.seq))))).map((row) => row.seq),
          );
          for (const item of batch) {
            if (done.has(item.seq)) continue;
            const t = item.transaction;
            const result = t.type === 'ocr-transaction' ? await applyOcr(tx, stored.id, { ...item, transaction: t }) : await applyMandate(tx, { ...item, transaction: t });
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
      await db.update(bankFile).set({ status: 'IMPORTED', completedAt: now() }).where(and(eq(bankFile.id, stored.id), eq(bankFile.status, 'IMPORTING')));
      return summaryOf(stored.id, header, false);
    },
  };
}
