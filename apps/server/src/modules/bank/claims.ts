import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { AVTALEGIRO_CLAIM_TYPES, specificationFromText, writeAvtaleGiroClaims, type AvtaleGiroCancellationAssignmentInput, type AvtaleGiroClaimAssignmentInput, type AvtaleGiroClaimInput, type AvtaleGiroCancellationInput } from '@minside/bank-files';
import { addDays, formatKroner, formatShortDate } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { account, appUser, avtaleGiroClaim, bankFile, invoice, paymentAgreement, subscription } from '../../db/schema.ts';
import type { BankFileArchive } from './archive.ts';
import { CANCEL_MIN_LEAD_DAYS, CLAIM_MAX_LEAD_DAYS, CLAIM_MIN_LEAD_DAYS, settledOreOf } from '../billing/index.ts';

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
/** Invoices chosen per statement: each statement stays far inside the query timeout, whatever the number. */
const DECIDE_BATCH = 20_000;

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
  /** Decides the day's claims once; returns the file row (new, or the one an earlier run made), or null when there is nothing to send. */
  async function decide(date: string): Promise<typeof bankFile.$inferSelect | null> {
    return db.transaction(async (tx) => {
      // One run at a time, whatever its date: the transmission number is the last one plus one.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('avtalegiro-claims'))`);
      const [existing] = await tx
        .select()
        .from(bankFile)
        .where(and(eq(bankFile.direction, 'OUT'), eq(bankFile.kind, 'avtalegiro-claims'), eq(bankFile.dataTransmitter, customerUnitId), eq(bankFile.netsDate, date)));
      if (existing) return existing;
      const [last] = await tx
        .select({ number: sql<string | null>`max(${bankFile.transmissionNumber})` })
        .from(bankFile)
        .where(and(eq(bankFile.direction, 'OUT'), eq(bankFile.kind, 'avtalegiro-claims'), eq(bankFile.dataTransmitter, customerUnitId)));
      const transmissionNumber = String(Number(last?.number ?? 0) + 1).padStart(7, '0');
      const id = randomUUID();
      const at = now();
      await tx.insert(bankFile).values({ id, direction: 'OUT', kind: 'avtalegiro-claims', dataTransmitter: customerUnitId, transmissionNumber, dataRecipient: '00008080', sha256: '', status: 'WRITING', netsDate: date, createdAt: at });
      // Withdrawn while the bank still lets go: settled another way (credited, paid by card) or no
      // longer on AvtaleGiro. Part-paid in the netbank since, the claim would draw too much: it is
      // withdrawn only while tomorrow's run can still claim the rest in time (a cancellation and a
      // new claim of one KID and due date are never in one file); later, the bank draws the claim
      // and the excess is an over-payment on the reconciliation list, refunded by a person.
      await tx.execute(sql`
        update ${avtaleGiroClaim} c set cancelled_in = ${id}
        from ${invoice} i, ${subscription} s
        where c.aria_invoice_no = i.aria_invoice_no and s.id = i.subscription_id
          and c.cancelled_in is null and c.due_on >= ${addDays(date, CANCEL_MIN_LEAD_DAYS)}
          and ((i.paid_at is not null and coalesce(i.settled_by, '') <> 'AVTALEGIRO')
            or s.payment_method <> 'AVTALEGIRO'
            or (i.paid_at is null and c.due_on >= ${addDays(date, CLAIM_MIN_LEAD_DAYS + 1)} and c.amount_ore <> i.amount_ore - ${settledOreOf(sql`i.aria_invoice_no`)}))`);
      // The claims, in batches of invoices so that no statement runs long (a million is 50 of them):
      // what is still open of each unpaid invoice due inside the bank's window, on the mandate's KID,
      // unless a claim is out already or was withdrawn in this very file.
      for (let after = 0; ; ) {
        const [batch] = ((await tx.execute(sql`
          with candidate as (
            select i.aria_invoice_no, pa.provider_agreement_id as kid, i.amount_ore - ${settledOreOf(sql`i.aria_invoice_no`)} as open_ore, i.due_on
            from ${invoice} i
            join ${subscription} s on s.id = i.subscription_id and s.payment_method = 'AVTALEGIRO'
            join ${paymentAgreement} pa on pa.subscription_id = s.id and pa.method = 'AVTALEGIRO' and pa.status = 'ACTIVE' and pa.provider_agreement_id is not null
            where i.aria_invoice_no > ${after} and i.paid_at is null and i.amount_ore > 0
              and i.due_on between ${addDays(date, CLAIM_MIN_LEAD_DAYS)} and ${addDays(date, CLAIM_MAX_LEAD_DAYS)}
              and not exists (select 1 from ${avtaleGiroClaim} c where c.aria_invoice_no = i.aria_invoice_no and (c.cancelled_in is null or c.cancelled_in = ${id}))
            order by i.aria_invoice_no
            limit ${DECIDE_BATCH}
          ), claimed as (
            insert into ${avtaleGiroClaim} (aria_invoice_no, bank_file_id, kid, amount_ore, due_on, created_at)
            select aria_invoice_no, ${id}, kid, open_ore, due_on, ${at} from candidate where open_ore > 0
            on conflict do nothing
          )
          select count(*)::int as chosen, max(aria_invoice_no) as last from candidate`)) as unknown as { rows: { chosen: number; last: string | number | null }[] }).rows;
        if (!batch || batch.chosen < DECIDE_BATCH) break;
        after = Number(batch.last);
      }
      const [totals] = await tx
        .select({ count: sql<string>`count(*)`, amount: sql<string>`coalesce(sum(${avtaleGiroClaim.amountOre}), 0)` })
        .from(avtaleGiroClaim)
        .where(or(eq(avtaleGiroClaim.bankFileId, id), eq(avtaleGiroClaim.cancelledIn, id)));
      if (Number(totals?.count ?? 0) === 0) {
        // Nothing due and nothing withdrawn: no transmission that day (the bank takes none without an assignment).
        await tx.delete(bankFile).where(eq(bankFile.id, id));
        return null;
      }
      const [row] = await tx.update(bankFile).set({ transactions: Number(totals?.count ?? 0), amountOre: Number(totals?.amount ?? 0) }).where(eq(bankFile.id, id)).returning();
      if (!row) throw new Error('bank_file row vanished');
      return row;
    });
  }

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
          bankNotice: sql<boolean | null>`(select pa.bank_notice from ${paymentAgreement} pa where pa.method = 'AVTALEGIRO' and pa.provider_agreement_id = ${avtaleGiroClaim.kid} order by pa.created_at desc limit 1)`,
        })
        .from(avtaleGiroClaim)
        .innerJoin(invoice, eq(invoice.ariaInvoiceNo, avtaleGiroClaim.ariaInvoiceNo))
        .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
        .leftJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
        .leftJoin(appUser, eq(appUser.id, account.userId))
        // The invoice's bound repeats the claim's (the join is on equality) so that a merge join starts at the page, not at the first invoice.
        .where(and(cancelled ? eq(avtaleGiroClaim.cancelledIn, fileId) : eq(avtaleGiroClaim.bankFileId, fileId), eq(subscription.titleCode, titleCode), gt(avtaleGiroClaim.ariaInvoiceNo, after), gt(invoice.ariaInvoiceNo, after)))
        .orderBy(asc(avtaleGiroClaim.ariaInvoiceNo))
        .limit(PAGE);
      yield* page;
      if (page.length < PAGE) return;
      after = page.at(-1)?.no ?? after;
    }
  }

  /** The payer's notice: what the claim is for, in the title's words (at most 42 lines of 80). */
  function noticeOf(row: ClaimRow, titleName: string): string {
    return [
      `${titleName}`,
      `Faktura ${row.no}: ${row.description}`,
      `Beløp ${formatKroner(row.amountOre, { withOre: true })} trekkes med AvtaleGiro ${formatShortDate(row.dueOn)}.`,
    ]
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
    await db.update(bankFile).set({ status: 'WRITTEN', sha256: written.sha256, fileName, completedAt: now() }).where(and(eq(bankFile.id, file.id), eq(bankFile.status, 'WRITING')));
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
