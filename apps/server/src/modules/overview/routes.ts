import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { homeOverviewSchema, sessionQuerySchema } from '@minside/domain';
import type { HomeOverviewService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 404);

/** GET /api/overview (issue 25.10): the home page's facts in one round trip, for the session's subscription on this title. */
export const homeOverviewRoutes: FastifyPluginAsyncZod<{ overview: HomeOverviewService }> = async (app, { overview }) => {
  app.get('/api/overview', { onRequest: app.authenticate, schema: { tags: ['subscription'], querystring: sessionQuerySchema, response: { 200: homeOverviewSchema, ...errors } } }, async (request) =>
    overview.overview(await request.subscriber()),
  );
};
