import { and, eq } from 'drizzle-orm';
import { billingErrorCodes, billingErrorMessages, osloToday, type CreateInvoicePaymentBody, type Payment, type PaymentRedirect, type PaylinkDetails } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, invoice } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { PaymentEngine } from './engine.ts';
import { toPaymentDto, type PaymentRow } from './payment-record.ts';
import { createPaylinkToken, PAYLINK_DEFAULT_DAYS, verifyPaylinkToken } from './paylink.ts';
import { fixedAvtaleGiroDraw } from './claim-window.ts';
import { paidSoFar } from './paid-so-far.ts';
import { openOreOf, toInvoiceDto, type InvoiceMoney, type InvoiceRow } from './invoice-view.ts';
import type { Invoices } from './invoices.ts';

// Paying an invoice (issue 6): by the owner on Min Side or by anyone holding its pay-link, through the
// payment engine under the invoice's lock (not paid, not empty, not the bank's to draw, not being
// charged, the amount still the one asked for); the pay-links themselves; and a payment's status for
// its return page. Apart from the service because it is the one part of it that starts money moving.

export function createInvoicePayment(deps: { db: Db; engine: PaymentEngine; catalogue: Catalogue; now: () => Date; paylinkSecret: string; invoices: Pick<Invoices, 'ownInvoice' | 'anyInvoice'> }) {
  const { db, engine, catalogue, now, paylinkSecret } = deps;
  const { ownInvoice, anyInvoice } = deps.invoices;
  const today = () => osloToday(now());

  /**
   * Locks the invoice, refuses a paid or empty one and one the bank will draw with AvtaleGiro,
   * and hands back the attempts this one replaces.
   */
  function invoiceGuard(ariaInvoiceNo: number, openOre: number) {
    return async (tx: Tx): Promise<PaymentRow[]> => {
      const [locked] = await tx.select().from(invoice).where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo)).for('update');
      if (!locked) throw notFound();
      if (locked.paidAt) throw new AppError(409, billingErrorCodes.invoiceAlreadyPaid, billingErrorMessages.invoiceAlreadyPaid);
      if (locked.amountOre <= 0) throw new AppError(409, billingErrorCodes.invoiceNotPayable, billingErrorMessages.invoiceNotPayable);
      if (await fixedAvtaleGiroDraw(tx, ariaInvoiceNo, today())) throw new AppError(409, billingErrorCodes.invoiceDrawnByAvtaleGiro, billingErrorMessages.invoiceDrawnByAvtaleGiro);
      // A renewal charge on the stored card or Vipps agreement is under way (a Vipps charge waits days for its due date): paying now would pay twice.
      if ((await engine.openForInvoice(tx, ariaInvoiceNo)).some((open) => open.purpose === 'RENEWAL'))
        throw new AppError(409, billingErrorCodes.invoiceBeingCharged, billingErrorMessages.invoiceBeingCharged);
      // What is open, under the invoice's lock: a part-payment imported since this request read it changes the amount to ask for.
      const open = locked.amountOre - (await paidSoFar(tx, ariaInvoiceNo));
      if (open <= 0) throw new AppError(409, billingErrorCodes.invoiceNotPayable, billingErrorMessages.invoiceNotPayable);
      if (open !== openOre) throw new AppError(409, billingErrorCodes.invoiceAmountChanged, billingErrorMessages.invoiceAmountChanged);
      return engine.pendingForInvoice(tx, ariaInvoiceNo);
    };
  }

  function payInvoice(found: { row: InvoiceRow; titleCode: string } & InvoiceMoney, body: CreateInvoicePaymentBody, scope: { userId: string } | { paylinkToken: string }): Promise<PaymentRedirect> {
    const { row, titleCode } = found;
    if (row.paidAt) throw new AppError(409, billingErrorCodes.invoiceAlreadyPaid, billingErrorMessages.invoiceAlreadyPaid);
    const title = catalogue.findByTitleCode(titleCode);
    const byLink = 'paylinkToken' in scope;
    // What is still open: a part-payment in the netbank is not asked for again.
    const openOre = openOreOf(row, found);
    return engine.start(
      {
        idempotencyKey: byLink ? `paylink:${row.ariaInvoiceNo}:${body.idempotencyKey}` : `user:${scope.userId}:${body.idempotencyKey}`,
        purpose: 'INVOICE',
        method: body.method,
        amountOre: openOre,
        userId: byLink ? null : scope.userId,
        ariaAccountNo: row.ariaAccountNo,
        subscriptionId: row.subscriptionId,
        ariaInvoiceNo: row.ariaInvoiceNo,
        description: `Faktura ${row.ariaInvoiceNo}${title ? ` – ${title.name}` : ''}`,
        returnPath: byLink ? `/betaling?token=${encodeURIComponent(scope.paylinkToken)}&paymentId={paymentId}` : `/betal-faktura/${row.ariaInvoiceNo}?paymentId={paymentId}`,
        titleCode,
      },
      invoiceGuard(row.ariaInvoiceNo, openOre),
    );
  }

  function checkPaylink(token: string): { ariaInvoiceNo: number; expiresAt: Date } {
    const checked = verifyPaylinkToken(paylinkSecret, token, now());
    if (!checked.ok) {
      if (checked.reason === 'expired') throw new AppError(410, billingErrorCodes.paylinkExpired, billingErrorMessages.paylinkExpired);
      throw new AppError(404, billingErrorCodes.paylinkInvalid, billingErrorMessages.paylinkInvalid);
    }
    return checked;
  }

  /** POST /api/invoice/{ariaInvoiceNo}/payment. */
  async function payOwnInvoice(userId: string, ariaInvoiceNo: number, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
    return payInvoice(await ownInvoice(userId, ariaInvoiceNo), body, { userId });
  }

  /** GET /api/payment/{paymentId}: the owner's, or one of the pay-link's invoice with its token. */
  async function getPayment(paymentId: string, viewer: { userId: string | null; token: string | undefined }): Promise<Payment> {
    const row = await engine.load(paymentId);
    if (!row) throw notFound();
    let allowed = false;
    if (viewer.userId) {
      if (row.userId === viewer.userId) allowed = true;
      else if (row.ariaAccountNo !== null) {
        const [owned] = await db
          .select({ no: account.ariaAccountNo })
          .from(account)
          .where(and(eq(account.ariaAccountNo, row.ariaAccountNo), eq(account.userId, viewer.userId)));
        allowed = Boolean(owned);
      }
    }
    if (!allowed && viewer.token) {
      const checked = verifyPaylinkToken(paylinkSecret, viewer.token, now());
      allowed = checked.ok && checked.ariaInvoiceNo === row.ariaInvoiceNo;
    }
    if (!allowed) throw notFound();
    return toPaymentDto(await engine.refresh(row));
  }

  /** A pay-link's path for an invoice known to exist; pure (usable inside a transaction). */
  function paylinkPath(ariaInvoiceNo: number, validDays = PAYLINK_DEFAULT_DAYS): { token: string; path: string; expiresAt: string } {
    const expiresAt = new Date(now().getTime() + validDays * 24 * 60 * 60 * 1000);
    const token = createPaylinkToken(paylinkSecret, ariaInvoiceNo, expiresAt);
    return { token, path: `/betaling?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
  }

  /** A pay-link for one invoice (invoice e-mails, the operator endpoint, the CLI). */
  async function createPaylink(ariaInvoiceNo: number, validDays = PAYLINK_DEFAULT_DAYS): Promise<{ token: string; path: string; expiresAt: string; titleCode: string }> {
    const found = await anyInvoice(ariaInvoiceNo);
    if (!found) throw notFound();
    const expiresAt = new Date(now().getTime() + validDays * 24 * 60 * 60 * 1000);
    const token = createPaylinkToken(paylinkSecret, ariaInvoiceNo, expiresAt);
    return { token, path: `/betaling?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString(), titleCode: found.titleCode };
  }

  /** GET /api/paylink/{token}. */
  async function paylinkDetails(token: string): Promise<PaylinkDetails> {
    const checked = checkPaylink(token);
    const found = await anyInvoice(checked.ariaInvoiceNo);
    if (!found) throw new AppError(404, billingErrorCodes.paylinkInvalid, billingErrorMessages.paylinkInvalid);
    const dto = toInvoiceDto(found.row, found.titleCode, today(), found);
    return {
      ariaInvoiceNo: dto.ariaInvoiceNo,
      titleCode: dto.titleCode,
      kid: dto.kid,
      amountOre: dto.amountOre,
      description: dto.description,
      dueOn: dto.dueOn,
      status: dto.status,
      payable: dto.payable,
      paidOre: dto.paidOre,
      creditedOre: dto.creditedOre,
      openOre: dto.openOre,
      avtaleGiroDrawOn: dto.avtaleGiroDrawOn,
      avtaleGiroDrawOre: dto.avtaleGiroDrawOre,
      expiresAt: checked.expiresAt.toISOString(),
    };
  }

  /** POST /api/paylink/{token}/payment. */
  async function payByLink(token: string, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
    const checked = checkPaylink(token);
    const found = await anyInvoice(checked.ariaInvoiceNo);
    if (!found) throw new AppError(404, billingErrorCodes.paylinkInvalid, billingErrorMessages.paylinkInvalid);
    return payInvoice(found, body, { paylinkToken: token });
  }

  return { payOwnInvoice, getPayment, paylinkPath, createPaylink, paylinkDetails, payByLink };
}
