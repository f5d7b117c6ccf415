import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Catalogue } from '@minside/titles';
import { ConfigError, noRealPaymentProviderMessage, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { OneLinePerRequest } from './lib/request-log.ts';
import { responseSerializerCompiler } from './lib/response-check.ts';
import { redactUrl } from './lib/log-redaction.ts';
import { createClientErrorHandler, createFrameworkErrorHandler, registerErrorHandling } from './plugins/errors.ts';
import { registerEdgeRules } from './plugins/edge.ts';
import { securityHeaders, spaCsp } from './plugins/security-headers.ts';
import { registerSpa } from './pages/spa.ts';
import { createPageBootstrap } from './pages/spa-bootstrap.ts';
import { registerRouteTable } from './plugins/route-table.ts';
import { registerRouteScopes } from './plugins/route-scope.ts';
import { registerInputHygiene } from './plugins/input-hygiene.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { createAccountService, createChangeMails, createLifecycleService, registerSubscription } from './modules/subscription/index.ts';
import { registerProfile } from './modules/profile/index.ts';
import { createMailer } from './integrations/mail/index.ts';
import { mailUnsubscribeSecret } from './integrations/mail/unsubscribe.ts';
import { unsubscribeRoutes } from './integrations/mail/unsubscribe-routes.ts';
import { createComplaintCrediting, insertInvoice, invoicesToCreditOnCancel, registerBilling } from './modules/billing/index.ts';
import { registerOrdering } from './modules/ordering/index.ts';
import { registerConsent, thirdPartySources } from './modules/consent/index.ts';
import { registerPrivacy } from './modules/privacy/index.ts';
import { productJobs, registerJobs } from './jobs/index.ts';
import { registerDevMailPage } from './integrations/mail/dev-page.ts';
import { registerFamily } from './modules/family/index.ts';
import { createCalendarCache, registerDelivery } from './modules/delivery/index.ts';
import { registerBusiness } from './modules/business/index.ts';
import { registerStudent } from './modules/student/index.ts';
import { registerBank } from './modules/bank/index.ts';
import { registerHomeOverview } from './modules/overview/index.ts';
import { portalOriginFor } from './lib/portal-url.ts';
import { registerPortalOrigin } from './plugins/portal-origin.ts';
import { createSessionStore } from './plugins/session.ts';
import { createSharedState } from './lib/shared-state/index.ts';
import { createRelyingParty, inProcessFetch } from './identity/relying-party.ts';
import { startEmbeddedVippsLogin } from './identity/vipps-login/embedded.ts';
import { issuerDto, registerAuth, registerSignedIn, type LoginIssuer } from './modules/auth/index.ts';
import { userIdOfMainSubject } from './identity/main-subject.ts';
import { registerHealth } from './modules/health/index.ts';
import { registerTitles, wordmarkAt } from './modules/titles/index.ts';
import { registerContent } from './modules/content/index.ts';
import { issuerUrl } from './config.ts';
import { redirectPolicyFor } from './identity/portal-origins.ts';
import { embeddedClientCredentials, registerEmbeddedIdentityProvider } from './identity/provider/index.ts';
import { osloToday, type Clock } from '@minside/domain';

export interface AppDependencies {
  config: Config;
  database: Database;
  catalogue: Catalogue;
  /** The one clock every service, job and session reads (`systemClock` in the processes); tests set it. */
  now: Clock;
}

const requestIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds the whole server without listening: `bin/server.ts` listens, tests use `app.inject`. */
export async function buildApp({ config, database, catalogue, now }: AppDependencies): Promise<FastifyInstance> {
  const https = config.publicUrl?.startsWith('https://') ?? false;
  // Production never runs fake money nor a development page (issue 20). loadConfig already
  // refuses it for every process; this holds for a configuration made in code too.
  const production = config.production || https;
  if (production && config.paymentProvider === 'test') throw new ConfigError(noRealPaymentProviderMessage);
  // The headers every answer carries, also the ones given before there is a route (below).
  const edgeHeaders = securityHeaders({ https, sources: thirdPartySources(config.clientSettings) });
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        // Fastify's default, with one-time codes and token hints taken out of the URL.
        req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip }),
      },
    },
    logController: new OneLinePerRequest(),
    // Honour a load balancer's request id so one id follows a request across hops.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    // A hop count means: believe that many proxies in front of us (Fastify's function form).
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    bodyLimit: 256 * 1024,
    forceCloseConnections: 'idle',
    // The edge's onRequest (plugins/edge.ts) answers requests that arrive while closing, in Norwegian.
    return503OnClosing: false,
    // What Fastify and Node's HTTP parser refuse before there is a route (a path that does not
    // decode, a parameter over maxParamLength's 100 characters, a URL or headers over Node's
    // 16 KB maxHeaderSize, what is not HTTP) answers like every other error, with our headers
    // and in Norwegian, instead of Fastify's English that repeats the input (plugins/errors.ts).
    frameworkErrors: createFrameworkErrorHandler(edgeHeaders),
    clientErrorHandler: createClientErrorHandler(edgeHeaders),
    // Node answers a request without Host with a bare 400 of its own; plugins/errors.ts refuses it instead.
    http: { requireHostHeader: false },
  }).withTypeProvider<ZodTypeProvider>();
  registerRouteTable(app);
  // Marks every route with the edge rules it is under (CSRF, input hygiene, no-store), from the
  // path it is registered with: the rules never test the URL a request spells.
  registerRouteScopes(app);

  // JSON only: a text/plain body is what a cross-site form can send, so it gets a 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  // Every answer is checked against its response schema on the way out (ADR 020), compiled per schema (ADR 038).
  app.setSerializerCompiler(responseSerializerCompiler);
  // Request id, draining, Host, CSRF and the security headers: one onRequest and one onSend hook (ADR 039).
  registerEdgeRules(app, { https, sources: thirdPartySources(config.clientSettings) });
  registerErrorHandling(app);
  registerInputHygiene(app);
  if (production) refuseDevRoutes(app);
  await app.register(fastifyCookie);

  // Sessions, login tokens, throttles, rate limits and idempotent answers: Redis with REDIS_URL, else the database (ADR 018).
  const shared = await createSharedState({ config, db: database.db, now, log: app.log });
  app.addHook('onClose', () => shared.close());
  const sessions = createSessionStore({ db: database.db, https, now, records: shared.sessions });
  // Before compression: its onSend keeps the answer as the text the route sent (ADR 029).
  registerIdempotency(app, { store: shared.idempotency, sessions });
  // JSON answers over 1 KB go Brotli- or gzip-compressed to a browser that accepts it (an invoice
  // page of 120 rows is 43 KB of JSON, the FAQ 7 KB): Brotli at quality 4, cheap enough per
  // request. The built assets (precompressed copies) and index.html (compressed per request)
  // are handled in pages/spa.ts. Compressed request bodies are not accepted: they would slip
  // past `bodyLimit`.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
  await registerOpenApi(app);

  await registerHealth(app, { database, ...(shared.kind === 'redis' ? { redis: shared } : {}) });
  const titles = await registerTitles(app, { catalogue, config, db: database.db });

  const offeredCodes = new Set(catalogue.offered().map((entry) => entry.titleCode));
  const accounts = createAccountService({ db: database.db, isOfferedTitle: (code) => offeredCodes.has(code.toUpperCase()), now });
  const today = () => osloToday(now());
  // The main issuer's key: a user's login with it is their account at the embedded provider (ADR 028).
  const mainIssuerKey = config.oidcKey;
  const loginIssuers: LoginIssuer[] = [
    {
      key: mainIssuerKey,
      label: config.oidcIssuerLabel,
      claimProfile: config.oidcClaims,
      relyingParty: createRelyingParty({
        issuer: issuerUrl(config),
        clientId: config.oidcClientId,
        // With an external issuer the secret is configuration (required then); the embedded provider keeps its own.
        clientSecret: config.oidcIssuer ? async () => config.oidcClientSecret ?? '' : async () => (await embeddedClientCredentials(database, config)).clientSecret,
        ...(config.oidcIssuer ? {} : { fetch: inProcessFetch(app) }),
        ...(config.oidcScopes ? { scopes: config.oidcScopes } : {}),
        claimProfile: config.oidcClaims,
        today,
      }),
    },
  ];
  const redirectPolicy = redirectPolicyFor(config.publicUrl, catalogue);
  if (config.secondIssuer) {
    const second = config.secondIssuer;
    const client =
      second.kind === 'external'
        ? { issuer: second.issuer, clientId: second.clientId, clientSecret: second.clientSecret }
        : await startEmbeddedVippsLogin({
            registeredRedirectUri: new URL('/callback', config.publicUrl ?? `http://localhost:${config.port}`).href,
            redirectUriAllowed: (uri) => redirectPolicy.redirectUriAllowed(uri),
            today: today(),
            password: config.demoPassword,
            log: app.log,
          });
    if ('close' in client) app.addHook('onClose', () => client.close());
    loginIssuers.push({
      key: second.key,
      label: second.label,
      claimProfile: second.claims,
      relyingParty: createRelyingParty({
        issuer: client.issuer,
        clientId: client.clientId,
        clientSecret: async () => client.clientSecret,
        ...(second.scopes ? { scopes: second.scopes } : {}),
        claimProfile: second.claims,
        today,
      }),
    });
  }
  registerPortalOrigin(app, redirectPolicy);
  // app.authenticate and the request's session, user and subscriber(), for every signed-in area.
  registerSignedIn(app, { sessions, accounts, titles });
  const auth = await registerAuth(app, {
    db: database.db,
    issuers: loginIssuers,
    sessions,
    accounts,
    titles,
    identityProviderName: config.identityProviderName,
    now,
    loginAttempts: shared.loginAttempts,
  });
  const unsubscribe = { secret: await mailUnsubscribeSecret(database.db), origin: portalOriginFor(config, catalogue) };
  const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, dkim: config.mailDkim, unsubscribe, log: app.log, now });
  const changeMails = createChangeMails({ mailer, catalogue, portalOrigin: portalOriginFor(config, catalogue) });
  // Billing is registered further down; the cancellation asks it at run time, after its own commit,
  // and a reactivation has it bill the new period inside its own transaction (ADR 006).
  const lifecycle = createLifecycleService({
    db: database.db,
    accounts,
    catalogue,
    mails: changeMails,
    cancelledPeriods: { creditFor: (subscriptionId) => app.cancelledPeriods.creditFor(subscriptionId) },
    billPeriod: (tx, subscriptionId, periodFrom) => app.billingJobs.billPeriod(tx, subscriptionId, periodFrom),
    invoices: { insert: insertInvoice, toCreditOnCancel: invoicesToCreditOnCancel },
    now,
  });
  await registerSubscription(app, { accounts, lifecycle, identityProviderName: config.identityProviderName });
  await app.register(unsubscribeRoutes, { db: database.db, secret: unsubscribe.secret, catalogue, now });
  await registerProfile(app, {
    db: database.db,
    mailer,
    now,
    identityProviderName: config.identityProviderName,
    embeddedProvider: !config.oidcIssuer,
    mainIssuerKey,
    titleFor: (minsideUrl) => titles.titleFor(undefined, minsideUrl),
  });
  if (!config.smtpUrl && !production) registerDevMailPage(app, database.db, config.mailFrom);
  await registerFamily(app, {
    db: database.db,
    accounts,
    titles,
    mailer,
    now,
    log: app.log,
    identityProviderName: config.identityProviderName,
    defaultMaxMembers: config.familyMaxMembers,
    rateLimiter: shared.rateLimiter,
  });
  const calendarOf = createCalendarCache();
  const complaintCrediting = createComplaintCrediting({ db: database.db, catalogue, mailer, portalOrigin: portalOriginFor(config, catalogue) });
  const delivery = await registerDelivery(app, {
    db: database.db,
    catalogue,
    mailer,
    now,
    cutoffTime: config.deliveryCutoffTime,
    calendarOf,
    complaintCrediting,
    mails: changeMails,
    portalOrigin: portalOriginFor(config, catalogue),
    operatorToken: config.operatorToken,
  });
  await registerBusiness(app, { db: database.db, mailer, accounts, now, log: app.log, identityProviderName: config.identityProviderName });
  const student = await registerStudent(app, { db: database.db, mailer, accounts, titles, catalogue, now, domains: config.studentEmailDomains, identityProviderName: config.identityProviderName });
  await registerBilling(app, { config, db: database.db, catalogue, accounts, sessions, mailer, changeMails, now });
  await registerBank(app, { config, db: database.db, catalogue, mailer, now });
  await registerHomeOverview(app, { db: database.db, delivery, billing: app.billing, now });
  const ageVerifier = loginIssuers.map(issuerDto).find((issuer) => issuer.verifiesAge) ?? null;
  await registerOrdering(app, { config, db: database.db, catalogue, titles, accounts, sessions, mailer, calendarOf, now, rateLimiter: shared.rateLimiter, ageVerifier });
  await registerConsent(app, { db: database.db, now, catalogue, settings: config.clientSettings, isOfferedTitle: (code) => offeredCodes.has(code.toUpperCase()) });
  await registerContent(app, { contentDir: config.contentDir, catalogue, identityProviderName: config.identityProviderName });
  const privacy = await registerPrivacy(app, {
    db: database.db,
    mailer,
    lifecycle,
    now,
    identityProviderName: config.identityProviderName,
    mainIssuerKey,
    titleOf: (code) => titles.titleFor(code, 'http://localhost/'),
    endSessionsOf: (userId) => sessions.endAllOf(userId),
    catalogue,
    operatorToken: config.operatorToken,
  });
  await registerJobs(app, { config, db: database.db, now, jobs: productJobs(app, { mailer, privacy, student }) });
  if (!config.oidcIssuer) {
    await registerEmbeddedIdentityProvider(app, {
      config,
      database,
      catalogue,
      now,
      throttle: shared.loginThrottle,
      mailer,
      mailTitle: (titleCode) => titles.titleFor(titleCode, 'http://localhost/'),
      // A new password ends the portal sessions that the old one opened, as it ends the provider's.
      // The account is the user's login with the main issuer, which for a user who came by Vipps first is not their identity_sub.
      afterPasswordReset: async (sub) => {
        const userId = await userIdOfMainSubject(database.db, mainIssuerKey, sub);
        if (userId) await sessions.endAllOf(userId);
      },
    });
  }
  // index.html carries the answers of the SPA's first calls (docs/decisions/022).
  // The public pages come rendered (docs/decisions/032); their brand colours are an inline style the CSP names.
  const cspSources = thirdPartySources(config.clientSettings);
  await registerSpa(app, config.webDist, createPageBootstrap({ titles, auth, sessions, catalogue, settings: config.clientSettings }), {
    csp: (inline) => spaCsp(cspSources, inline),
    inlineSvg: (url, options) => wordmarkAt(titles.findByTitleDomain, url, options),
  });

  return app;
}

/**
 * In production no route under /_dev may exist, whichever module adds one: the finished route
 * table is checked when the app gets ready, so `listen` (and `ready`) fail with the routes named.
 */
function refuseDevRoutes(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    const dev = app.routeTable().filter((route) => route.url === '/_dev' || route.url.startsWith('/_dev/'));
    if (dev.length > 0) {
      throw new ConfigError(`Invalid configuration: development pages in production (NODE_ENV=production or an https PUBLIC_URL): ${dev.map((route) => `${route.method} ${route.url}`).join(', ')}`);
    }
  });
}
