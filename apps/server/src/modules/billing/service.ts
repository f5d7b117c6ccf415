import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import {
  billingErrorCodes,
  billingErrorMessages,
  type CreditNote,
  billingPeriodMonths,
  changeablePaymentMethods,
  type BillingPeriod,
  formatNorwegianAccountNumber,
  osloToday,
  paymentProviderLabels,
  tasksFor,
  type AddDiscountBody,
  type ChangeCardBody,
  type ChangePaymentMethodBody,
  type ChangePaymentMethodResponse,
  type CreateInvoicePaymentBody,
  type Discount,
  type Invoice,
  type InvoiceListResponse,
  type InvoiceSettlement,
  type Payment,
  type PaymentMethod,
  type PaymentMethodDetails,
  type PaymentRedirect,
  type PaylinkDetails,
  type Subscription,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { account, billingDocument, discountCode, invoice, payment, paymentAgreement, subscription, subscriptionDiscount } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../plugins/errors.ts';
import type { AccountService, ChangeMails } from '../subscription/index.ts';
import type { PaymentEngine } from './engine.ts';
import { toPaymentDto, type PaymentRow } from './payment-record.ts';
import { createPaylinkToken, PAYLINK_DEFAULT_DAYS, verifyPaylinkToken } from './paylink.ts';
import { creditNotesOf, documentPdf, invoicePdf } from './documents/issue.ts';
import { chooseAvtaleGiro } from './avtalegiro-mandate.ts';
import { claimStillInTime, drawIsFixed, failedDrawColumn, fixedAvtaleGiroDraw, liveClaimColumn, onActiveMandateColumn } from './claim-window.ts';
import { creditedOreColumn, paidOreColumn, paidSoFar } from './paid-so-far.ts';

type InvoiceRow = typeof invoice.$inferSelect;
type AgreementRow = typeof paymentAgreement.$inferSelect;

/** The subscription row serialises changes of its payment method (the engine's storeAgreement takes it too). */
async function lockSubscription(tx: Tx, subscriptionId: string): Promise<void> {
  await tx.select({ id: subscription.id }).from(subscription).where(eq(subscription.id, subscriptionId)).for('update');
}

export interface BillingServiceDeps {
  db: Db;
  engine: PaymentEngine;
  accounts: AccountService;
  catalogue: Catalogue;
  now: () => Date;
  paylinkSecret: string;
  /** Whether the payment provider keeps cards (PaymentProvider.storesCards): without, no subscription is put on a stored card. */
  providerStoresCards: boolean;
  /** The subscriber's confirmation of a new way to pay, queued with the change (issue 25.7). */
  mails: ChangeMails;
}

const methodLabels: Record<PaymentMethod, string> = {
  CARD: paymentProviderLabels['SWEDBANK-PPG'],
  VIPPS: paymentProviderLabels.VIPPS,
  AVTALEGIRO: paymentProviderLabels.AVTALEGIRO,
  INVOICE: paymentProviderLabels.BANKGIRO,
  NONE: 'Ingen',
};
const providerCodeOf: Record<PaymentMethod, PaymentMethodDetails['providerCode']> = {
  CARD: 'SWEDBANK-PPG',
  VIPPS: 'VIPPS',
  AVTALEGIRO: 'AVTALEGIRO',
  INVOICE: 'BANKGIRO',
  NONE: null,
};

function maskedCardNumber(last4: string): string {
  return `**** **** **** ${last4}`;
}

function invoiceStatus(row: Pick<InvoiceRow, 'paidAt' | 'dueOn'>, today: string): Invoice['status'] {
  if (row.paidAt) return 'PAID';
  return row.dueOn < today ? 'OVERDUE' : 'UNPAID';
}

/** What the bank and the providers have said of an invoice's money, read with it (invoiceMoney). */
export interface InvoiceMoney {
  paidOre: number;
  /** Credit notes set off against it. */
  creditedOre: number;
  /**
   * Its AvtaleGiro claim at the bank while the bank may draw it: the due date, and what it draws
   * (more than is open when a part-payment came too late to withdraw it).
   */
  claim: { dueOn: string; ore: number } | null;
  /** The bank's draw failed: not drawn in the days a draw can take, or taken back (claim-window.ts). */
  drawFailed: boolean;
  /** The subscription pays by AvtaleGiro on a mandate the bank has confirmed. */
  onActiveMandate: boolean;
}

/** The columns of InvoiceMoney as of `today`, for any query of invoices. */
function invoiceMoney(today: string) {
  return { paidOre: paidOreColumn, creditedOre: creditedOreColumn, claim: liveClaimColumn(today), drawFailed: failedDrawColumn(today), onActiveMandate: onActiveMandateColumn };
}

/**
 * How the invoice gets paid (issue 25.6), from what the bank has said: a live claim is the bank's
 * to draw (waiting for its answer once the day has passed); a failed draw gives it back to the
 * payer; an unclaimed invoice on a confirmed mandate is the bank's while a claim still reaches it in time.
 */
function collectionOf(row: Pick<InvoiceRow, 'dueOn'>, status: Invoice['status'], money: Pick<InvoiceMoney, 'claim' | 'drawFailed' | 'onActiveMandate'>, today: string): { collection: Invoice['collection']; scheduledDrawOn: string | null } {
  if (status === 'PAID') return { collection: 'PAID', scheduledDrawOn: null };
  if (money.claim) return { collection: money.claim.dueOn < today ? 'AVTALEGIRO_AWAITING_BANK' : 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: money.claim.dueOn };
  if (money.drawFailed) return { collection: 'AVTALEGIRO_FAILED', scheduledDrawOn: null };
  if (money.onActiveMandate && claimStillInTime(row.dueOn, today)) return { collection: 'AVTALEGIRO_SCHEDULED', scheduledDrawOn: row.dueOn };
  return { collection: status === 'OVERDUE' ? 'OVERDUE' : 'DUE', scheduledDrawOn: null };
}

/** What is still to pay on an unpaid invoice: its amount less what came in and what credit notes took off. */
function openOreOf(row: Pick<InvoiceRow, 'amountOre'>, money: Pick<InvoiceMoney, 'paidOre' | 'creditedOre'>): number {
  return Math.max(0, row.amountOre - money.creditedOre - money.paidOre);
}

export function toInvoiceDto(row: InvoiceRow, titleCode: string, today: string, money: InvoiceMoney): Invoice {
  const status = invoiceStatus(row, today);
  const openOre = status === 'PAID' ? 0 : openOreOf(row, money);
  // Once the bank's draw can no longer be withdrawn, paying another way would pay twice.
  const drawnByBank = money.claim !== null && status !== 'PAID' && drawIsFixed(money.claim.dueOn, today);
  return {
    ariaInvoiceNo: row.ariaInvoiceNo,
    ariaAccountNo: row.ariaAccountNo,
    titleCode,
    kid: row.kid,
    amountOre: row.amountOre,
    status,
    description: row.description,
    periodFrom: row.periodFrom,
    periodTo: row.periodTo,
    dueOn: row.dueOn,
    bankAccountNumber: row.bankAccountNumber,
    paidAt: row.paidAt?.toISOString() ?? null,
    settledBy: (row.settledBy as InvoiceSettlement | null) ?? null,
    payable: status !== 'PAID' && openOre > 0 && !drawnByBank,
    paidOre: status === 'PAID' ? Math.max(row.amountOre - money.creditedOre, money.paidOre) : money.paidOre,
    creditedOre: money.creditedOre,
    openOre,
    avtaleGiroDrawOn: status === 'PAID' ? null : (money.claim?.dueOn ?? null),
    avtaleGiroDrawOre: status === 'PAID' ? null : (money.claim?.ore ?? null),
    ...collectionOf(row, status, money, today),
  };
}

/** The home page shows the few earliest unpaid invoices; more is the invoice list's work. */
const HOME_OPEN_INVOICES_MAX = 5;

export function createBillingService(deps: BillingServiceDeps) {
  const { db, engine, accounts, catalogue, now, paylinkSecret, providerStoresCards, mails } = deps;
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
      if ((await engine.openForInvoice(tx, ariaInvoiceNo)).some((open) => open.purpose === 'RENEWAL')) throw new AppError(409, billingErrorCodes.invoiceBeingCharged, billingErrorMessages.invoiceBeingCharged);
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
        returnPath: byLink
          ? `/betaling?token=${encodeURIComponent(scope.paylinkToken)}&paymentId={paymentId}`
          : `/betal-faktura/${row.ariaInvoiceNo}?paymentId={paymentId}`,
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

  async function ownSubscription(userId: string, ariaAccountNo: number, titleCode: string): Promise<Subscription> {
    return accounts.getOwnSubscription(userId, ariaAccountNo, titleCode);
  }

  function changeable(sub: Subscription): boolean {
    return tasksFor(sub, today()).includes('paymentMethod');
  }

  function requireChangeable(sub: Subscription): void {
    if (!changeable(sub)) throw new AppError(409, billingErrorCodes.paymentMethodNotChangeable, billingErrorMessages.paymentMethodNotChangeable);
  }

  async function paymentMethodOf(sub: Subscription): Promise<PaymentMethodDetails> {
    const [row] = await db.select({ paymentMethod: subscription.paymentMethod }).from(subscription).where(eq(subscription.id, sub.id));
    const method = (row?.paymentMethod ?? sub.paymentMethod) as PaymentMethod;
    const agreements = await db
      .select()
      .from(paymentAgreement)
      .where(and(eq(paymentAgreement.subscriptionId, sub.id), inArray(paymentAgreement.status, ['ACTIVE', 'PENDING'])))
      .orderBy(desc(paymentAgreement.createdAt));
    const newest = (code: string): AgreementRow | undefined => agreements.find((agreement) => agreement.method === code);
    const card = method === 'CARD' ? newest('SWEDBANK-PPG') : undefined;
    const vipps = method === 'VIPPS' ? newest('VIPPS') : undefined;
    const giro = method === 'AVTALEGIRO' ? newest('AVTALEGIRO') : undefined;
    return {
      ariaAccountNo: sub.ariaAccountNo,
      titleCode: sub.titleCode,
      method,
      providerCode: providerCodeOf[method],
      label: methodLabels[method],
      card:
        card?.cardLast4 && card.cardExpiryMonth && card.cardExpiryYear
          ? { brand: card.cardBrand ?? 'Kort', last4: card.cardLast4, maskedNumber: maskedCardNumber(card.cardLast4), expiryMonth: card.cardExpiryMonth, expiryYear: card.cardExpiryYear }
          : null,
      vippsAgreement: vipps ? { agreementId: vipps.providerAgreementId ?? vipps.id, phoneNumber: vipps.phoneNumber } : null,
      avtaleGiro: giro?.providerAgreementId
        ? {
            kid: giro.providerAgreementId,
            payeeName: catalogue.findByTitleCode(sub.titleCode)?.name ?? sub.titleCode,
            payeeAccountNumber: formatNorwegianAccountNumber(catalogue.findByTitleCode(sub.titleCode)?.bank.avtaleGiroAccount ?? ''),
            status: giro.status === 'ACTIVE' ? 'ACTIVE' : 'PENDING',
          }
        : null,
      changeable: changeable(sub),
      choices: changeablePaymentMethods.filter((choice) => choice !== 'SWEDBANK-PPG' || providerStoresCards),
    };
  }

  function requireOffered(method: string): void {
    if (method === 'SWEDBANK-PPG' && !providerStoresCards) throw new AppError(409, billingErrorCodes.paymentMethodNotOffered, billingErrorMessages.paymentMethodNotOffered);
  }

  function toDiscountDto(row: typeof subscriptionDiscount.$inferSelect, code: typeof discountCode.$inferSelect): Discount {
    return {
      discountCode: code.code,
      description: code.description,
      percentOff: code.percentOff,
      amountOffOre: code.amountOffOre,
      remainingPeriods: row.remainingPeriods,
      addedAt: row.addedAt.toISOString(),
    };
  }

  async function activeDiscount(subscriptionId: string): Promise<Discount | null> {
    const [row] = await db
      .select({ applied: subscriptionDiscount, code: discountCode })
      .from(subscriptionDiscount)
      .innerJoin(discountCode, eq(discountCode.code, subscriptionDiscount.code))
      .where(and(eq(subscriptionDiscount.subscriptionId, subscriptionId), gt(subscriptionDiscount.remainingPeriods, 0)))
      .orderBy(desc(subscriptionDiscount.addedAt))
      .limit(1);
    return row ? toDiscountDto(row.applied, row.code) : null;
  }

  return {
    /** GET /api/invoice/{accountNo}: newest first (by period, then number), keyset pages. */
    async listInvoices(userId: string, ariaAccountNo: number, query: { limit?: number | undefined; before?: number | undefined }, pageMax: number): Promise<InvoiceListResponse> {
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
            cursor
              ? or(lt(invoice.periodFrom, cursor.periodFrom), and(eq(invoice.periodFrom, cursor.periodFrom), lt(invoice.ariaInvoiceNo, cursor.ariaInvoiceNo)))
              : undefined,
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
    },

    /**
     * GET /api/invoice/{accountNo}/{ariaInvoiceNo}/pdf: the invoice as issued (issue 23). The same bytes
     * on every download: the document is frozen when the invoice is issued and its PDF stored by the job.
     */
    async invoicePdf(userId: string, ariaAccountNo: number, ariaInvoiceNo: number): Promise<{ filename: string; pdf: Buffer }> {
      await accounts.getOwnAccount(userId, ariaAccountNo);
      const { row } = await ownInvoice(userId, ariaInvoiceNo);
      if (row.ariaAccountNo !== ariaAccountNo) throw notFound();
      return { filename: `faktura-${ariaInvoiceNo}.pdf`, pdf: await invoicePdf(db, catalogue, ariaInvoiceNo) };
    },

    /** GET /api/invoice/{accountNo}/credit-notes: the account's credit notes, newest first. */
    async listCreditNotes(userId: string, ariaAccountNo: number): Promise<CreditNote[]> {
      await accounts.getOwnAccount(userId, ariaAccountNo);
      return (await creditNotesOf(db, ariaAccountNo)).map(({ number, ariaInvoiceNo, issuedOn, amountOre }) => ({ number, ariaInvoiceNo, issuedOn, amountOre }));
    },

    /** GET /api/invoice/{accountNo}/credit-notes/{number}/pdf. */
    async creditNotePdf(userId: string, ariaAccountNo: number, number: number): Promise<{ filename: string; pdf: Buffer }> {
      await accounts.getOwnAccount(userId, ariaAccountNo);
      const [found] = await db
        .select({ number: billingDocument.number })
        .from(billingDocument)
        .where(and(eq(billingDocument.number, number), eq(billingDocument.ariaAccountNo, ariaAccountNo), eq(billingDocument.kind, 'CREDIT_NOTE')));
      if (!found) throw notFound();
      return { filename: `kreditnota-${number}.pdf`, pdf: await documentPdf(db, number) };
    },

    /** POST /api/invoice/{ariaInvoiceNo}/payment. */
    async payOwnInvoice(userId: string, ariaInvoiceNo: number, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
      return payInvoice(await ownInvoice(userId, ariaInvoiceNo), body, { userId });
    },

    /** GET /api/payment/{paymentId}: the owner's, or one of the pay-link's invoice with its token. */
    async getPayment(paymentId: string, viewer: { userId: string | null; token: string | undefined }): Promise<Payment> {
      const row = await engine.load(paymentId);
      if (!row) throw notFound();
      let allowed = false;
      if (viewer.userId) {
        if (row.userId === viewer.userId) allowed = true;
        else if (row.ariaAccountNo !== null) {
          const [owned] = await db.select({ no: account.ariaAccountNo }).from(account).where(and(eq(account.ariaAccountNo, row.ariaAccountNo), eq(account.userId, viewer.userId)));
          allowed = Boolean(owned);
        }
      }
      if (!allowed && viewer.token) {
        const checked = verifyPaylinkToken(paylinkSecret, viewer.token, now());
        allowed = checked.ok && checked.ariaInvoiceNo === row.ariaInvoiceNo;
      }
      if (!allowed) throw notFound();
      return toPaymentDto(await engine.refresh(row));
    },

    // --- pay-links -------------------------------------------------------------------------

    /** A pay-link's path for an invoice known to exist; pure (usable inside a transaction). */
    paylinkPath(ariaInvoiceNo: number, validDays = PAYLINK_DEFAULT_DAYS): { token: string; path: string; expiresAt: string } {
      const expiresAt = new Date(now().getTime() + validDays * 24 * 60 * 60 * 1000);
      const token = createPaylinkToken(paylinkSecret, ariaInvoiceNo, expiresAt);
      return { token, path: `/betaling?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
    },

    /** A pay-link for one invoice (invoice e-mails, the operator endpoint, the CLI). */
    async createPaylink(ariaInvoiceNo: number, validDays = PAYLINK_DEFAULT_DAYS): Promise<{ token: string; path: string; expiresAt: string; titleCode: string }> {
      const found = await anyInvoice(ariaInvoiceNo);
      if (!found) throw notFound();
      const expiresAt = new Date(now().getTime() + validDays * 24 * 60 * 60 * 1000);
      const token = createPaylinkToken(paylinkSecret, ariaInvoiceNo, expiresAt);
      return { token, path: `/betaling?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString(), titleCode: found.titleCode };
    },

    /** GET /api/paylink/{token}. */
    async paylinkDetails(token: string): Promise<PaylinkDetails> {
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
    },

    /** POST /api/paylink/{token}/payment. */
    async payByLink(token: string, body: CreateInvoicePaymentBody): Promise<PaymentRedirect> {
      const checked = checkPaylink(token);
      const found = await anyInvoice(checked.ariaInvoiceNo);
      if (!found) throw new AppError(404, billingErrorCodes.paylinkInvalid, billingErrorMessages.paylinkInvalid);
      return payInvoice(found, body, { paylinkToken: token });
    },

    // --- payment method --------------------------------------------------------------------

    /**
     * The home page's money facts (issue 25.10) for a subscription already known to be the
     * caller's: its account's unpaid invoices at the title, and those whose last charge (a
     * renewal's, or the subscriber's own attempt) failed. Two queries, whatever the count.
     */
    async openInvoicesOf(sub: Subscription): Promise<{ openInvoices: Invoice[]; failedChargeInvoiceNos: number[] }> {
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
        .where(inArray(payment.ariaInvoiceNo, openInvoices.map((dto) => dto.ariaInvoiceNo)))
        .orderBy(payment.ariaInvoiceNo, desc(payment.createdAt));
      const failedChargeInvoiceNos = latest.flatMap((row) => (row.status === 'FAILED' && row.ariaInvoiceNo !== null ? [row.ariaInvoiceNo] : []));
      return { openInvoices, failedChargeInvoiceNos };
    },

    /** The payment method of a subscription already known to be the caller's (the home overview). */
    paymentMethodFor: paymentMethodOf,

    /** GET /api/subscription/{accountNo}/{titleCode}/paymentMethod. */
    async paymentMethod(userId: string, ariaAccountNo: number, titleCode: string): Promise<PaymentMethodDetails> {
      return paymentMethodOf(await ownSubscription(userId, ariaAccountNo, titleCode));
    },

    /** PUT /api/subscription/paymentMethod (SPEC §7). */
    async changePaymentMethod(userId: string, body: ChangePaymentMethodBody): Promise<ChangePaymentMethodResponse> {
      const sub = await ownSubscription(userId, body.ariaAccountNo, body.titleCode);
      requireChangeable(sub);
      requireOffered(body.method);
      if (body.method === 'SWEDBANK-PPG' || body.method === 'VIPPS') {
        const started = await engine.start({
          idempotencyKey: `user:${userId}:${body.idempotencyKey}`,
          purpose: 'PAYMENT_METHOD_CHANGE',
          method: body.method,
          amountOre: 0,
          userId,
          ariaAccountNo: sub.ariaAccountNo,
          subscriptionId: sub.id,
          ariaInvoiceNo: null,
          description: body.method === 'VIPPS' ? `Vipps-avtale for ${sub.planName}` : `Betalingskort for ${sub.planName}`,
          returnPath: '/endre-betalingsmetode/verify?paymentId={paymentId}',
          titleCode: sub.titleCode,
          agreementTerms: { productName: sub.planName, priceOre: sub.priceOre, intervalMonths: billingPeriodMonths[sub.billingPeriod as BillingPeriod] ?? 1, agreementPath: '/endre-betalingsmetode' },
        });
        return { result: 'REDIRECT', redirectUrl: started.redirectUrl, paymentId: started.paymentId, paymentMethod: await paymentMethodOf(sub) };
      }

      if (body.method === 'AVTALEGIRO') {
        // No bank is asked here: the payer confirms the mandate in their netbank with the KID we
        // show, and the bank's mandate file makes it ACTIVE (issue 21). Until then invoices are giro.
        const title = catalogue.byTitleCode(sub.titleCode);
        let superseded: PaymentRow[] = [];
        await db.transaction(async (tx) => {
          superseded = await engine.supersedeAgreementFlows(tx, sub.id);
          await lockSubscription(tx, sub.id);
          const [current] = await tx.select({ paymentMethod: subscription.paymentMethod }).from(subscription).where(eq(subscription.id, sub.id));
          const mandate = await chooseAvtaleGiro(tx, sub.id, title, now());
          if (current?.paymentMethod !== 'AVTALEGIRO') {
            await tx.update(subscription).set({ paymentMethod: 'AVTALEGIRO' }).where(eq(subscription.id, sub.id));
            const changed = await engine.logMethodChange(tx, sub.id, userId, paymentProviderLabels.AVTALEGIRO);
            await mails.paymentMethodChanged(tx, { subscriptionId: sub.id, ...changed, change: { method: 'AVTALEGIRO', kid: mandate.providerAgreementId, confirmed: mandate.status === 'ACTIVE' } });
          }
        });
        await engine.cancelAtProvider(superseded);
        await engine.stopReplacedAgreements(sub.id);
        const current = await paymentMethodOf(sub);
        return { result: current.avtaleGiro?.status === 'ACTIVE' ? 'CHANGED' : 'PENDING_BANK_CONFIRMATION', redirectUrl: null, paymentId: null, paymentMethod: current };
      }

      // BANKGIRO: giro / e-invoice, nothing to confirm. Open card / Vipps flows and AvtaleGiro
      // registrations in progress are older choices: they are cancelled so they cannot win later.
      let superseded: PaymentRow[] = [];
      await db.transaction(async (tx) => {
        superseded = await engine.supersedeAgreementFlows(tx, sub.id);
        await lockSubscription(tx, sub.id);
        const at = now();
        await tx.update(paymentAgreement).set({ status: 'REPLACED', updatedAt: at }).where(and(eq(paymentAgreement.subscriptionId, sub.id), ne(paymentAgreement.status, 'REPLACED')));
        const [current] = await tx.select({ paymentMethod: subscription.paymentMethod }).from(subscription).where(eq(subscription.id, sub.id));
        if (current?.paymentMethod !== 'INVOICE') {
          await tx.update(subscription).set({ paymentMethod: 'INVOICE' }).where(eq(subscription.id, sub.id));
          const changed = await engine.logMethodChange(tx, sub.id, userId, paymentProviderLabels.BANKGIRO);
          await mails.paymentMethodChanged(tx, { subscriptionId: sub.id, ...changed, change: { method: 'INVOICE' } });
        }
      });
      await engine.cancelAtProvider(superseded);
      await engine.stopReplacedAgreements(sub.id);
      return { result: 'CHANGED', redirectUrl: null, paymentId: null, paymentMethod: await paymentMethodOf(sub) };
    },

    /** PUT /api/subscription/card (SPEC §7): add or replace the card through the provider. */
    async changeCard(userId: string, body: ChangeCardBody): Promise<PaymentRedirect> {
      const sub = await ownSubscription(userId, body.ariaAccountNo, body.titleCode);
      requireChangeable(sub);
      requireOffered('SWEDBANK-PPG');
      return engine.start({
        idempotencyKey: `user:${userId}:${body.idempotencyKey}`,
        purpose: 'CARD_CHANGE',
        method: 'SWEDBANK-PPG',
        amountOre: 0,
        userId,
        ariaAccountNo: sub.ariaAccountNo,
        subscriptionId: sub.id,
        ariaInvoiceNo: null,
        description: `Betalingskort for ${sub.planName}`,
        returnPath: '/legg-til-betalingskort/verify?paymentId={paymentId}',
        titleCode: sub.titleCode,
      });
    },

    // --- discounts -------------------------------------------------------------------------

    /** POST /api/addDiscount: the code applies to the next `periods` renewal invoices. */
    async addDiscount(userId: string, body: AddDiscountBody): Promise<Discount> {
      const sub = await ownSubscription(userId, body.ariaAccountNo, body.titleCode);
      requireChangeable(sub);
      const codeText = body.discountCode.trim().toUpperCase();
      const [code] = await db.select().from(discountCode).where(eq(discountCode.code, codeText));
      const invalid = () => new AppError(400, billingErrorCodes.discountCodeInvalid, billingErrorMessages.discountCodeInvalid);
      if (!code || (code.titleCode !== null && code.titleCode !== sub.titleCode) || (code.validUntil !== null && code.validUntil < today())) throw invalid();
      return db.transaction(async (tx) => {
        // The subscription row is the lock: two codes added at once cannot both become active.
        await tx.select({ id: subscription.id }).from(subscription).where(eq(subscription.id, sub.id)).for('update');
        const existing = await tx.select().from(subscriptionDiscount).where(eq(subscriptionDiscount.subscriptionId, sub.id));
        if (existing.some((row) => row.code === code.code)) throw new AppError(409, billingErrorCodes.discountCodeUsed, billingErrorMessages.discountCodeUsed);
        if (existing.some((row) => row.remainingPeriods > 0)) throw new AppError(409, billingErrorCodes.discountAlreadyActive, billingErrorMessages.discountAlreadyActive);
        const [added] = await tx.insert(subscriptionDiscount).values({ subscriptionId: sub.id, code: code.code, remainingPeriods: code.periods, addedAt: now() }).returning();
        if (!added) throw invalid();
        return toDiscountDto(added, code);
      });
    },

    /** POST /api/getDiscountDetails. */
    async discountDetails(userId: string, ariaAccountNo: number, titleCode: string): Promise<Discount | null> {
      const sub = await ownSubscription(userId, ariaAccountNo, titleCode);
      return activeDiscount(sub.id);
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

