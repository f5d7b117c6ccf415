import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Catalogue } from '@minside/titles';
import { embeddedIssuerUrl, type Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { interactionRoutes } from './interactions.ts';
import { pageCsp } from './pages.ts';
import { createEmbeddedProvider } from './provider.ts';
import { securityHeaders } from '../../plugins/security-headers.ts';
import { redirectPolicyFor } from '../portal-origins.ts';
import { embeddedClientCredentials, loadProviderSecrets } from './secrets.ts';
import { createLoginThrottle, type LoginThrottle } from '../../lib/shared-state/database-login-throttle.ts';
import { createSignups } from './signup.ts';
import { createPasswordResets } from './password-reset.ts';
import type { Mailer, MailTitle } from '../../integrations/mail/index.ts';
import { systemClock } from '@minside/domain';

export { embeddedClientCredentials } from './secrets.ts';
export { upsertIdentityAccount } from './accounts.ts';

export interface EmbeddedIdentityProviderDependencies {
  config: Config;
  database: Database;
  catalogue: Catalogue;
  /** The clock of the login throttle and the storage expiry; tests move it. */
  now?: () => Date;
  /** The password throttle (Redis with REDIS_URL, ADR 018); the database one when not given. */
  throttle?: LoginThrottle;
  /** Sign-up codes and notices go through the portal's outbox. */
  mailer: Mailer;
  /** The title a sign-up mail carries, by title code (the fallback title without one). */
  mailTitle: (titleCode: string | undefined) => MailTitle;
  /** After "Glemt passord?" set a new password for login `accountId` (the `sub`): the portal ends that person's sessions. */
  afterPasswordReset?: (accountId: string) => Promise<void>;
}

export interface EmbeddedIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Mounts oidc-provider (a Koa app) at the issuer's path, normally `/idp`: a catch-all
 * route hijacks the reply and hands the raw request and response to the provider, with
 * the mount path stripped from `req.url` (`req.originalUrl` keeps it, and oidc-provider
 * derives its absolute URLs from the difference). The login pages oidc-provider sends the
 * browser to are ordinary Fastify routes under the same path (more specific, so they win).
 */
export async function registerEmbeddedIdentityProvider(app: FastifyInstance, deps: EmbeddedIdentityProviderDependencies): Promise<EmbeddedIdentityProvider> {
  const { config, database, catalogue } = deps;
  const now = deps.now ?? systemClock;
  const issuer = embeddedIssuerUrl(config);
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const https = issuer.startsWith('https://');
  const homeUrl = config.publicUrl ?? '/';
  const logError = (error: unknown, message: string) => app.log.error({ err: error }, message);

  const secrets = await loadProviderSecrets(database.db);
  const { clientId, clientSecret } = await embeddedClientCredentials(database, config);
  const policy = redirectPolicyFor(config.publicUrl, catalogue);
  const provider = createEmbeddedProvider({
    issuer,
    clientId,
    clientSecret,
    registeredRedirectUri: new URL('/callback', config.publicUrl ?? `http://localhost:${config.port}`).href,
    secrets,
    db: database.db,
    now,
    policy,
    homeUrl,
    logError,
  });
  const throttle = deps.throttle ?? createLoginThrottle({ db: database.db, now, onSweepError: (error) => logError(error, 'idp_login_failure sweep failed') });

  const signups = createSignups({ db: database.db, mailer: deps.mailer, now, onSweepError: (error) => logError(error, 'idp_signup sweep failed') });
  const passwordResets = createPasswordResets({
    db: database.db,
    mailer: deps.mailer,
    now,
    ...(deps.afterPasswordReset ? { afterReset: deps.afterPasswordReset } : {}),
    onError: logError,
  });
  await app.register(interactionRoutes, { prefix: mountPath, provider, db: database.db, throttle, policy, mountPath, homeUrl, signups, passwordResets, mailTitle: deps.mailTitle });

  await app.register(async (scope) => {
    // oidc-provider reads its own request bodies from the stream; Fastify must leave it unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const handle = provider.callback();
    const providerHeaders = securityHeaders({ https, csp: pageCsp({ script: 'provider' }) });
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const { raw: req } = request;
      const { raw: res } = reply;
      const url = req.url ?? mountPath;
      Object.assign(req, { originalUrl: url });
      const rest = url.slice(mountPath.length);
      req.url = rest.startsWith('/') ? rest : `/${rest}`;

      // The hijacked response skips Fastify's onSend hooks: carry over what onRequest set
      // (x-request-id) and add the security headers here. Provider pages replace the CSP.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) res.setHeader(name, value);
      }
      for (const [name, value] of Object.entries(providerHeaders)) res.setHeader(name, value);

      try {
        await handle(req, res);
      } catch (error) {
        // Koa answers its own errors; this is only reached if that machinery itself failed.
        request.log.error({ err: error }, 'identity provider failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    };
    for (const url of [mountPath, `${mountPath}/*`]) {
      // OpenID Connect has its own contract (the discovery document at <issuer>/.well-known/openid-configuration): not in /api/docs.
      scope.route({ method: [...methods], url, handler, exposeHeadRoute: false, schema: { hide: true } });
    }
  });

  return { issuer, clientId, clientSecret };
}
