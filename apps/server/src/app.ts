import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Catalogue } from '@minside/titles';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { redactUrl } from './lib/log-redaction.ts';
import { registerCsrfProtection } from './plugins/csrf.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { titleRoutes } from './modules/titles/routes.ts';
import { createTitleService } from './modules/titles/service.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { createAuthService } from './modules/auth/service.ts';
import { subscriptionRoutes } from './modules/subscription/routes.ts';
import { createAccountService } from './modules/subscription/service.ts';
import { createSessionStore } from './plugins/session.ts';
import { createRelyingParty, inProcessFetch } from './identity/relying-party.ts';
import { issuerUrl } from './config.ts';
import { redirectPolicyFor } from './identity/portal-origins.ts';
import { embeddedClientCredentials, registerEmbeddedIdentityProvider } from './identity/provider/index.ts';

export interface AppDependencies {
  config: Config;
  database: Database;
  catalogue: Catalogue;
  /** The clock for sessions and login tokens; tests move it. */
  now?: () => Date;
}

const requestIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds the whole server without listening: `main.ts` listens, tests use `app.inject`. */
export async function buildApp({ config, database, catalogue, now = () => new Date() }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        // Fastify's default, with one-time codes and token hints taken out of the URL.
        req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip }),
      },
    },
    // Honour a load balancer's request id so one id follows a request across hops.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    // A hop count means: believe that many proxies in front of us (Fastify's function form).
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
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
  registerCsrfProtection(app);
  const https = config.publicUrl?.startsWith('https://') ?? false;
  registerSecurityHeaders(app, { https });
  await app.register(fastifyCookie);

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Min Side API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { database });
  const titles = createTitleService({ catalogue, config, db: database.db });
  await app.register(titleRoutes, { titles });

  const sessions = createSessionStore({ db: database.db, https, now });
  const offeredCodes = new Set(catalogue.offered().map((entry) => entry.titleCode));
  const accounts = createAccountService({ db: database.db, isOfferedTitle: (code) => offeredCodes.has(code.toUpperCase()) });
  const relyingParty = createRelyingParty({
    issuer: issuerUrl(config),
    clientId: config.oidcClientId,
    // With an external issuer the secret is configuration (required then); the embedded provider keeps its own.
    clientSecret: config.oidcIssuer
      ? async () => config.oidcClientSecret ?? ''
      : async () => (await embeddedClientCredentials(database, config)).clientSecret,
    ...(config.oidcIssuer ? {} : { fetch: inProcessFetch(app) }),
  });
  const portalOrigins = redirectPolicyFor(config.publicUrl, catalogue);
  const auth = createAuthService({ db: database.db, relyingParty, sessions, accounts, titles, identityProviderName: config.identityProviderName, portalOrigins, now });
  await app.register(authRoutes, { auth });
  await app.register(subscriptionRoutes, { accounts, sessions, identityProviderName: config.identityProviderName });
  if (!config.oidcIssuer) await registerEmbeddedIdentityProvider(app, { config, database, catalogue, now });
  await registerSpa(app, config.webDist);

  return app;
}
