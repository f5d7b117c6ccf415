import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  businessConfirmBodySchema,
  businessConfirmResponseSchema,
  businessInvitationActionResponseSchema,
  businessInvitationParamsSchema,
  businessInviteBodySchema,
  businessInviteResponseSchema,
  businessMembersCsv,
  businessMembersQuerySchema,
  businessOverviewSchema,
  businessRemoveBodySchema,
  businessRemoveResponseSchema,
  businessVerifyBodySchema,
  businessVerifyResponseSchema,
  einvoiceRecipientBodySchema,
  einvoiceRecipientResponseSchema,
  emptyBodySchema,
  fileAnswer,
  sessionQuerySchema,
} from '@minside/domain';
import type { BusinessService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 429);

/**
 * The business area under /api/business (SPEC §7 names no calls for it). Every call needs a
 * session (one hook for the whole prefix); the admin calls also need the admin's company
 * subscription on the title (`?titleCode=`, else the host's), or answer 403.
 */
export const businessRoutes: FastifyPluginAsyncZod<{ business: BusinessService }> = async (app, { business }) => {
  await app.register(
    async (area) => {
      const typed = area.withTypeProvider<ZodTypeProvider>();
      typed.addHook('onRequest', app.authenticate);
      const admin = async (request: Pick<FastifyRequest, 'subscriber'>) => business.adminContext(await request.subscriber());

      typed.get('/members', { schema: { tags: ['business'], querystring: sessionQuerySchema, response: { 200: businessOverviewSchema, ...errors } } }, async (request) =>
        business.overview(await admin(request)),
      );

      typed.get(
        '/members/export',
        { schema: { tags: ['business'], querystring: businessMembersQuerySchema, response: { 200: fileAnswer('text/csv', "The company's members, one row each."), ...errors } } },
        async (request, reply) => {
          const ctx = await admin(request);
          const csv = businessMembersCsv(await business.exportCsvRows(ctx, request.query.q));
          return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="ansatte-${ctx.companyDomain}.csv"`).header('cache-control', 'no-store').send(csv);
        },
      );

      typed.get(
        '/einvoice',
        {
          schema: {
            tags: ['business'],
            description: "Where the company's EHF invoices go (issue 23), or null.",
            querystring: sessionQuerySchema,
            response: { 200: einvoiceRecipientResponseSchema, ...errors },
          },
        },
        async (request) => ({ einvoice: await business.einvoice(await admin(request)) }),
      );

      typed.put(
        '/einvoice',
        {
          schema: {
            tags: ['business'],
            description: 'Receive invoices as EHF (PEPPOL BIS Billing 3.0), addressed to the company by organisation number.',
            querystring: sessionQuerySchema,
            body: einvoiceRecipientBodySchema,
            response: { 200: einvoiceRecipientResponseSchema, ...errors },
          },
        },
        async (request) => ({ einvoice: await business.setEinvoice(await admin(request), request.body) }),
      );

      typed.delete(
        '/einvoice',
        {
          schema: {
            tags: ['business'],
            description: 'Stop EHF: invoices by e-mail again.',
            querystring: sessionQuerySchema,
            body: emptyBodySchema,
            response: { 200: einvoiceRecipientResponseSchema, ...errors },
          },
        },
        async (request) => {
          await business.clearEinvoice(await admin(request));
          return { einvoice: null };
        },
      );

      typed.post(
        '/invitations',
        { schema: { tags: ['business'], querystring: sessionQuerySchema, body: businessInviteBodySchema, response: { 200: businessInviteResponseSchema, ...errors } } },
        async (request) => business.invite(await admin(request), request.body.emails, request.portalOrigin()),
      );

      typed.post(
        '/invitations/:id/resend',
        {
          schema: {
            tags: ['business'],
            description: 'Send a pending invitation again (at most once in a few minutes).',
            querystring: sessionQuerySchema,
            params: businessInvitationParamsSchema,
            body: emptyBodySchema,
            response: { 200: businessInvitationActionResponseSchema, ...errors },
          },
        },
        async (request) => business.resendInvitation(await admin(request), request.params.id, request.portalOrigin()),
      );

      typed.delete(
        '/invitations/:id',
        {
          schema: {
            tags: ['business'],
            description: 'Withdraw a pending invitation: its link and codes stop working.',
            querystring: sessionQuerySchema,
            params: businessInvitationParamsSchema,
            body: emptyBodySchema,
            response: { 200: businessInvitationActionResponseSchema, ...errors },
          },
        },
        async (request) => business.withdrawInvitation(await admin(request), request.params.id),
      );

      typed.post(
        '/members/remove',
        { schema: { tags: ['business'], querystring: sessionQuerySchema, body: businessRemoveBodySchema, response: { 200: businessRemoveResponseSchema, ...errors } } },
        async (request) => business.remove(await admin(request), request.body.ids),
      );

      typed.post(
        '/verification',
        { schema: { tags: ['business'], querystring: sessionQuerySchema, body: businessVerifyBodySchema, response: { 200: businessVerifyResponseSchema, ...errors } } },
        async (request) => business.startVerification(request.user, request.title, request.body.email),
      );

      typed.post(
        '/verification/confirm',
        { schema: { tags: ['business'], querystring: sessionQuerySchema, body: businessConfirmBodySchema, response: { 200: businessConfirmResponseSchema, ...errors } } },
        async (request) => business.confirmVerification(request.user, request.title, request.body.email, request.body.code),
      );
    },
    { prefix: '/api/business' },
  );
};
