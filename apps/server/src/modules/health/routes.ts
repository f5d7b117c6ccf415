import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema, errorCodes, errorMessages } from '@minside/domain';
import type { Database } from '../../db/client.ts';

/** Liveness (the process answers) and readiness (the database answers too, and Redis when REDIS_URL is set). */
export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; redis?: { ping(): Promise<void> } }> = async (app, { database, redis }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/readyz', { schema: { hide: true, response: { 200: z.object({ status: z.literal('ready') }), 503: apiErrorSchema } } }, async (request, reply) => {
    try {
      await withTimeout(database.ping(), 2_000);
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed: database does not answer');
      return reply.status(503).send({ code: errorCodes.unavailable, message: errorMessages.unavailable });
    }
    try {
      if (redis) await withTimeout(redis.ping(), 2_000);
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed: redis does not answer');
      return reply.status(503).send({ code: errorCodes.unavailable, message: errorMessages.unavailable });
    }
    return { status: 'ready' as const };
  });
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
