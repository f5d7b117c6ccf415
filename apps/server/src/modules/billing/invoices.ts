import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { osloToday, type CreditNote, type Invoice, type InvoiceListResponse, type Subscription } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import { account, billingDocument, invoice, payment, subscription } from '../../db/schema.ts';
import { notFound } from '../../plugins/errors.ts';
import type { AccountService } from '../subscription/index.ts';
import { creditNotesOf, documentPdf, invoicePdf } from './documents/issue.ts';
import { invoiceMoney, toInvoiceDto, type InvoiceMoney, type InvoiceRow } from './invoice-view.ts';

// Reading invoices (issue 6): the owner's invoice list in keyset pages, an invoice or credit note
// as its PDF, the credit notes, and the home page's open invoices; with the look-ups of one invoice
// (the caller's own, or any, for a pay-link) that paying one starts from (invoice-payment.ts).

/** The home page shows the few earliest unpaid invoices; more is the invoice list's work. */
const HOME_OPEN_INVOICES_MAX = 5;

export function createInvoices(deps: { db: Db; accounts: AccountService; catalogue: Catalogue; now: () => Date }) {
  const { db, accounts, catalogue, now } = deps;
  const today = () => osloToday(now());

  /** The invoice with its title, if it belongs to the user (another user's is "not found"). */
  async function ownInvoice(userId: string, ariaInvoiceNo: number): Promise<{ row: InvoiceRow; titleCode: string } & InvoiceMoney> {
    const [found] = await db
      .select({ row: invoice, titleCode: sql<string>`coalesce(${subscription.titleCode}, ${account.firstTitleCode})`, ...invoiceMoney(today()) })
      .from(invoice)
      .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
      .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .where(and(eq(invoice.ariaInvoiceNo, ariaInvoiceNo), eq(account.userId, userId)));
    if (!found) throw notFound();
    return found;
  }

  async function anyInvoice(ariaInvoiceNo: number) {
    const [found] = await db
      .select({ row: invoice, titleCode: sql<string>`coalesce(${subscription.titleCode}, ${account.firstTitleCode})`, ...invoiceMoney(today()) })
      .from(invoice)
      .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
      .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
    return found;
  }

  /** GET /api/invoice/{accountNo}: newest first (by period, then number), keyset pages. */
  async function listInvoices(userId: string, ariaAccountNo: number, query: { limit?: number | undefined; before?: number | undefined }, pageMax: number): Promise<InvoiceListResponse> {
    const limit = query.limit ?? pageMax;
    let cursor: { periodFrom: string; ariaInvoiceNo: number } | undefined;
    if (query.before !== undefined) {
      const [at] = await db
        .select({ periodFrom: invoice.periodFrom, ariaInvoiceNo: invoice.ariaInvoiceNo })
        .from(invoice)
        .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
        .where(and(eq(invoice.ariaInvoiceNo, query.before), eq(invoice.ariaAccountNo, ariaAccountNo), eq(account.userId, userId)));
      if (!at) throw notFound();
      cursor = at;
    }
    // One query checks ownership and reads the page (the list is the hot path; see docs/performance.md).
    const rows = await db
      .select({ row: invoice, titleCode: sql<string>`coalesce(${subscription.titleCode}, ${account.firstTitleCode})`, ...invoiceMoney(today()) })
      .from(invoice)
      .innerJoin(account, and(eq(account.ariaAccountNo, invoice.ariaAccountNo), eq(account.userId, userId)))
      .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .where(
        and(
          eq(invoice.ariaAccountNo, ariaAccountNo),
          cursor ? or(lt(invoice.periodFrom, cursor.periodFrom), and(eq(invoice.periodFrom, cursor.periodFrom), lt(invoice.ariaInvoiceNo, cursor.ariaInvoiceNo))) : undefined,
        ),
      )
      .orderBy(desc(invoice.periodFrom), desc(invoice.ariaInvoiceNo))
      .limit(limit + 1);
    // No rows: an empty list of one's own account, or someone else's account (404).
    if (rows.length === 0) await accounts.getOwnAccount(userId, ariaAccountNo);
    const day = today();
    const page = rows.slice(0, limit);
    return {
      invoices: page.map(({ row, titleCode, ...money }) => toInvoiceDto(row, titleCode, day, money)),
      nextBefore: rows.length > limit ? (page.at(-1)?.row.ariaInvoiceNo ?? null) : null,
    };
  }

  /**
   * GET /api/invoice/{accountNo}/{ariaInvoiceNo}/pdf: the invoice as issued (issue 23). The same bytes
   * on every download: the document is frozen when the invoice is issued and its PDF stored by the job.
   */
  async function ownInvoicePdf(userId: string, ariaAccountNo: number, ariaInvoiceNo: number): Promise<{ filename: string; pdf: Buffer }> {
    await accounts.getOwnAccount(userId, ariaAccountNo);
    const { row } = await ownInvoice(userId, ariaInvoiceNo);
    if (row.ariaAccountNo !== ariaAccountNo) throw notFound();
    return { filename: `faktura-${ariaInvoiceNo}.pdf`, pdf: await invoicePdf(db, catalogue, ariaInvoiceNo) };
  }

  /** GET /api/invoice/{accountNo}/credit-notes: the account's credit notes, newest first. */
  async function listCreditNotes(userId: string, ariaAccountNo: number): Promise<CreditNote[]> {
    await accounts.getOwnAccount(userId, ariaAccountNo);
    return (await creditNotesOf(db, ariaAccountNo)).map(({ number, ariaInvoiceNo, issuedOn, amountOre }) => ({ number, ariaInvoiceNo, issuedOn, amountOre }));
  }

  /** GET /api/invoice/{accountNo}/credit-notes/{number}/pdf. */
  async function creditNotePdf(userId: string, ariaAccountNo: number, number: number): Promise<{ filename: string; pdf: Buffer }> {
    await accounts.getOwnAccount(userId, ariaAccountNo);
    const [found] = await db
      .select({ number: billingDocument.number })
      .from(billingDocument)
      .where(and(eq(billingDocument.number, number), eq(billingDocument.ariaAccountNo, ariaAccountNo), eq(billingDocument.kind, 'CREDIT_NOTE')));
    if (!found) throw notFound();
    return { filename: `kreditnota-${number}.pdf`, pdf: await documentPdf(db, number) };
  }

  /**
   * The home page's money facts (issue 25.10) for a subscription already known to be the
   * caller's: its account's unpaid invoices at the title, and those whose last charge (a
   * renewal's, or the subscriber's own attempt) failed. Two queries, whatever the count.
   */
  async function openInvoicesOf(sub: Subscription): Promise<{ openInvoices: Invoice[]; failedChargeInvoiceNos: number[] }> {
    const day = today();
    const rows = await db
      .select({ row: invoice, ...invoiceMoney(day) })
      .from(invoice)
      .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .where(and(eq(invoice.ariaAccountNo, sub.ariaAccountNo), isNull(invoice.paidAt), or(eq(subscription.titleCode, sub.titleCode), isNull(invoice.subscriptionId))))
      .orderBy(asc(invoice.dueOn), asc(invoice.ariaInvoiceNo))
      .limit(HOME_OPEN_INVOICES_MAX);
    const openInvoices = rows.map(({ row, ...money }) => toInvoiceDto(row, sub.titleCode, day, money)).filter((dto) => dto.openOre > 0);
    if (openInvoices.length === 0) return { openInvoices, failedChargeInvoiceNos: [] };
    // The newest payment of each invoice decides: a failed draw followed by a pending own payment is no longer "failed".
    const latest = await db
      .selectDistinctOn([payment.ariaInvoiceNo], { ariaInvoiceNo: payment.ariaInvoiceNo, status: payment.status })
      .from(payment)
      .where(
        inArray(
          payment.ariaInvoiceNo,
          openInvoices.map((dto) => dto.ariaInvoiceNo),
        ),
      )
      .orderBy(payment.ariaInvoiceNo, desc(payment.createdAt));
    const failedChargeInvoiceNos = latest.flatMap((row) => (row.status === 'FAILED' && row.ariaInvoiceNo !== null ? [row.ariaInvoiceNo] : []));
    return { openInvoices, failedChargeInvoiceNos };
  }

  return { ownInvoice, anyInvoice, listInvoices, invoicePdf: ownInvoicePdf, listCreditNotes, creditNotePdf, openInvoicesOf };
}

export type Invoices = ReturnType<typeof createInvoices>;
