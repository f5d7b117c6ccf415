import type { EventEmitter } from 'node:events';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/client.ts';
import { createPayloadAdapterFactory } from './adapter.ts';
import { findIdentityAccountById } from './accounts.ts';
import { logoutPage, messagePage, pageCsp } from './pages.ts';
import type { RedirectPolicy } from '../portal-origins.ts';
import type { ProviderSecrets } from './secrets.ts';

const HOUR = 3600;

/** Lifetimes in seconds. A refresh token cannot outlive its grant, so both are 12 h. */
const ttl = {
  AuthorizationCode: 60,
  AccessToken: HOUR,
  IdToken: HOUR,
  RefreshToken: 12 * HOUR,
  Interaction: 30 * 60,
  Session: 12 * HOUR,
  Grant: 12 * HOUR,
} as const;

const claimsByScope = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['given_name', 'family_name', 'name'],
  phone: ['phone_number'],
};
const supportedScopes = new Set(['openid', 'offline_access', ...Object.keys(claimsByScope)]);
const supportedClaims = new Set(Object.values(claimsByScope).flat());

export interface EmbeddedProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The one redirect URI written into the client metadata; the policy decides the rest. */
  registeredRedirectUri: string;
  secrets: ProviderSecrets;
  db: Db;
  now: () => Date;
  policy: RedirectPolicy;
  /** Where "back" links point when there is no better place: the portal's front page. */
  homeUrl: string;
  logError: (error: unknown, message: string) => void;
}

const errorTexts: Record<string, string> = {
  invalid_redirect_uri: 'Innloggingen kom fra en adresse vi ikke kjenner igjen.',
  invalid_client: 'Innloggingen kom fra en tjeneste vi ikke kjenner igjen.',
  login_required: 'Du må logge inn på nytt.',
  access_denied: 'Innloggingen ble avbrutt.',
  session_not_found: 'Innloggingen tok for lang tid eller er allerede fullført.',
  server_error: 'Det oppstod en feil hos oss.',
};

function originOf(uri: unknown): string[] {
  return typeof uri === 'string' && URL.canParse(uri) ? [new URL(uri).origin] : [];
}

export function createEmbeddedProvider(options: EmbeddedProviderOptions): Provider {
  const { issuer, clientId, policy } = options;
  const mountPath = new URL(issuer).pathname.replace(/\/+$/, '');
  const secure = issuer.startsWith('https://');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure };

  const configuration: Configuration = {
    adapter: createPayloadAdapterFactory({
      db: options.db,
      now: options.now,
      onSweepError: (error) => options.logError(error, 'idp_payload sweep failed'),
    }),
    clients: [
      {
        client_id: clientId,
        client_secret: options.clientSecret,
        // Basic is registered; oidc-provider accepts client_secret_post for the same client too.
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [options.registeredRedirectUri],
        post_logout_redirect_uris: [new URL('/', options.registeredRedirectUri).href],
      },
    ],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    // The relying party is registered with a placeholder URI; it must always say where to return.
    allowOmittingSingleRegisteredRedirectUri: false,
    // The relying party talks to the token and userinfo endpoints from the server, never from a browser.
    clientBasedCORS: () => false,
    jwks: options.secrets.jwks as Configuration['jwks'],
    cookies: {
      names: { session: '_idp_session', interaction: '_idp_interaction', resume: '_idp_interaction_resume' },
      keys: options.secrets.cookieKeys,
      // The session cookie is only for the provider: the portal on the same host never sees it.
      // (The short-lived cookies get exact paths from oidc-provider; a path here would override them.)
      long: { ...cookieOptions, path: mountPath },
      short: cookieOptions,
    },
    scopes: [...supportedScopes],
    claims: claimsByScope,
    // The portal reads name and e-mail from the ID token; no userinfo round trip needed.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: { ...ttl },
    features: {
      devInteractions: { enabled: false },
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          const automatic = ctx.oidc.entities.IdTokenHint !== undefined;
          ctx.set('content-security-policy', pageCsp({ script: automatic ? 'auto-logout' : 'none', formTargets: originOf(ctx.oidc.params?.post_logout_redirect_uri) }));
          ctx.type = 'html';
          ctx.body = logoutPage({ form, automatic, cancelUrl: options.homeUrl });
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.set('content-security-policy', pageCsp());
          ctx.type = 'html';
          ctx.body = messagePage({
            title: 'Du er logget ut',
            message: 'Du er nå logget ut av Min Side.',
            link: { href: options.homeUrl, text: 'Tilbake til Min Side' },
          });
        },
      },
    },
    interactions: {
      policy: firstPartyPolicy(),
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx, sub) => {
      const account = await findIdentityAccountById(options.db, sub);
      // No tokens for an address never proven (issue 20), whatever session or code refers to it.
      if (!account?.emailVerified) return undefined;
      return {
        accountId: account.id,
        claims: async () => ({
          sub: account.id,
          email: account.email,
          email_verified: account.emailVerified,
          given_name: account.givenName,
          family_name: account.familyName,
          name: `${account.givenName} ${account.familyName}`.trim(),
          ...(account.phoneNumber ? { phone_number: account.phoneNumber } : {}),
        }),
      };
    },
    // First-party client: no consent screen. The grant simply covers what was asked for.
    loadExistingGrant: async (ctx) => loadOrExtendGrant(ctx, clientId),
    // Our own relying party may keep a user logged in without prompt=consent.
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    renderError: async (ctx, out, error) => {
      if (!(error instanceof errors.OIDCProviderError) || out.error === 'server_error') {
        options.logError(error, 'identity provider error page');
      }
      ctx.set('content-security-policy', pageCsp());
      ctx.type = 'html';
      ctx.body = messagePage({
        title: 'Noe gikk galt',
        message: `${errorTexts[out.error] ?? 'Vi kunne ikke fullføre innloggingen.'} Gå tilbake og prøv igjen.`,
        detail: `Feilkode: ${out.error}`,
        link: { href: options.homeUrl, text: 'Til Min Side' },
      });
    },
  };

  const provider = new Provider(issuer, configuration);
  // The app runs behind a load balancer (Fastify has trustProxy too): X-Forwarded-* is the truth.
  provider.proxy = true;

  // oidc-provider's recipe for redirect URIs that follow a rule instead of a list.
  const { prototype } = provider.Client;
  const registeredRedirectUriAllowed = prototype.redirectUriAllowed;
  const registeredPostLogoutUriAllowed = prototype.postLogoutRedirectUriAllowed;
  prototype.redirectUriAllowed = function redirectUriAllowed(this: typeof prototype & { clientId: string }, uri: string) {
    return this.clientId === clientId ? policy.redirectUriAllowed(uri) : registeredRedirectUriAllowed.call(this, uri);
  };
  prototype.postLogoutRedirectUriAllowed = function postLogoutRedirectUriAllowed(this: typeof prototype & { clientId: string }, uri: string) {
    return this.clientId === clientId ? policy.postLogoutRedirectUriAllowed(uri) : registeredPostLogoutUriAllowed.call(this, uri);
  };

  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth' && ctx.query.client_id === clientId) {
      const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope.split(' ') : [];
      const prompt = typeof ctx.query.prompt === 'string' ? ctx.query.prompt.split(' ').filter(Boolean) : [];
      // oidc-provider drops offline_access unless prompt includes consent (OIDC Core §11).
      // Our first-party client has no consent step, so its request counts as consented;
      // prompt=none cannot be combined with consent and stays without a refresh token.
      if (scope.includes('offline_access') && !prompt.includes('none') && !prompt.includes('consent')) {
        ctx.query = { ...ctx.query, prompt: [...prompt, 'consent'].join(' ') };
        // oidc-provider finds its mount path by locating req.url inside req.originalUrl.
        Object.assign(ctx.req, { originalUrl: `${mountPath}${ctx.url}` });
      }
    }
    await next();
  });

  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => options.logError(error, 'identity provider server error'));
  // Koa prints unhandled errors to stderr unless someone listens: route them to our logger.
  const koa: EventEmitter = provider;
  koa.on('error', (error: unknown) => options.logError(error, 'identity provider error'));
  return provider;
}

/** The default policy, except that prompt=consent asks nothing: a first-party client has no consent screen. */
function firstPartyPolicy() {
  const policy = interactionPolicy.base();
  policy.get('consent')?.checks.remove('consent_prompt');
  return policy;
}

async function loadOrExtendGrant(ctx: KoaContextWithOIDC, clientId: string) {
  const { client, session, provider } = ctx.oidc;
  if (!client || client.clientId !== clientId || !session?.accountId) return undefined;
  const accountId = session.accountId;

  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  // A grant of another account (a different person logged in on this browser) is not reused.
  const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ clientId, accountId });

  const scopes = [...ctx.oidc.requestParamScopes].filter((scope) => supportedScopes.has(scope));
  const claims = [...ctx.oidc.requestParamClaims].filter((claim) => supportedClaims.has(claim));
  if (scopes.length) grant.addOIDCScope(scopes);
  if (claims.length) grant.addOIDCClaims(claims);
  // A grant lives as long as the session that uses it.
  if (session.exp && (grant.exp ?? 0) < session.exp) grant.exp = session.exp;
  await grant.save();
  return grant;
}
