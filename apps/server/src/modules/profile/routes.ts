import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { confirmEmailBodySchema, emailChangeBodySchema, emailChangeResponseSchema, profileResponseSchema, profileUpdateResponseSchema, updateProfileBodySchema } from '@minside/domain';
import type { ProfileService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/** The signed-in user's own profile (SPEC §3 User profile) under /api/profile: there is no id to pass, so nobody else's can be asked for. */
export const profileRoutes: FastifyPluginAsyncZod<{ profile: ProfileService }> = async (app, { profile }) => {
  await app.register(
    async (area) => {
      area.addHook('onRequest', app.authenticate);
      const typed = area.withTypeProvider<ZodTypeProvider>();
      typed.get('', { schema: { tags: ['profile'], response: { 200: profileResponseSchema, ...errors } } }, async (request) => profile.getProfile(request.user));

      typed.put('', { schema: { tags: ['profile'], body: updateProfileBodySchema, response: { 200: profileUpdateResponseSchema, ...errors } } }, async (request) =>
        profile.updateProfile(request.user, request.body),
      );

      typed.post('/email-change', { schema: { tags: ['profile'], body: emailChangeBodySchema, response: { 202: emailChangeResponseSchema, ...errors } } }, async (request, reply) =>
        reply.status(202).send(await profile.requestEmailChange(request.user, request.body, request.portalOrigin())),
      );

      typed.post('/email-change/confirm', { schema: { tags: ['profile'], body: confirmEmailBodySchema, response: { 200: profileUpdateResponseSchema, ...errors } } }, async (request) =>
        profile.confirmEmailChange(request.user, request.body.token),
      );
    },
    { prefix: '/api/profile' },
  );
};
