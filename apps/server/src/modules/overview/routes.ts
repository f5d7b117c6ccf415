import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { homeOverviewSchema, sessionQuerySchema } from '@minside/domain';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import type { SessionStore } from '../../plugins/session.ts';
import type { HomeOverviewService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 404);

/** GET /api/overview (issue 25.10): the home page's facts in one round trip, for the session's subscription on this title. */
export const homeOverviewRoutes: FastifyPluginAsyncZod<{ overview: HomeOverviewService; sessions: SessionStore }> = async (app, { overview, sessions }) => {
  app.get(
    '/api/overview',
    { schema: { tags: ['subscription'], querystring: sessionQuerySchema, response: { 200: homeOverviewSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return overview.overview(user, request.query.titleCode, requestUrlOf(request));
    },
  );
};
