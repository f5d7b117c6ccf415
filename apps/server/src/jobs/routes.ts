import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema, emptyBodySchema, jobListSchema, jobNameParamsSchema, jobRunSchema } from '@minside/domain';
import { operatorAuth } from '../plugins/operator-auth.ts';
import type { JobRunner } from './runner.ts';

/**
 * Operators (OPERATOR_TOKEN): the jobs with their last runs, and "run one now", claimed like
 * a scheduled run, so it never runs beside another run of the same job (409 JOB_RUNNING).
 * The call answers when the run has finished, with its record (a failed run is still 200:
 * the request succeeded, the record says how the job went).
 */
export const jobRoutes: FastifyPluginAsyncZod<{ runner: JobRunner; operatorToken: string | undefined }> = async (app, { runner, operatorToken }) => {
  const operator = operatorAuth(operatorToken);
  app.get('/api/operator/jobs', { schema: { tags: ['operator'], response: { 200: jobListSchema, 401: apiErrorSchema, 404: apiErrorSchema } }, onRequest: operator }, async () => ({
    jobs: await runner.status(),
  }));
  app.post(
    '/api/operator/jobs/:name/run',
    {
      schema: {
        tags: ['operator'],
        params: jobNameParamsSchema,
        body: emptyBodySchema,
        response: { 200: jobRunSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
      onRequest: operator,
    },
    async (request) => runner.runNow(request.params.name),
  );
};
