import { and, eq, isNotNull } from 'drizzle-orm';
import type { BilledPeriod } from '@minside/domain';
import type { Db, Tx } from '../../db/client.ts';
import { account, appUser, invoice, paymentAgreement, type subscription } from '../../db/schema.ts';
import { creditedOreColumn } from './paid-so-far.ts';
import { howToPayFor, invoiceIssuedMail } from './renewal-mails.ts';
import type { BillingJobDeps } from './jobs.ts';
import type { IssuedPeriod } from './renewal-issue.ts';

// How a renewal invoice gets paid: the stored card or Vipps agreement this provider can charge,
// the invoice e-mail (KID, account, pay-link) when the payer has to act, and what a billed period
// tells of its payment. Apart from jobs.ts because issuing, collecting and the hooks all ask it.

export function createRenewalPayment(deps: Pick<BillingJobDeps, 'billing' | 'provider' | 'mailer' | 'catalogue' | 'portalOrigin'>) {
  const { billing, provider, mailer, catalogue, portalOrigin } = deps;

  /** The subscription's ACTIVE stored agreement for its method that this provider can charge (a card, a Vipps agreement), if any. */
  async function chargeableAgreement(executor: Db | Tx, subscriptionId: string, method: string) {
    const [agreement] = await executor
      .select()
      .from(paymentAgreement)
      // Only an agreement this provider made: another provider's card or agreement id means nothing to it.
      .where(
        and(
          eq(paymentAgreement.subscriptionId, subscriptionId),
          eq(paymentAgreement.status, 'ACTIVE'),
          eq(paymentAgreement.method, method === 'CARD' ? 'SWEDBANK-PPG' : method),
          eq(paymentAgreement.provider, provider.name),
        ),
      );
    return agreement;
  }

  /**
   * The invoice e-mail (KID, account, a pay-link) to the owner, once per invoice, whenever the
   * payer has to act or should know: giro and AvtaleGiro always; a card or Vipps subscription
   * when nothing stored can be charged (an order paid by a card the provider keeps no copy of,
   * an agreement stopped in the Vipps app). A charged invoice needs no e-mail: it is paid.
   */
  async function mailInvoiceToPay(tx: Tx, row: typeof subscription.$inferSelect, invoiceNo: number): Promise<void> {
    const title = catalogue.findByTitleCode(row.titleCode);
    const [found] = await tx.select({ issued: invoice, setOffOre: creditedOreColumn }).from(invoice).where(eq(invoice.ariaInvoiceNo, invoiceNo));
    const issued = found?.issued;
    if (!title || !found || !issued || issued.paidAt || issued.amountOre <= 0) return;
    const howToPay = howToPayFor(row.paymentMethod, {
      // AvtaleGiro draws only on a mandate the bank has confirmed; until then the invoice is the payer's to pay.
      mandate:
        row.paymentMethod === 'AVTALEGIRO' &&
        (
          await tx
            .select({ id: paymentAgreement.id })
            .from(paymentAgreement)
            .where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE')))
        ).length > 0,
      chargeable: (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') && Boolean(await chargeableAgreement(tx, row.id, row.paymentMethod)),
    });
    if (howToPay === null) return;
    const [owner] = await tx
      .select({ email: appUser.email, givenName: appUser.givenName })
      .from(account)
      .innerJoin(appUser, eq(appUser.id, account.userId))
      .where(eq(account.ariaAccountNo, row.ariaAccountNo));
    if (!owner) return;
    await mailer.enqueue(tx, invoiceIssuedMail(title, issued, Number(found.setOffOre), howToPay, owner, payUrl(row, invoiceNo)));
  }

  const payUrl = (row: typeof subscription.$inferSelect, invoiceNo: number) => `${portalOrigin(row.titleCode)}${billing.paylinkPath(invoiceNo).path}`;

  /**
   * How an issued invoice gets paid, as the subscriber is told: the stored card or Vipps agreement
   * `collect` charges, the bank's AvtaleGiro draw on a confirmed mandate (the claim run's own
   * condition), or the payer from the invoice e-mail; nothing when a discount or a credit covers it.
   */
  async function paymentOf(tx: Tx, issued: IssuedPeriod): Promise<BilledPeriod['payment']> {
    const { row } = issued;
    if (issued.openOre <= 0) return 'settled';
    if (row.paymentMethod === 'CARD' || row.paymentMethod === 'VIPPS') {
      const agreement = await chargeableAgreement(tx, row.id, row.paymentMethod);
      if (agreement?.providerAgreementId) return row.paymentMethod === 'CARD' ? 'card' : 'vipps';
    } else if (row.paymentMethod === 'AVTALEGIRO') {
      const [mandate] = await tx
        .select({ id: paymentAgreement.id })
        .from(paymentAgreement)
        .where(and(eq(paymentAgreement.subscriptionId, row.id), eq(paymentAgreement.method, 'AVTALEGIRO'), eq(paymentAgreement.status, 'ACTIVE'), isNotNull(paymentAgreement.providerAgreementId)));
      if (mandate) return 'avtalegiro';
    }
    return 'invoice';
  }

  return { chargeableAgreement, mailInvoiceToPay, payUrl, paymentOf };
}
