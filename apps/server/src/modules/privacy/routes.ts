import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  deletionRequestBodySchema,
  deletionStateSchema,
  emptyBodySchema,
  exportIdParamsSchema,
  exportListSchema,
  exportRequestSchema,
  fileAnswer,
  privacyJobResultSchema,
} from '@minside/domain';
import { operatorAuth } from '../../plugins/operator-auth.ts';
import type { PrivacyService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 410, 429);

export interface PrivacyRouteDeps {
  privacy: PrivacyService;
  operatorToken: string | undefined;
}

/**
 * The data-rights calls behind /{idp}TakeoutGateway and /{idp}DeleteGateway. Every call is
 * about the session's own user (no user id in the path); an export id of someone else is 404.
 * The server needs only a session: the subscription the route table asks for is a page rule,
 * and data rights belong to anyone we hold data about.
 */
export const privacyRoutes: FastifyPluginAsyncZod<PrivacyRouteDeps> = async (app, { privacy, operatorToken }) => {
  await app.register(
    async (area) => {
      area.addHook('onRequest', app.authenticate);
      const typed = area.withTypeProvider<ZodTypeProvider>();
      typed.get('/export', { schema: { tags: ['privacy'], response: { 200: exportListSchema, ...errors } } }, async (request) => privacy.listExports(request.user.id));

      typed.post('/export', { schema: { tags: ['privacy'], body: emptyBodySchema, response: { 200: exportRequestSchema, ...errors } } }, async (request) =>
        privacy.requestExport(request.user, request.portalOrigin()),
      );

      typed.get(
        '/export/:id/download',
        { schema: { tags: ['privacy'], params: exportIdParamsSchema, response: { 200: fileAnswer('application/zip', 'The data export: minside-data.json and LESMEG.txt.'), ...errors } } },
        async (request, reply) => {
          const { archive, requestedAt } = await privacy.exportArchive(request.user.id, request.params.id);
          return reply
            .header('content-type', 'application/zip')
            .header('content-disposition', `attachment; filename="minside-data-${requestedAt.toISOString().slice(0, 10)}.zip"`)
            .header('cache-control', 'no-store')
            .send(Buffer.from(archive));
        },
      );

      typed.get('/deletion', { schema: { tags: ['privacy'], response: { 200: deletionStateSchema, ...errors } } }, async (request) => privacy.getDeletion(request.user.id));

      typed.post('/deletion', { schema: { tags: ['privacy'], body: deletionRequestBodySchema, response: { 200: deletionStateSchema, ...errors } } }, async (request) =>
        privacy.requestDeletion(request.user, request.body, request.portalOrigin()),
      );
    },
    { prefix: '/api/privacy' },
  );

  // Operator: run the jobs now (issue 11's scheduler calls the same functions; e2e calls these).
  const operator = operatorAuth(operatorToken);
  app.post(
    '/api/operator/jobs/data-export',
    { schema: { tags: ['operator'], body: emptyBodySchema, response: { 200: privacyJobResultSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema } }, onRequest: operator },
    async () => ({
      processed: await privacy.runExports(),
    }),
  );
  app.post(
    '/api/operator/jobs/data-erasure',
    { schema: { tags: ['operator'], body: emptyBodySchema, response: { 200: privacyJobResultSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema } }, onRequest: operator },
    async () => ({
      processed: await privacy.runErasures(),
    }),
  );
};
