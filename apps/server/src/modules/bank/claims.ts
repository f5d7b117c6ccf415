import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import {
  AVTALEGIRO_CLAIM_TYPES,
  specificationFromText,
  writeAvtaleGiroClaims,
  type AvtaleGiroCancellationAssignmentInput,
  type AvtaleGiroClaimAssignmentInput,
  type AvtaleGiroClaimInput,
  type AvtaleGiroCancellationInput,
} from '@minside/bank-files';
import { formatKroner, formatShortDate } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { account, appUser, avtaleGiroClaim, bankFile, invoice, paymentAgreement, subscription } from '../../db/schema.ts';
import type { BankFileArchive } from './archive.ts';
import { decideClaimFile } from './claim-decision.ts';

/**
 * The daily AvtaleGiro claim run (issue 21): every unpaid invoice of a subscription with a
 * confirmed mandate, due inside the bank's window, goes to the bank once, with a notice text; a
 * claim whose invoice was settled another way before its due date is withdrawn (type 93).
 *
 * Crash-safe in two steps: one database transaction decides the day's claims and cancellations
 * and records them against the day's file row; the file is then written from those rows (again,
 * identically, if a run stopped before it finished). Claims are keyed by invoice, so no invoice
 * is ever claimed twice.
 */

/** The illustrative customer unit id used when BANK_CUSTOMER_UNIT_ID is unset (never in production). */
export const DEMO_CUSTOMER_UNIT_ID = '71000001';
/** Claims read from the database per query while the file is written: constant memory for any number. */
const PAGE = 1_000;

export interface ClaimRunSummary {
  date: string;
  /** Null, with `fileName` and `path`, when there was nothing to claim or withdraw that day: no file is sent. */
  transmissionNumber: string | null;
  fileName: string | null;
  claims: number;
  cancellations: number;
  amountOre: number;
  /** Where the file waits for transport to the bank. */
  path: string | null;
}

export interface ClaimDeps {
  db: Db;
  catalogue: Catalogue;
  archive: BankFileArchive;
  customerUnitId: string;
  now: () => Date;
}

export function createClaimRun({ db, catalogue, archive, customerUnitId, now }: ClaimDeps) {
  const decide = (date: string) => decideClaimFile({ db, customerUnitId, now }, date);

  type ClaimRow = { no: number; kid: string; amountOre: number; dueOn: string; titleCode: string; description: string; familyName: string | null; bankNotice: boolean | null };

  /** The file's claims (or cancellations) of one title, page by page in invoice order. */
  async function* rowsOf(fileId: string, titleCode: string, cancelled: boolean): AsyncGenerator<ClaimRow> {
    let after = 0;
    for (;;) {
      const page = await db
        .select({
          no: avtaleGiroClaim.ariaInvoiceNo,
          kid: avtaleGiroClaim.kid,
          amountOre: avtaleGiroClaim.amountOre,
          dueOn: avtaleGiroClaim.dueOn,
          titleCode: subscription.titleCode,
          description: invoice.description,
          familyName: appUser.familyName,
          // The newest mandate row with this KID says whether the payer wants the bank's notice.
          bankNotice: sql<
            boolean | null
          >`(select pa.bank_notice from ${paymentAgreement} pa where pa.method = 'AVTALEGIRO' and pa.provider_agreement_id = ${avtaleGiroClaim.kid} order by pa.created_at desc limit 1)`,
        })
        .from(avtaleGiroClaim)
        .innerJoin(invoice, eq(invoice.ariaInvoiceNo, avtaleGiroClaim.ariaInvoiceNo))
        .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
        .leftJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
        .leftJoin(appUser, eq(appUser.id, account.userId))
        // The invoice's bound repeats the claim's (the join is on equality) so that a merge join starts at the page, not at the first invoice.
        .where(
          and(
            cancelled ? eq(avtaleGiroClaim.cancelledIn, fileId) : eq(avtaleGiroClaim.bankFileId, fileId),
            eq(subscription.titleCode, titleCode),
            gt(avtaleGiroClaim.ariaInvoiceNo, after),
            gt(invoice.ariaInvoiceNo, after),
          ),
        )
        .orderBy(asc(avtaleGiroClaim.ariaInvoiceNo))
        .limit(PAGE);
      yield* page;
      if (page.length < PAGE) return;
      after = page.at(-1)?.no ?? after;
    }
  }

  /** The payer's notice: what the claim is for, in the title's words (at most 42 lines of 80). */
  function noticeOf(row: ClaimRow, titleName: string): string {
    return [`${titleName}`, `Faktura ${row.no}: ${row.description}`, `Beløp ${formatKroner(row.amountOre, { withOre: true })} trekkes med AvtaleGiro ${formatShortDate(row.dueOn)}.`]
      .map((line) => latin1(line).slice(0, 80))
      .join('\n');
  }

  async function* claimsOf(fileId: string, titleCode: string, titleName: string): AsyncGenerator<AvtaleGiroClaimInput> {
    for await (const row of rowsOf(fileId, titleCode, false)) {
      yield {
        transactionType: row.bankNotice ? AVTALEGIRO_CLAIM_TYPES.BANK_NOTIFIES : AVTALEGIRO_CLAIM_TYPES.PAYEE_NOTIFIES,
        dueDate: row.dueOn,
        amount: row.amountOre,
        kid: row.kid,
        payerName: latin1(row.familyName ?? '').slice(0, 10),
        externalReference: `Faktura ${row.no}`,
        specification: specificationFromText(noticeOf(row, titleName)),
      };
    }
  }

  async function* cancellationsOf(fileId: string, titleCode: string): AsyncGenerator<AvtaleGiroCancellationInput> {
    for await (const row of rowsOf(fileId, titleCode, true)) {
      yield { dueDate: row.dueOn, amount: row.amountOre, kid: row.kid, payerName: latin1(row.familyName ?? '').slice(0, 10), externalReference: `Faktura ${row.no}` };
    }
  }

  /** Titles with claims or cancellations in the file: one assignment each, on the title's AvtaleGiro account. */
  async function titlesIn(fileId: string): Promise<{ titleCode: string; cancelled: boolean }[]> {
    const rows = await db
      .selectDistinct({ titleCode: subscription.titleCode, cancelled: sql<boolean>`${avtaleGiroClaim.cancelledIn} = ${fileId}` })
      .from(avtaleGiroClaim)
      .innerJoin(invoice, eq(invoice.ariaInvoiceNo, avtaleGiroClaim.ariaInvoiceNo))
      .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .where(or(eq(avtaleGiroClaim.bankFileId, fileId), eq(avtaleGiroClaim.cancelledIn, fileId)))
      .orderBy(asc(subscription.titleCode));
    return rows.map((row) => ({ titleCode: row.titleCode, cancelled: Boolean(row.cancelled) }));
  }

  async function* assignmentsOf(file: typeof bankFile.$inferSelect): AsyncGenerator<AvtaleGiroClaimAssignmentInput | AvtaleGiroCancellationAssignmentInput> {
    let index = 0;
    const base = (Number(file.transmissionNumber) % 100_000) * 100;
    for (const { titleCode, cancelled } of await titlesIn(file.id)) {
      const title = catalogue.byTitleCode(titleCode);
      index += 1;
      const assignmentNumber = String(base + index).padStart(7, '0');
      if (cancelled) yield { kind: 'avtalegiro-cancellations', assignmentNumber, account: title.bank.avtaleGiroAccount, transactions: cancellationsOf(file.id, titleCode) };
      else yield { assignmentNumber, account: title.bank.avtaleGiroAccount, transactions: claimsOf(file.id, titleCode, title.name) };
    }
  }

  const fileNameOf = (file: typeof bankFile.$inferSelect) => `avtalegiro-${file.dataTransmitter}-${file.transmissionNumber}-${file.netsDate}.txt`;

  /** Writes a decided file (first time, or after a run that stopped while writing it) to the outbox, once. */
  async function write(file: typeof bankFile.$inferSelect): Promise<string> {
    // The day's claims were just inserted, possibly a million: without fresh statistics the planner
    // takes the file's rows for a handful and joins all the rows after each page before it sorts
    // (bench/bank.ts: the write grew with the square of the claims). Needs the table's owner; for
    // anyone else PostgreSQL only warns.
    await db.execute(sql`analyze ${avtaleGiroClaim}`);
    const fileName = fileNameOf(file);
    const lines = writeAvtaleGiroClaims({ dataTransmitter: file.dataTransmitter, transmissionNumber: file.transmissionNumber, assignments: assignmentsOf(file) });
    const written = await archive.writeOutgoingLines(fileName, lines);
    await db
      .update(bankFile)
      .set({ status: 'WRITTEN', sha256: written.sha256, fileName, completedAt: now() })
      .where(and(eq(bankFile.id, file.id), eq(bankFile.status, 'WRITING')));
    return written.path;
  }

  return {
    /**
     * Runs the day's claims and writes the file to the outbox. A file written before is never
     * written or queued again (it may be on its way to the bank already): asked again, the run
     * answers with the archived copy. A file an earlier run decided but never finished writing —
     * that day's or any other's — is written first, so its claims are not left unsent.
     */
    async run(date: string): Promise<ClaimRunSummary> {
      const unfinished = await db
        .select()
        .from(bankFile)
        .where(and(eq(bankFile.direction, 'OUT'), eq(bankFile.kind, 'avtalegiro-claims'), eq(bankFile.dataTransmitter, customerUnitId), eq(bankFile.status, 'WRITING')));
      for (const earlier of unfinished) if (earlier.netsDate !== date) await write(earlier);
      const file = await decide(date);
      if (!file) return { date, transmissionNumber: null, fileName: null, claims: 0, cancellations: 0, amountOre: 0, path: null };
      const fileName = fileNameOf(file);
      const path = file.status === 'WRITTEN' ? archive.archivedOutgoing(file.sha256, fileName) : await write(file);
      const [counts] = await db
        .select({ cancellations: sql<string>`count(*)` })
        .from(avtaleGiroClaim)
        .where(eq(avtaleGiroClaim.cancelledIn, file.id));
      const cancellations = Number(counts?.cancellations ?? 0);
      return { date, transmissionNumber: file.transmissionNumber, fileName, claims: file.transactions - cancellations, cancellations, amountOre: file.amountOre, path };
    },
  };
}

/**
 * Notice text and names go to the bank in ISO-8859-1: the dashes of an invoice line's period and a
 * minus sign become `-`, anything else outside it `?` rather than failing the run.
 */
function latin1(text: string): string {
  return text.replace(/[\u2013\u2212]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}
