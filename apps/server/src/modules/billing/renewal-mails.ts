import { and, eq, gt, isNull } from 'drizzle-orm';
import { formatKroner, formatShortDate, paymentProviderLabels } from '@minside/domain';
import type { PublicationConfig } from '@minside/titles';
import { account, appUser, invoice, subscription } from '../../db/schema.ts';
import type { Tx } from '../../db/client.ts';
import type { OutgoingMail } from '../../integrations/mail/index.ts';
import { titleMail } from '../../integrations/mail/templates.ts';
import { enqueuePaymentReceipt, enqueueRefundNotice } from './documents/receipts.ts';
import type { BillingJobDeps } from './jobs.ts';

/** What the renewal run tells the payer: the invoice e-mail, a failed charge, a stopped Vipps agreement, receipts. */

/**
 * What the invoice e-mail tells the payer to do, or null when no e-mail goes: a card or Vipps
 * subscription with a stored agreement this provider charges (`chargeable`), or a method the
 * portal does not bill. AvtaleGiro draws only on a mandate the bank has confirmed (`mandate`).
 */
export function howToPayFor(paymentMethod: string, facts: { mandate: boolean; chargeable: boolean }): string | null {
  if (paymentMethod === 'INVOICE') return 'Betal enkelt med Vipps eller kort, uten å logge inn.';
  if (paymentMethod === 'AVTALEGIRO') {
    return facts.mandate
      ? 'Beløpet trekkes med AvtaleGiro på forfallsdatoen. Vil du heller betale nå, kan du gjøre det her.'
      : // Not the netbank: a giro payment reaches us days later, maybe after the bank has drawn the invoice too.
        'AvtaleGiro-avtalen din venter på bekreftelse fra banken. Blir den bekreftet i tide, trekker banken beløpet på forfallsdatoen. Vil du heller betale nå, kan du betale med Vipps eller kort her, så stopper vi trekket.';
  }
  if (paymentMethod === 'CARD' || paymentMethod === 'VIPPS') {
    if (facts.chargeable) return null;
    return paymentMethod === 'VIPPS'
      ? 'Du har ingen aktiv Vipps-avtale vi kan trekke denne fakturaen fra. Betal den i nettbanken med KID og kontonummer, eller med Vipps eller kort her, uten å logge inn.'
      : 'Vi har ikke et betalingskort vi kan trekke denne fakturaen fra. Betal den i nettbanken med KID og kontonummer, eller med Vipps eller kort her, uten å logge inn.';
  }
  return null;
}

/** The agreement method that charges a subscription paying by `paymentMethod` (CARD: the card agreement). */
export const agreementMethodOf = (paymentMethod: string) => (paymentMethod === 'CARD' ? 'SWEDBANK-PPG' : paymentMethod);

/** The invoice e-mail (KID, account, a pay-link at `payUrl`), once per invoice by its key. */
export function invoiceIssuedMail(
  title: PublicationConfig,
  issued: Pick<typeof invoice.$inferSelect, 'ariaInvoiceNo' | 'description' | 'amountOre' | 'dueOn' | 'kid' | 'bankAccountNumber'>,
  setOffOre: number,
  howToPay: string,
  owner: { email: string; givenName: string },
  payUrl: string,
): OutgoingMail {
  const invoiceNo = issued.ariaInvoiceNo;
  return {
    to: owner.email,
    title,
    kind: 'invoiceIssued',
    idempotencyKey: `invoice-issued:${invoiceNo}`,
    ...titleMail(title, {
      subject: `${title.name}: ny faktura ${invoiceNo}`,
      heading: `Faktura ${invoiceNo}`,
      paragraphs: [
        `Hei ${owner.givenName}!`,
        `Her er fakturaen for ${issued.description}.`,
        ...(setOffOre > 0
          ? [`Fakturaen er på ${formatKroner(issued.amountOre, { withOre: true })}. Vi har trukket fra ${formatKroner(setOffOre, { withOre: true })} som du har til gode fra en kreditnota.`]
          : []),
        `${setOffOre > 0 ? 'Å betale' : 'Beløp'}: ${formatKroner(issued.amountOre - setOffOre, { withOre: true })}. Forfallsdato: ${formatShortDate(issued.dueOn)}. KID: ${issued.kid}. Kontonummer: ${issued.bankAccountNumber}.`,
        howToPay,
      ],
      action: { label: 'Betal fakturaen', url: payUrl },
    }),
  };
}

/**
 * The renewal's e-mails that follow the provider's word, registered on the engine: each is sent in
 * the transaction that settles the payment, so it goes exactly when the money moved (or did not).
 */
export function registerRenewalMails(deps: BillingJobDeps & { mailInvoiceToPay: (tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number) => Promise<void> }): void {
  const { engine, billing, mailer, catalogue, portalOrigin, mailInvoiceToPay } = deps;
  /**
   * A Vipps agreement stopped in the Vipps app (or expired at the provider): the subscription goes
   * back to giro — its invoices come with KID and a pay-link — and the owner is told, once.
   */
  engine.onAgreementEnded(async (tx, ended) => {
    if (ended.method !== 'VIPPS') return;
    const [moved] = await tx
      .update(subscription)
      .set({ paymentMethod: 'INVOICE' })
      .where(and(eq(subscription.id, ended.subscriptionId), eq(subscription.paymentMethod, 'VIPPS')))
      .returning({ ariaAccountNo: subscription.ariaAccountNo, planName: subscription.planName, titleCode: subscription.titleCode });
    if (!moved) return;
    await engine.logMethodChange(tx, ended.subscriptionId, null, paymentProviderLabels.BANKGIRO);
    // Its open invoices are the owner's to pay now: each gets its e-mail with KID and pay-link (once).
    const [onGiro] = await tx.select().from(subscription).where(eq(subscription.id, ended.subscriptionId));
    const open = await tx
      .select({ no: invoice.ariaInvoiceNo })
      .from(invoice)
      .where(and(eq(invoice.subscriptionId, ended.subscriptionId), isNull(invoice.paidAt), gt(invoice.amountOre, 0)));
    if (onGiro) for (const { no } of open) await mailInvoiceToPay(tx, onGiro, no);
    const title = catalogue.findByTitleCode(moved.titleCode);
    const [owner] = await tx
      .select({ email: appUser.email, givenName: appUser.givenName })
      .from(account)
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(account.ariaAccountNo, moved.ariaAccountNo));
    if (!title || !owner) return;
    await mailer.enqueue(tx, {
      to: owner.email,
      title,
      kind: 'vippsAgreementStopped',
      idempotencyKey: `vipps-agreement-ended:${ended.id}`,
      ...titleMail(title, {
        subject: `${title.name}: Vipps-avtalen er stoppet`,
        heading: 'Vipps-avtalen er stoppet',
        paragraphs: [
          `Hei ${owner.givenName}!`,
          `Vipps-avtalen for ${moved.planName} er stoppet i Vipps. Fakturaene kommer derfor som vanlig giro fra nå av: du betaler dem i nettbanken med KID og kontonummer, eller med Vipps eller kort fra lenken i e-posten.`,
          'Vil du betale fast med Vipps igjen, kan du velge det på Min side.',
        ],
        action: { label: 'Velg betalingsmåte', url: `${portalOrigin(moved.titleCode)}/endre-betalingsmetode` },
      }),
    });
  });

  // Every payment captured on an invoice — on Min Side, by a pay-link, or a renewal charge — gets its receipt.
  const documentMail = { mailer, catalogue, portalOrigin };
  for (const purpose of ['INVOICE', 'RENEWAL'] as const) {
    engine.onSettled(purpose, async (tx, settled) => {
      if (settled.status === 'CAPTURED') await enqueuePaymentReceipt(tx, documentMail, settled.id);
    });
  }
  // Money given back that no credit note tells of (a second payment, an order not fulfilled): the payer hears of it.
  engine.onRefunded((tx, refunded) => enqueueRefundNotice(tx, documentMail, refunded));
  /*
   * A renewal charge the provider refused (expired card, stopped agreement): the owner is told at
   * once, with a pay-link, in the settling transaction. One e-mail per invoice; the job retries.
   */
  engine.onSettled('RENEWAL', async (tx, settled) => {
    // Refused by the provider (no money behind the card, the charge ran out of retries). A charge that
    // was cancelled — its agreement stopped, the invoice paid another way — is no failed payment, and
    // promising to "try again in a few days" would be untrue.
    if ((settled.status !== 'FAILED' && settled.status !== 'TIMEOUT') || settled.ariaInvoiceNo === null || settled.subscriptionId === null) return;
    const [found] = await tx
      .select({ invoice, titleCode: subscription.titleCode, email: appUser.email, givenName: appUser.givenName })
      .from(invoice)
      .innerJoin(subscription, eq(subscription.id, invoice.subscriptionId))
      .innerJoin(account, eq(account.ariaAccountNo, invoice.ariaAccountNo))
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(invoice.ariaInvoiceNo, settled.ariaInvoiceNo));
    const title = found ? catalogue.findByTitleCode(found.titleCode) : undefined;
    if (!found || !title || found.invoice.paidAt) return;
    const no = found.invoice.ariaInvoiceNo;
    const link = billing.paylinkPath(no);
    const source = settled.method === 'VIPPS' ? 'Vipps-avtalen' : 'betalingskortet';
    await mailer.enqueue(tx, {
      to: found.email,
      title,
      kind: 'paymentFailed',
      idempotencyKey: `renewal-failed:${no}`,
      ...titleMail(title, {
        subject: `${title.name}: betalingen av faktura ${no} gikk ikke gjennom`,
        heading: `Faktura ${no} er ikke betalt`,
        paragraphs: [
          `Hei ${found.givenName}!`,
          `Vi fikk ikke trukket ${formatKroner(settled.amountOre, { withOre: true })} for faktura ${no} (${found.invoice.description}) fra ${source}.`,
          'Vi prøver igjen om noen dager. Du kan også betale fakturaen nå med Vipps eller kort, uten å logge inn, eller bytte betalingsmåte på Min side.',
          `Forfallsdato: ${formatShortDate(found.invoice.dueOn)}. KID: ${found.invoice.kid}. Kontonummer: ${found.invoice.bankAccountNumber}.`,
        ],
        action: { label: 'Betal fakturaen', url: `${portalOrigin(found.titleCode)}${link.path}` },
      }),
    });
  });
}
