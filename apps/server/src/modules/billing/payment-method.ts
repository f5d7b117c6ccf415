import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import {
  billingErrorCodes,
  billingErrorMessages,
  billingPeriodMonths,
  changeablePaymentMethods,
  formatNorwegianAccountNumber,
  osloToday,
  paymentProviderLabels,
  tasksFor,
  type BillingPeriod,
  type ChangeCardBody,
  type ChangePaymentMethodBody,
  type ChangePaymentMethodResponse,
  type PaymentMethod,
  type PaymentMethodDetails,
  type PaymentRedirect,
  type Subscription,
} from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { Db, Tx } from '../../db/client.ts';
import { paymentAgreement, subscription } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AccountService, ChangeMails } from '../subscription/index.ts';
import type { PaymentEngine } from './engine.ts';
import type { PaymentRow } from './payment-record.ts';
import { chooseAvtaleGiro } from './avtalegiro-mandate.ts';

// A subscription's way to pay (SPEC §7, issue 25.7): what it is (the stored card, the Vipps
// agreement, the AvtaleGiro mandate) and changing it — a card or Vipps agreement through the
// provider, AvtaleGiro or giro at once, superseding the choices still in progress — each change
// logged and confirmed by e-mail in its transaction. Apart from the service: its own job and rules.

type AgreementRow = typeof paymentAgreement.$inferSelect;

/** The subscription row serialises changes of its payment method (the engine's storeAgreement takes it too). */
async function lockSubscription(tx: Tx, subscriptionId: string): Promise<void> {
  await tx.select({ id: subscription.id }).from(subscription).where(eq(subscription.id, subscriptionId)).for('update');
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

export function createPaymentMethods(deps: { db: Db; engine: PaymentEngine; accounts: AccountService; catalogue: Catalogue; now: () => Date; providerStoresCards: boolean; mails: ChangeMails }) {
  const { db, engine, accounts, catalogue, now, providerStoresCards, mails } = deps;
  const today = () => osloToday(now());

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

  /** GET /api/subscription/{accountNo}/{titleCode}/paymentMethod. */
  async function paymentMethod(userId: string, ariaAccountNo: number, titleCode: string): Promise<PaymentMethodDetails> {
    return paymentMethodOf(await ownSubscription(userId, ariaAccountNo, titleCode));
  }

  /** PUT /api/subscription/paymentMethod (SPEC §7). */
  async function changePaymentMethod(userId: string, body: ChangePaymentMethodBody): Promise<ChangePaymentMethodResponse> {
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
      await tx
        .update(paymentAgreement)
        .set({ status: 'REPLACED', updatedAt: at })
        .where(and(eq(paymentAgreement.subscriptionId, sub.id), ne(paymentAgreement.status, 'REPLACED')));
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
  }

  /** PUT /api/subscription/card (SPEC §7): add or replace the card through the provider. */
  async function changeCard(userId: string, body: ChangeCardBody): Promise<PaymentRedirect> {
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
  }

  return { ownSubscription, requireChangeable, paymentMethodOf, paymentMethod, changePaymentMethod, changeCard };
}
