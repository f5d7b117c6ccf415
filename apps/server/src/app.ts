import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Catalogue } from '@minside/titles';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { titleRoutes } from './modules/titles/routes.ts';
import { createTitleService } from './modules/titles/service.ts';

export interface AppDependencies {
  config: Config;
  database: Database;
  catalogue: Catalogue;
}

const requestIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds the whole server without listening: `main.ts` listens, tests use `app.inject`. */
export async function buildApp({ config, database, catalogue }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // Honour a load balancer's request id so one id follows a request across hops.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: true,
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  // JSON only: a text/plain body is what a cross-site form can send, so it gets a 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  registerSecurityHeaders(app, { https: config.publicUrl?.startsWith('https://') ?? false });

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Min Side API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { database });
  await app.register(titleRoutes, { titles: createTitleService({ catalogue, config, db: database.db }) });
  await registerSpa(app, config.webDist);

  return app;
}
