import { eq, sql } from 'drizzle-orm';
import { formatKroner, formatLongDate, osloToday, paymentProviderLabels, type PaymentProviderCode } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Tx } from '../../../db/client.ts';
import { account, appUser, invoice, payment, subscription, subscriptionOrder } from '../../../db/schema.ts';
import { titleMail, type Mailer } from '../../../integrations/mail/index.ts';

/**
 * The e-mails of issue 23's documents: a receipt for every payment captured on an invoice (paid by
 * Vipps or card on Min Side or a pay-link, a renewal charge, an OCR giro or AvtaleGiro payment from
 * the bank's file), and the credit note of every credit. Each links to the document on Min Side, is
 * written in the transaction that records the money, and is sent once per payment or credit note.
 */
export interface DocumentMailDeps {
  mailer: Mailer;
  catalogue: Catalogue;
  /** The portal origin of a title, for the link to the invoice overview. */
  portalOrigin: (titleCode: string) => string;
}

const howPaid: Record<string, string> = {
  VIPPS: 'med Vipps',
  'SWEDBANK-PPG': 'med kort',
  AVTALEGIRO: 'med AvtaleGiro',
  BANKGIRO: 'i nettbanken',
};

async function recipientOf(tx: Tx, ariaInvoiceNo: number) {
  const [found] = await tx
    .select({ invoice, titleCode: sql<string>`coalesce(${subscription.titleCode}, ${account.firstTitleCode})`, email: appUser.email, givenName: appUser.givenName })
    .from(invoice)
    .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
    .innerJoin(appUser, eq(appUser.id, account.userId))
    .leftJoin(subscription, eq(subscription.id, invoice.subscriptionId))
    .where(eq(invoice.ariaInvoiceNo, ariaInvoiceNo));
  return found;
}

/**
 * The receipt of one captured payment on an invoice, queued before the invoice is marked paid. Nothing
 * for a payment of no invoice, of nothing, or of an invoice paid already.
 */
export async function enqueuePaymentReceipt(tx: Tx, deps: DocumentMailDeps, paymentId: string): Promise<void> {
  const [paid] = await tx.select().from(payment).where(eq(payment.id, paymentId));
  if (!paid || paid.status !== 'CAPTURED' || paid.ariaInvoiceNo === null || paid.amountOre <= 0) return;
  const found = await recipientOf(tx, paid.ariaInvoiceNo);
  const title = found ? deps.catalogue.findByTitleCode(found.titleCode) : undefined;
  if (!found || !title) return;
  // Called before the invoice is marked paid, under its lock: two payments captured at once wait for each
  // other here, and the second finds it paid — a second payment, refunded or handled as an over-payment.
  const [locked] = await tx.select({ paidAt: invoice.paidAt }).from(invoice).where(eq(invoice.ariaInvoiceNo, paid.ariaInvoiceNo)).for('update');
  if (locked?.paidAt) return;
  const paidOn = osloToday(paid.settledAt ?? paid.updatedAt);
  const method = paymentProviderLabels[paid.method as PaymentProviderCode] ?? paid.method;
  await deps.mailer.enqueue(tx, {
    to: found.email,
    title,
    kind: 'paymentReceipt',
    idempotencyKey: `payment-receipt:${paid.id}`,
    ...titleMail(title, {
      subject: `${title.name}: kvittering for betaling av faktura ${found.invoice.ariaInvoiceNo}`,
      heading: 'Kvittering for betalingen',
      paragraphs: [
        `Hei ${found.givenName}!`,
        `Vi har mottatt ${formatKroner(paid.amountOre, { withOre: true })} for faktura ${found.invoice.ariaInvoiceNo} (${found.invoice.description}).`,
        `Betalt ${formatLongDate(paidOn)} ${howPaid[paid.method] ?? `med ${method}`}. KID: ${found.invoice.kid}.`,
        'Fakturaen og kvitteringen finner du under Fakturaer på Min Side.',
      ],
      action: { label: 'Se fakturaene dine', url: `${deps.portalOrigin(title.titleCode)}/fakturaoversikt` },
    }),
  });
}

/** The e-mail of a credit note just issued. */
export async function enqueueCreditNoteMail(tx: Tx, deps: DocumentMailDeps, input: { number: number; ariaInvoiceNo: number; amountOre: number; settlement: string }): Promise<void> {
  const found = await recipientOf(tx, input.ariaInvoiceNo);
  const title = found ? deps.catalogue.findByTitleCode(found.titleCode) : undefined;
  if (!found || !title) return;
  await deps.mailer.enqueue(tx, {
    to: found.email,
    title,
    kind: 'creditNote',
    idempotencyKey: `credit-note:${input.number}`,
    ...titleMail(title, {
      subject: `${title.name}: kreditnota ${input.number} for faktura ${input.ariaInvoiceNo}`,
      heading: `Kreditnota ${input.number}`,
      paragraphs: [
        `Hei ${found.givenName}!`,
        `Vi har kreditert ${formatKroner(input.amountOre, { withOre: true })} av faktura ${input.ariaInvoiceNo} (${found.invoice.description}).`,
        input.settlement,
        'Kreditnotaen finner du under Fakturaer på Min Side.',
      ],
      action: { label: 'Se kreditnotaen', url: `${deps.portalOrigin(title.titleCode)}/fakturaoversikt` },
    }),
  });
}

/** Why money went back, as the payer reads it. */
const refundReasons: Record<string, string> = {
  DUPLICATE_PAYMENT: 'Fakturaen var allerede betalt, så denne betalingen trengte vi ikke.',
  DUPLICATE_ORDER_PAYMENT: 'Du betalte den samme bestillingen to ganger, så den ene betalingen trengte vi ikke.',
};

/**
 * The notice of money given back that no credit note covers (issue 23): a second payment of an
 * invoice already paid, an order that could not be fulfilled. A refund of a credited invoice is
 * told by its credit note instead. Sent once per payment.
 */
export async function enqueueRefundNotice(tx: Tx, deps: DocumentMailDeps, refunded: typeof payment.$inferSelect): Promise<void> {
  if (refunded.errorCode === 'INVOICE_CREDITED' || refunded.amountOre <= 0) return;
  const [found] = await tx
    .select({
      email: appUser.email,
      givenName: appUser.givenName,
      titleCode: sql<string>`coalesce((select s.title_code from ${subscription} s where s.id = ${refunded.subscriptionId}), (select o.title_code from ${subscriptionOrder} o where o.payment_id = ${refunded.id} limit 1), (select o.title_code from ${subscriptionOrder} o where o.user_id = ${appUser.id} order by o.created_at desc limit 1), ${account.firstTitleCode})`,
    })
    .from(appUser)
    .leftJoin(account, eq(account.userId, appUser.id))
    .where(refunded.userId ? eq(appUser.id, refunded.userId) : eq(account.ariaAccountNo, refunded.ariaAccountNo ?? -1));
  const title = found?.titleCode ? deps.catalogue.findByTitleCode(found.titleCode) : undefined;
  if (!found || !title) return;
  const how = refunded.method === 'VIPPS' ? 'med Vipps' : 'til kortet du betalte med';
  await deps.mailer.enqueue(tx, {
    to: found.email,
    title,
    kind: 'paymentRefunded',
    idempotencyKey: `payment-refunded:${refunded.id}`,
    ...titleMail(title, {
      subject: `${title.name}: vi har betalt tilbake ${formatKroner(refunded.amountOre, { withOre: true })}`,
      heading: 'Pengene er på vei tilbake',
      paragraphs: [
        `Hei ${found.givenName}!`,
        `Vi har betalt tilbake ${formatKroner(refunded.amountOre, { withOre: true })} ${how}.`,
        refundReasons[refunded.errorCode ?? ''] ?? 'Bestillingen kunne ikke fullføres, så du skal ikke betale for den.',
        'Det kan ta noen dager før beløpet vises på kontoen din.',
      ],
      action: { label: 'Se fakturaene dine', url: `${deps.portalOrigin(title.titleCode)}/fakturaoversikt` },
    }),
  });
}
