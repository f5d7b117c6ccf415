import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { osloToday } from '@minside/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../../db/client.ts';
import { billingDocument, invoice } from '../../../db/schema.ts';
import type { BillingDocumentContent, BillingDocumentKind } from './content.ts';
import { renderDocumentPdf } from './pdf.ts';
import { invoiceContent } from './invoice-content.ts';

/**
 * Issuing invoices and credit notes as documents (issue 23). An invoice's document is written in
 * the transaction that creates the invoice, with the parties as they are that moment; a credit note
 * in the transaction that credits. Nothing here changes a document once written: the PDF is
 * rendered from the frozen content the first time it is asked for and stored.
 */

type Reader = Pick<Db, 'select'>;

/**
 * Writes the invoice's document, once: a second call (a retried job) leaves the first. Invoices from
 * before documents existed get theirs the first time they are asked for, with the parties of then.
 */
export async function issueInvoiceDocument(tx: Tx, catalogue: Catalogue, ariaInvoiceNo: number, at: Date): Promise<void> {
  await insertInvoiceDocuments(tx, [await invoiceContent(tx, catalogue, ariaInvoiceNo)], at);
}

/** Writes invoices' documents from their content (a retried job leaves those written before): one, or a renewal run's page. */
export async function insertInvoiceDocuments(tx: Tx, documents: { content: BillingDocumentContent; titleCode: string; ariaAccountNo: number }[], at: Date): Promise<void> {
  if (documents.length === 0) return;
  await tx
    .insert(billingDocument)
    .values(
      documents.map(({ content, titleCode, ariaAccountNo }) => ({
        number: content.number,
        kind: 'INVOICE',
        ariaInvoiceNo: content.number,
        ariaAccountNo,
        titleCode,
        issuedOn: content.issuedOn,
        amountOre: content.totals.totalOre,
        source: `invoice:${content.number}`,
        content,
        createdAt: at,
      })),
    )
    .onConflictDoNothing();
}

/** Issues the documents the accounts' invoices lack (invoices from before documents), with the parties of now. */
export async function issueMissingInvoiceDocuments(tx: Tx, catalogue: Catalogue, ariaAccountNos: number[], at: Date): Promise<void> {
  if (ariaAccountNos.length === 0) return;
  const missing = await tx
    .select({ ariaInvoiceNo: invoice.ariaInvoiceNo })
    .from(invoice)
    .leftJoin(billingDocument, eq(billingDocument.source, sql`'invoice:' || ${invoice.ariaInvoiceNo}`))
    .where(and(inArray(invoice.ariaAccountNo, ariaAccountNos), isNull(billingDocument.number)));
  for (const { ariaInvoiceNo } of missing) await issueInvoiceDocument(tx, catalogue, ariaInvoiceNo, at);
}

export interface CreditNoteInput {
  ariaInvoiceNo: number;
  amountOre: number;
  /** Shown on the document: "Reklamasjon på levering", "Abonnementet er avsluttet" … */
  reason: string;
  /** What happens to the money, as a sentence on the document. */
  settlement: string;
  /** What issues it, unique: a retried refund issues one credit note (`refund:{paymentId}` …). */
  source: string;
  at: Date;
}

/**
 * Issues a credit note for part or all of an invoice, numbered in the invoices' own series (the
 * invoice number sequence), referring to the invoice. Returns its number; the existing one's when
 * `source` was already credited.
 */
export async function issueCreditNote(tx: Tx, catalogue: Catalogue, input: CreditNoteInput): Promise<number> {
  const [existing] = await tx.select({ number: billingDocument.number }).from(billingDocument).where(eq(billingDocument.source, input.source));
  if (existing) return existing.number;
  const invoiceDocument = await ensureInvoiceDocument(tx, catalogue, input.ariaInvoiceNo, input.at);
  const credited = invoiceDocument.content;
  const { rows } = (await tx.execute(sql`select nextval(pg_get_serial_sequence('invoice', 'aria_invoice_no')) as number`)) as unknown as { rows: { number: string }[] };
  const number = Number(rows[0]?.number);
  const line = credited.lines[0];
  const content: BillingDocumentContent = {
    kind: 'CREDIT_NOTE',
    number,
    issuedOn: osloToday(input.at),
    dueOn: null,
    currency: 'NOK',
    seller: credited.seller,
    buyer: credited.buyer,
    lines: [
      {
        description: `Kreditering av faktura ${credited.number}: ${line?.description ?? ''}`,
        periodFrom: line?.periodFrom ?? credited.issuedOn,
        periodTo: line?.periodTo ?? credited.issuedOn,
        amountOre: input.amountOre,
        vatRatePercent: 0,
        zeroRateBasis: line?.zeroRateBasis ?? 'PRINTED_NEWSPAPER',
      },
    ],
    totals: { netOre: input.amountOre, vatOre: 0, totalOre: input.amountOre },
    payment: null,
    credits: { invoiceNumber: credited.number, invoiceIssuedOn: credited.issuedOn, reason: input.reason, settlement: input.settlement },
  };
  const [inserted] = await tx
    .insert(billingDocument)
    .values({
      number,
      kind: 'CREDIT_NOTE',
      ariaInvoiceNo: input.ariaInvoiceNo,
      ariaAccountNo: invoiceDocument.ariaAccountNo,
      titleCode: invoiceDocument.titleCode,
      issuedOn: content.issuedOn,
      amountOre: input.amountOre,
      source: input.source,
      content,
      createdAt: input.at,
    })
    // The same credit asked twice at once (two operators): the first one's note stands, the second gets its number.
    .onConflictDoNothing({ target: billingDocument.source })
    .returning({ number: billingDocument.number });
  if (inserted) return inserted.number;
  const [first] = await tx.select({ number: billingDocument.number }).from(billingDocument).where(eq(billingDocument.source, input.source));
  if (!first) throw new Error(`credit note ${input.source} neither inserted nor found`);
  return first.number;
}

interface StoredDocument {
  number: number;
  kind: BillingDocumentKind;
  ariaAccountNo: number;
  titleCode: string;
  content: BillingDocumentContent;
}

/** The invoice's document, issued now if it has none yet (an invoice from before documents). */
async function ensureInvoiceDocument(tx: Tx, catalogue: Catalogue, ariaInvoiceNo: number, at: Date): Promise<StoredDocument> {
  const read = () =>
    tx
      .select({ number: billingDocument.number, kind: billingDocument.kind, ariaAccountNo: billingDocument.ariaAccountNo, titleCode: billingDocument.titleCode, content: billingDocument.content })
      .from(billingDocument)
      .where(eq(billingDocument.source, `invoice:${ariaInvoiceNo}`));
  let [found] = await read();
  if (!found) {
    await issueInvoiceDocument(tx, catalogue, ariaInvoiceNo, at);
    [found] = await read();
  }
  if (!found) throw new Error(`invoice ${ariaInvoiceNo} has no document`);
  return { ...found, kind: found.kind as BillingDocumentKind, content: found.content as BillingDocumentContent };
}

/**
 * The PDF of a stored document: its stored bytes, or — until the `billing-documents` job has stored
 * them — rendered from the frozen content, which gives the very bytes the job will store (the
 * rendering is deterministic). A read never writes: a GET changes nothing.
 */
export async function documentPdf(db: Reader, number: number): Promise<Buffer> {
  const [row] = await db.select({ pdf: billingDocument.pdf, content: billingDocument.content }).from(billingDocument).where(eq(billingDocument.number, number));
  if (!row) throw new Error(`document ${number} not found`);
  return row.pdf ? Buffer.from(row.pdf) : renderDocumentPdf(row.content as BillingDocumentContent);
}

/**
 * The invoice's PDF: its document's, or for an invoice from before documents (not yet given one by
 * the job) the document it will get, rendered without storing.
 */
export async function invoicePdf(db: Reader, catalogue: Catalogue, ariaInvoiceNo: number): Promise<Buffer> {
  const [stored] = await db
    .select({ number: billingDocument.number })
    .from(billingDocument)
    .where(eq(billingDocument.source, `invoice:${ariaInvoiceNo}`));
  if (stored) return documentPdf(db, stored.number);
  return renderDocumentPdf((await invoiceContent(db, catalogue, ariaInvoiceNo)).content);
}

/**
 * The `billing-documents` job: gives invoices from before documents theirs (with the parties of
 * now), then renders and stores the PDFs not stored yet, with their SHA-256. Batches keep one run
 * short. One document that cannot be made (its title gone from the catalogue) is logged and
 * skipped, never stalls the rest. New invoices always get their document when issued, so once a
 * run finds no invoice without one, this process stops looking (it looks again after a restart).
 */
export function createDocumentCompletion({ db, catalogue, now, log, batch = 200 }: { db: Db; catalogue: Catalogue; now: () => Date; log: FastifyBaseLogger; batch?: number }) {
  let backfilled = false;
  return async function complete(): Promise<{ issued: number; stored: number; failed: number }> {
    let issued = 0;
    let failed = 0;
    if (!backfilled) {
      const missing = await db
        .select({ ariaInvoiceNo: invoice.ariaInvoiceNo })
        .from(invoice)
        .where(sql`not exists (select 1 from ${billingDocument} d where d.aria_invoice_no = ${invoice.ariaInvoiceNo} and d.kind = 'INVOICE')`)
        .orderBy(invoice.ariaInvoiceNo)
        .limit(batch);
      for (const { ariaInvoiceNo } of missing) {
        try {
          await db.transaction((tx) => issueInvoiceDocument(tx, catalogue, ariaInvoiceNo, now()));
          issued += 1;
        } catch (error) {
          failed += 1;
          log.error({ err: error, ariaInvoiceNo }, 'could not issue the document of an older invoice; skipped');
        }
      }
      backfilled = missing.length < batch && failed === 0;
    }
    const unrendered = await db
      .select({ number: billingDocument.number, content: billingDocument.content })
      .from(billingDocument)
      .where(isNull(billingDocument.pdf))
      .orderBy(billingDocument.number)
      .limit(batch);
    let stored = 0;
    for (const document of unrendered) {
      try {
        const pdf = await renderDocumentPdf(document.content as BillingDocumentContent);
        await db
          .update(billingDocument)
          .set({ pdf, pdfSha256: createHash('sha256').update(pdf).digest('hex') })
          .where(and(eq(billingDocument.number, document.number), isNull(billingDocument.pdf)));
        stored += 1;
      } catch (error) {
        failed += 1;
        log.error({ err: error, number: document.number }, 'could not render a document; skipped');
      }
    }
    return { issued, stored, failed };
  };
}

export interface DocumentSummary {
  number: number;
  kind: BillingDocumentKind;
  ariaInvoiceNo: number;
  issuedOn: string;
  amountOre: number;
}

/** An account's credit notes, newest first (invoices are listed by the invoice list). */
export async function creditNotesOf(db: Reader, ariaAccountNo: number): Promise<DocumentSummary[]> {
  const rows = await db
    .select({ number: billingDocument.number, kind: billingDocument.kind, ariaInvoiceNo: billingDocument.ariaInvoiceNo, issuedOn: billingDocument.issuedOn, amountOre: billingDocument.amountOre })
    .from(billingDocument)
    .where(and(eq(billingDocument.ariaAccountNo, ariaAccountNo), eq(billingDocument.kind, 'CREDIT_NOTE')))
    .orderBy(desc(billingDocument.issuedOn), desc(billingDocument.number));
  return rows.map((row) => ({ ...row, kind: row.kind as BillingDocumentKind }));
}
