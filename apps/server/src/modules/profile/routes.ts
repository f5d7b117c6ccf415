import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmEmailBodySchema,
  emailChangeBodySchema,
  emailChangeResponseSchema,
  profileResponseSchema,
  profileUpdateResponseSchema,
  updateProfileBodySchema,
} from '@minside/domain';
import type { SessionStore } from '../../plugins/session.ts';
import type { ProfileService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/** The signed-in user's own profile (SPEC §3 User profile): there is no id to pass, so nobody else's can be asked for. */
export const profileRoutes: FastifyPluginAsyncZod<{ profile: ProfileService; sessions: SessionStore }> = async (app, { profile, sessions }) => {
  app.get('/api/profile', { schema: { tags: ['profile'], response: { 200: profileResponseSchema, ...errors } } }, async (request) => {
    const { user } = await sessions.require(request);
    return profile.getProfile(user);
  });

  app.put(
    '/api/profile',
    { schema: { tags: ['profile'], body: updateProfileBodySchema, response: { 200: profileUpdateResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return profile.updateProfile(user, request.body);
    },
  );

  app.post(
    '/api/profile/email-change',
    { schema: { tags: ['profile'], body: emailChangeBodySchema, response: { 202: emailChangeResponseSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await sessions.require(request);
      const result = await profile.requestEmailChange(user, request.body, request.portalOrigin());
      return reply.status(202).send(result);
    },
  );

  app.post(
    '/api/profile/email-change/confirm',
    { schema: { tags: ['profile'], body: confirmEmailBodySchema, response: { 200: profileUpdateResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return profile.confirmEmailChange(user, request.body.token);
    },
  );
};
