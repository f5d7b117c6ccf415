import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addDiscountBodySchema,
  changeCardBodySchema,
  changePaymentMethodBodySchema,
  changePaymentMethodResponseSchema,
  createInvoicePaymentBodySchema,
  createPaylinkBodySchema,
  createPaylinkResponseSchema,
  creditInvoiceBodySchema,
  creditInvoiceResponseSchema,
  creditNoteListResponseSchema,
  creditNoteParamsSchema,
  discountResponseSchema,
  fileAnswer,
  getDiscountDetailsBodySchema,
  INVOICE_PAGE_MAX,
  invoiceListParamsSchema,
  invoiceListQuerySchema,
  invoiceListResponseSchema,
  invoiceParamsSchema,
  invoicePaymentParamsSchema,
  paylinkDetailsSchema,
  paylinkParamsSchema,
  paymentCallbackBodySchema,
  paymentCallbackResponseSchema,
  paymentMethodDetailsSchema,
  paymentMethodParamsSchema,
  paymentParamsSchema,
  paymentQuerySchema,
  paymentRedirectSchema,
  paymentSchema,
} from '@minside/domain';
import type { SessionStore } from '../../plugins/session.ts';
import { operatorAuth } from '../../plugins/operator-auth.ts';
import type { FastifyReply } from 'fastify';
import type { PaymentEngine } from './engine.ts';
import type { InvoiceCrediting } from './documents/credit.ts';
import type { EhfOutbox } from './documents/ehf-outbox.ts';
import type { AccountService } from '../subscription/index.ts';
import { notFound } from '../../plugins/errors.ts';
import type { BillingService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 410, 502, 503);

export interface BillingRouteOptions {
  billing: BillingService;
  engine: PaymentEngine;
  sessions: SessionStore;
  /** The provider's webhook path under /api/payment/callback/ (its configuration name). */
  providerName: string;
  operatorToken: string | undefined;
  invoiceCrediting: InvoiceCrediting;
  ehfOutbox: EhfOutbox;
  accounts: AccountService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of a provider callback, for its signature. */
    rawBody?: string;
  }
}

/**
 * Invoices and payments (issue 6). SPEC §7 keeps its paths (`subscription/card`,
 * `subscription/paymentMethod`, `addDiscount`, `getDiscountDetails`); the rest are resource
 * paths under /api/invoice, /api/payment and /api/paylink. Ownership is checked for every id:
 * another user's invoice or payment answers 404. Pay-links need no session.
 */
/** A document download: shown in the browser, never cached by anything between. */
function sendPdf(reply: FastifyReply, document: { filename: string; pdf: Buffer }) {
  return reply.type('application/pdf').header('content-disposition', `inline; filename="${document.filename}"`).header('cache-control', 'private, no-store').send(document.pdf);
}

export const billingRoutes: FastifyPluginAsyncZod<BillingRouteOptions> = async (app, { billing, engine, invoiceCrediting, ehfOutbox, accounts, sessions, providerName, operatorToken }) => {
  // Signed in: every call here names the caller's own account, invoice or payment (404 for another's).
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', app.authenticate);
    const typed = signedIn.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/api/invoice/:accountNo',
      { schema: { tags: ['billing'], params: invoiceListParamsSchema, querystring: invoiceListQuerySchema, response: { 200: invoiceListResponseSchema, ...errors } } },
      async (request) => billing.listInvoices(request.user.id, request.params.accountNo, request.query, INVOICE_PAGE_MAX),
    );

    typed.get(
      '/api/invoice/:accountNo/:ariaInvoiceNo/pdf',
      {
        schema: {
          tags: ['billing'],
          description: 'The invoice as a PDF (application/pdf).',
          params: invoiceParamsSchema,
          response: { 200: fileAnswer('application/pdf', 'The invoice.'), ...errors },
        },
      },
      async (request, reply) => {
        const { user } = request;
        return sendPdf(reply, await billing.invoicePdf(user.id, request.params.accountNo, request.params.ariaInvoiceNo));
      },
    );

    typed.get(
      '/api/invoice/:accountNo/credit-notes',
      { schema: { tags: ['billing'], description: "The account's credit notes, newest first.", params: invoiceListParamsSchema, response: { 200: creditNoteListResponseSchema, ...errors } } },
      async (request) => ({ creditNotes: await billing.listCreditNotes(request.user.id, request.params.accountNo) }),
    );

    typed.get(
      '/api/invoice/:accountNo/credit-notes/:number/pdf',
      {
        schema: {
          tags: ['billing'],
          description: 'A credit note as a PDF (application/pdf).',
          params: creditNoteParamsSchema,
          response: { 200: fileAnswer('application/pdf', 'The credit note.'), ...errors },
        },
      },
      async (request, reply) => {
        const { user } = request;
        return sendPdf(reply, await billing.creditNotePdf(user.id, request.params.accountNo, request.params.number));
      },
    );

    typed.get(
      '/api/invoice/:accountNo/documents/:number/ehf',
      {
        schema: {
          tags: ['billing'],
          description: 'An invoice or credit note issued to a company as EHF (PEPPOL BIS Billing 3.0 UBL, application/xml); 404 for one issued to a person.',
          params: creditNoteParamsSchema,
          response: { 200: fileAnswer('application/xml', 'The EHF document (UBL).'), ...errors },
        },
      },
      async (request, reply) => {
        const { user } = request;
        await accounts.getOwnAccount(user.id, request.params.accountNo);
        const xml = await ehfOutbox.ehfOf(request.params.accountNo, request.params.number);
        if (!xml) throw notFound();
        return reply
          .type('application/xml; charset=utf-8')
          .header('content-disposition', `attachment; filename="ehf-${request.params.number}.xml"`)
          .header('cache-control', 'private, no-store')
          .send(xml);
      },
    );

    typed.post(
      '/api/invoice/:ariaInvoiceNo/payment',
      { schema: { tags: ['billing'], params: invoicePaymentParamsSchema, body: createInvoicePaymentBodySchema, response: { 200: paymentRedirectSchema, ...errors } } },
      async (request) => billing.payOwnInvoice(request.user.id, request.params.ariaInvoiceNo, request.body),
    );

    typed.get(
      '/api/subscription/:accountNo/:titleCode/paymentMethod',
      { schema: { tags: ['billing'], params: paymentMethodParamsSchema, response: { 200: paymentMethodDetailsSchema, ...errors } } },
      async (request) => billing.paymentMethod(request.user.id, request.params.accountNo, request.params.titleCode),
    );

    typed.put(
      '/api/subscription/paymentMethod',
      { schema: { tags: ['billing'], body: changePaymentMethodBodySchema, response: { 200: changePaymentMethodResponseSchema, ...errors } } },
      async (request) => billing.changePaymentMethod(request.user.id, request.body),
    );

    typed.put('/api/subscription/card', { schema: { tags: ['billing'], body: changeCardBodySchema, response: { 200: paymentRedirectSchema, ...errors } } }, async (request) =>
      billing.changeCard(request.user.id, request.body),
    );

    typed.post('/api/addDiscount', { schema: { tags: ['billing'], body: addDiscountBodySchema, response: { 200: discountResponseSchema, ...errors } } }, async (request) => ({
      discount: await billing.addDiscount(request.user.id, request.body),
    }));

    typed.post('/api/getDiscountDetails', { schema: { tags: ['billing'], body: getDiscountDetailsBodySchema, response: { 200: discountResponseSchema, ...errors } } }, async (request) => ({
      discount: await billing.discountDetails(request.user.id, request.body.ariaAccountNo, request.body.titleCode),
    }));
  });

  // Public: the payer of a pay-link has no session; the token, or the session's own payment, is the credential.
  app.get('/api/payment/:paymentId', { schema: { tags: ['billing'], params: paymentParamsSchema, querystring: paymentQuerySchema, response: { 200: paymentSchema, ...errors } } }, async (request) => {
    const session = await sessions.find(request);
    return billing.getPayment(request.params.paymentId, { userId: session?.user.id ?? null, token: request.query.token });
  });

  // Pay-links: public, the token is the credential.
  app.get('/api/paylink/:token', { schema: { tags: ['billing'], params: paylinkParamsSchema, response: { 200: paylinkDetailsSchema, ...errors } } }, async (request) =>
    billing.paylinkDetails(request.params.token),
  );

  app.post(
    '/api/paylink/:token/payment',
    { schema: { tags: ['billing'], params: paylinkParamsSchema, body: createInvoicePaymentBodySchema, response: { 200: paymentRedirectSchema, ...errors } } },
    async (request) => billing.payByLink(request.params.token, request.body),
  );

  // The provider's webhook: authenticated by its signature over the exact body bytes.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (request, body, done) => {
      request.rawBody = body as string;
      done(null, {});
    });
    webhook
      .withTypeProvider<ZodTypeProvider>()
      .post(
        `/api/payment/callback/${providerName}`,
        { schema: { tags: ['billing'], description: 'Payment provider callback (signed).', body: paymentCallbackBodySchema, response: { 200: paymentCallbackResponseSchema, ...errors } } },
        async (request) => {
          const result = await engine.handleCallback({ method: request.method, pathAndQuery: request.url, headers: request.headers, rawBody: request.rawBody ?? '' });
          return { received: true, duplicate: result.duplicate };
        },
      );
  });

  // Operators (customer centre): a pay-link for an invoice, e.g. to send by SMS.
  await app.register(async (operator) => {
    operator.addHook('onRequest', operatorAuth(operatorToken));
    operator
      .withTypeProvider<ZodTypeProvider>()
      .post('/api/operator/paylink', { schema: { tags: ['operator'], body: createPaylinkBodySchema, response: { 200: createPaylinkResponseSchema, ...errors } } }, async (request) => {
        const link = await billing.createPaylink(request.body.ariaInvoiceNo, request.body.validDays);
        return { token: link.token, path: link.path, expiresAt: link.expiresAt };
      });
    operator.withTypeProvider<ZodTypeProvider>().post(
      '/api/operator/invoice/:ariaInvoiceNo/credit',
      {
        schema: {
          tags: ['operator'],
          description: 'Credit a whole invoice with a credit note: cancels it when unpaid, refunds a Vipps or card payment.',
          params: invoicePaymentParamsSchema,
          body: creditInvoiceBodySchema,
          response: { 200: creditInvoiceResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { creditNoteNumber, refunded } = await invoiceCrediting.creditInvoice(request.params.ariaInvoiceNo, request.body.reason);
        return { creditNoteNumber, refunded };
      },
    );
  });
};
