import type { Catalogue } from '@minside/titles';
import type { Db } from '../../db/client.ts';
import type { AccountService, ChangeMails } from '../subscription/index.ts';
import type { PaymentEngine } from './engine.ts';
import { createDiscounts } from './discounts.ts';
import { createInvoicePayment } from './invoice-payment.ts';
import { createInvoices } from './invoices.ts';
import { createPaymentMethods } from './payment-method.ts';

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

/**
 * The billing service behind the routes (issue 6), composed of its jobs: reading invoices
 * (invoices.ts, shown by invoice-view.ts), paying them and the pay-links (invoice-payment.ts), the
 * subscription's way to pay (payment-method.ts) and discount codes (discounts.ts).
 */
export function createBillingService(deps: BillingServiceDeps) {
  const { db, engine, accounts, catalogue, now, paylinkSecret, providerStoresCards, mails } = deps;
  const invoices = createInvoices({ db, accounts, catalogue, now });
  const paying = createInvoicePayment({ db, engine, catalogue, now, paylinkSecret, invoices });
  const methods = createPaymentMethods({ db, engine, accounts, catalogue, now, providerStoresCards, mails });
  const discounts = createDiscounts({ db, now, ownSubscription: methods.ownSubscription, requireChangeable: methods.requireChangeable });

  return {
    listInvoices: invoices.listInvoices,
    invoicePdf: invoices.invoicePdf,
    listCreditNotes: invoices.listCreditNotes,
    creditNotePdf: invoices.creditNotePdf,
    payOwnInvoice: paying.payOwnInvoice,
    getPayment: paying.getPayment,

    // --- pay-links -------------------------------------------------------------------------
    paylinkPath: paying.paylinkPath,
    createPaylink: paying.createPaylink,
    paylinkDetails: paying.paylinkDetails,
    payByLink: paying.payByLink,

    // --- payment method --------------------------------------------------------------------
    openInvoicesOf: invoices.openInvoicesOf,
    /** The payment method of a subscription already known to be the caller's (the home overview). */
    paymentMethodFor: methods.paymentMethodOf,
    paymentMethod: methods.paymentMethod,
    changePaymentMethod: methods.changePaymentMethod,
    changeCard: methods.changeCard,

    // --- discounts -------------------------------------------------------------------------
    addDiscount: discounts.addDiscount,
    discountDetails: discounts.discountDetails,
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
