import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emptyBodySchema,
  familyAcceptBodySchema,
  familyAcceptResponseSchema,
  familyInvitationParamsSchema,
  familyInvitationPreviewSchema,
  familyInviteBodySchema,
  familyInviteResponseSchema,
  familyLeaveResponseSchema,
  familyOverviewSchema,
  familyRemovalResponseSchema,
  familyTokenQuerySchema,
  sessionQuerySchema,
} from '@minside/domain';
import type { FamilyService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 410, 429);

/**
 * Family sharing under /api/family (SPEC §2): the owner's overview, invitations, resend,
 * withdraw/remove; a member leaving; and the invitee's link (preview and accept). Every
 * call needs a session; the owner calls act on the session's subscription on this title
 * (`?titleCode=` as for /api/session, else the host), so no other subscription can be named.
 */
export const familyRoutes: FastifyPluginAsyncZod<{ family: FamilyService }> = async (app, { family }) => {
  await app.register(
    async (area) => {
      const typed = area.withTypeProvider<ZodTypeProvider>();
      typed.addHook('onRequest', app.authenticate);

      typed.get('', { schema: { tags: ['family'], querystring: sessionQuerySchema, response: { 200: familyOverviewSchema, ...errors } } }, async (request) =>
        family.overview(await request.subscriber()),
      );

      typed.post(
        '/invitations',
        { schema: { tags: ['family'], querystring: sessionQuerySchema, body: familyInviteBodySchema, response: { 200: familyInviteResponseSchema, 201: familyInviteResponseSchema, ...errors } } },
        async (request, reply) => {
          const result = await family.invite(await request.subscriber(), request.body.email, request.portalOrigin());
          return reply.status(result.result === 'emailSent' ? 201 : 200).send(result);
        },
      );

      typed.post(
        '/invitations/:id/resend',
        { schema: { tags: ['family'], querystring: sessionQuerySchema, params: familyInvitationParamsSchema, body: emptyBodySchema, response: { 200: familyInviteResponseSchema, ...errors } } },
        async (request) => family.resend(await request.subscriber(), request.params.id, request.portalOrigin()),
      );

      typed.delete(
        '/invitations/:id',
        { schema: { tags: ['family'], querystring: sessionQuerySchema, params: familyInvitationParamsSchema, body: emptyBodySchema, response: { 200: familyRemovalResponseSchema, ...errors } } },
        async (request) => family.remove(await request.subscriber(), request.params.id),
      );

      typed.post('/leave', { schema: { tags: ['family'], querystring: sessionQuerySchema, body: emptyBodySchema, response: { 200: familyLeaveResponseSchema, ...errors } } }, async (request) =>
        family.leave(await request.subscriber()),
      );

      typed.get('/invitation', { schema: { tags: ['family'], querystring: familyTokenQuerySchema, response: { 200: familyInvitationPreviewSchema, ...errors } } }, async (request) =>
        family.preview(request.user, request.query.token),
      );

      typed.post('/invitation/accept', { schema: { tags: ['family'], body: familyAcceptBodySchema, response: { 200: familyAcceptResponseSchema, ...errors } } }, async (request) =>
        family.accept(request.user, request.body.token),
      );
    },
    { prefix: '/api/family' },
  );
};
