import { portalOriginFor } from '../../lib/portal-url.ts';
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { createPaymentProvider } from '../../integrations/payment/index.ts';
import type { PaymentProvider } from '../../integrations/payment/provider.ts';
import type { VippsSimulator } from '@minside/vipps/simulator';
import { ensureBillingSecret } from '../../integrations/payment/secrets.ts';
import type { SessionStore } from '../../plugins/session.ts';
import type { AccountService, ChangeMails } from '../subscription/index.ts';
import { createPaymentEngine, type PaymentEngine } from './engine.ts';
import { createBillingJobs, type BillingJobs } from './jobs.ts';
import { createInvoiceCrediting, type InvoiceCrediting } from './documents/credit.ts';
import { createCancelledPeriodCrediting, type CancelledPeriodCrediting } from './cancelled-periods.ts';
import { createEhfOutbox, type EhfOutbox } from './documents/ehf-outbox.ts';
import { createDocumentCompletion } from './documents/issue.ts';
import { billingRoutes } from './routes.ts';
import { createBillingService, type BillingService } from './service.ts';

// What other parts of the server use of this area (eslint.config.js, areaZones).
export { invoicesToCreditOnCancel } from './cancelled-periods.ts';
export type { CancelledPeriodCrediting } from './cancelled-periods.ts';
export { CANCEL_MIN_LEAD_DAYS, CLAIM_MAX_LEAD_DAYS, CLAIM_MIN_LEAD_DAYS, liveClaimColumn } from './claim-window.ts';
export type { InvoiceCrediting, ReleasedCredit } from './documents/credit.ts';
export { moneyInOf, refundRouteOf, wholeCreditNoteOf } from './documents/refund-route.ts';
export { issueMissingInvoiceDocuments } from './documents/issue.ts';
export { enqueuePaymentReceipt } from './documents/receipts.ts';
export { createComplaintCrediting, creditsHandedOver, handOverWaitingCredit, type ComplaintCrediting, type HandedOverCredit } from './documents/set-off.ts';
export type { PaymentEngine, PaymentRow } from './engine.ts';
export { insertInvoice } from './issue-invoice.ts';
export { paidSoFar, setOffsAgainst, setOffSoFar, settledOreOf } from './paid-so-far.ts';
export { toInvoiceDto } from './invoice-view.ts';
export type { BillingService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The billing jobs (renewals, reconciliation), for the scheduler, the CLI and tests. */
    billingJobs: BillingJobs;
    billing: BillingService;
    /** Crediting invoices with a credit note (issue 23): the operator route and `admin invoice credit`. */
    invoiceCrediting: InvoiceCrediting;
    /** Crediting the invoices of periods a cancelled subscription will not have (ADR 026): the lifecycle service's cancel, and the renewal job. */
    cancelledPeriods: CancelledPeriodCrediting;
    /** EHF invoices for companies that chose them (issue 23): the outbox job and the download. */
    ehfOutbox: EhfOutbox;
    /** The `billing-documents` job: documents for older invoices, PDFs stored (ADR 026). */
    billingDocuments: { complete(): Promise<{ issued: number; stored: number; failed: number }> };
    /** The payment engine, for other areas' provider flows (issue 7 orders): start + onSettled. */
    paymentEngine: PaymentEngine;
    /** The configured payment provider (tests wrap it to play a provider that errors or times out). */
    paymentProvider: PaymentProvider;
    /** The Vipps MobilePay simulator embedded in this process, when it is the provider (development and tests; never production). */
    vippsSimulator: VippsSimulator | undefined;
  }
}

export interface BillingSetup {
  config: Pick<Config, 'paymentProvider' | 'vipps' | 'paylinkSecret' | 'operatorToken' | 'publicUrl' | 'port' | 'production' | 'ehfOutboxDir'>;
  db: Db;
  catalogue: Catalogue;
  accounts: AccountService;
  sessions: SessionStore;
  mailer: Mailer;
  /** Confirmations of a new way to pay (issue 25.7). */
  changeMails: ChangeMails;
  now: () => Date;
}

/** The portal origin of a title for links in e-mails: the title's own host in production, the local one otherwise. */

/** Invoices and payments (issue 6): the provider, the engine, the routes and the jobs. */
export async function registerBilling(app: FastifyInstance, setup: BillingSetup): Promise<void> {
  const { config, db, catalogue, accounts, sessions, mailer, changeMails, now } = setup;
  const titleMerchants = new Map(catalogue.all().flatMap((title) => (title.vippsMerchantSerialNumber ? [[title.titleCode, title.vippsMerchantSerialNumber] as const] : [])));
  const configured = await createPaymentProvider(config, db, now, app.log, titleMerchants);
  const { provider } = configured;
  const engine = createPaymentEngine({ db, provider, now, log: app.log, portalOrigin: portalOriginFor(config, catalogue), mails: changeMails });
  const billing = createBillingService({
    db,
    engine,
    accounts,
    catalogue,
    now,
    paylinkSecret: await ensureBillingSecret(db, 'paylink_hmac', config.paylinkSecret),
    providerStoresCards: provider.storesCards,
    mails: changeMails,
  });
  const invoiceCrediting = createInvoiceCrediting({ db, engine, catalogue, mailer, now, log: app.log, portalOrigin: portalOriginFor(config, catalogue) });
  const cancelledPeriods = createCancelledPeriodCrediting({ db, crediting: invoiceCrediting, now, log: app.log });
  const jobs = createBillingJobs({ db, engine, billing, provider, mailer, catalogue, now, log: app.log, portalOrigin: portalOriginFor(config, catalogue), cancelledPeriods });
  app.decorate('billingJobs', jobs);
  app.decorate('invoiceCrediting', invoiceCrediting);
  app.decorate('cancelledPeriods', cancelledPeriods);
  const ehfOutbox = createEhfOutbox({ db, dir: config.ehfOutboxDir, now, log: app.log });
  app.decorate('ehfOutbox', ehfOutbox);
  app.decorate('billingDocuments', { complete: createDocumentCompletion({ db, catalogue, now, log: app.log }) });
  app.decorate('billing', billing);
  app.decorate('paymentEngine', engine);
  app.decorate('paymentProvider', provider);
  app.decorate('vippsSimulator', configured.simulator);
  await app.register(billingRoutes, { billing, engine, invoiceCrediting, ehfOutbox, accounts, sessions, providerName: provider.name, operatorToken: config.operatorToken });
  if (configured.registerRoutes) await configured.registerRoutes(app);
  // An in-process provider delivers its callbacks the way a real one does: an HTTP POST to the webhook.
  configured.connect?.(async (path, body, headers) => {
    const response = await app.inject({ method: 'POST', url: path, payload: body, headers });
    if (response.statusCode >= 400) app.log.warn({ statusCode: response.statusCode, body: response.body }, `${provider.name} provider callback was refused`);
    return { statusCode: response.statusCode };
  });
  if (configured.close) app.addHook('onClose', configured.close);
}
