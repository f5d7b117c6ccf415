import * as oidc from 'openid-client';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { ClaimProfile } from '../config/claim-profiles.ts';
import { defaultScopes, mapIssuerClaims, type IssuerClaims } from './claims.ts';

/** What the rest of the server needs from the OIDC relying party. */
export interface RelyingParty {
  readonly issuer: string;
  /** The provider's authorization URL for one login: scope, PKCE S256, state and nonce. */
  authorizationUrl(input: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<string>;
  /**
   * Exchanges the code at the token endpoint and validates the ID token (signature, iss,
   * aud, exp, nonce) and the state. Throws on any mismatch.
   */
  exchangeCode(input: { callbackUrl: URL; expectedState: string; expectedNonce: string; codeVerifier: string }): Promise<VerifiedLogin>;
  /** Whether this issuer issued the ID token (its `iss`): the session's logout goes to the issuer of its login. */
  issued(idToken: string): Promise<boolean>;
  /** Where to send the browser to end its session at the provider; null if it has no such endpoint. */
  endSessionUrl(input: { idToken: string; postLogoutRedirectUri: string }): Promise<string | null>;
}

/** A login the issuer vouched for: the ID token validated, and what the issuer said of the person (issue 24). */
export interface VerifiedLogin extends IssuerClaims {
  subject: string;
  idToken: string;
}

export interface RelyingPartyOptions {
  issuer: string;
  clientId: string;
  /** Resolved lazily: the embedded provider creates its secret on first start. */
  clientSecret: () => Promise<string>;
  /**
   * How to reach the provider. Undefined uses the network (any issuer). The embedded
   * provider is reached in-process through Fastify's request injection: a server does not
   * have to be able to call its own public URL (a hairpin through the load balancer), and
   * every request still goes through the provider's full HTTP handling.
   */
  fetch?: oidc.CustomFetch;
  /** What to ask for (OIDC_SCOPES); the claim profile's default scopes when not given. */
  scopes?: string;
  /** How the issuer names its claims (OIDC_CLAIMS): standard OpenID Connect, or Vipps Login's. */
  claimProfile?: ClaimProfile;
  /** Today in Oslo, for telling a birthdate from a date in the future. */
  today: () => string;
}

export function createRelyingParty(options: RelyingPartyOptions): RelyingParty {
  let configuration: Promise<oidc.Configuration> | undefined;
  const claimProfile = options.claimProfile ?? 'oidc';
  const scope = options.scopes ?? defaultScopes[claimProfile];

  // Discovery runs on first use, not at start: the portal starts (and serves its public
  // pages) while the provider is unreachable, and a failed discovery is retried next time.
  function discover(): Promise<oidc.Configuration> {
    configuration ??= (async () => {
      const secret = await options.clientSecret();
      const issuerUrl = new URL(options.issuer);
      const discovered = await oidc.discovery(issuerUrl, options.clientId, undefined, oidc.ClientSecretBasic(secret), {
        ...(options.fetch ? { [oidc.customFetch]: options.fetch } : {}),
        ...(issuerUrl.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: 10,
      });
      if (options.fetch) discovered[oidc.customFetch] = options.fetch;
      return discovered;
    })().catch((error: unknown) => {
      configuration = undefined;
      throw error;
    });
    return configuration;
  }

  return {
    issuer: options.issuer,

    async authorizationUrl({ redirectUri, state, nonce, codeVerifier }) {
      const config = await discover();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return url.href;
    },

    async exchangeCode({ callbackUrl, expectedState, expectedNonce, codeVerifier }) {
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: codeVerifier,
        expectedState,
        expectedNonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new Error('the provider returned no ID token');
      // Issuers like Vipps Login put only `sub` in the ID token and the rest at userinfo, with the
      // person's consent: ask it whenever it has the endpoint. fetchUserInfo checks its `sub` is the token's.
      const userinfo = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub) : {};
      return { subject: claims.sub, idToken: tokens.id_token, ...mapIssuerClaims(claimProfile, { ...claims, ...userinfo }, options.today()) };
    },

    async issued(idToken) {
      const config = await discover();
      // Read, not verified: it only chooses where to send the browser to log out, and the token was verified at login.
      const payload = idToken.split('.')[1];
      if (!payload) return false;
      try {
        return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown }).iss === config.serverMetadata().issuer;
      } catch {
        return false;
      }
    },

    async endSessionUrl({ idToken, postLogoutRedirectUri }) {
      const config = await discover();
      if (!config.serverMetadata().end_session_endpoint) return null;
      return oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri }).href;
    },
  };
}

/** A fetch that hands requests for the embedded provider to the app itself (see RelyingPartyOptions.fetch). */
export function inProcessFetch(app: FastifyInstance): oidc.CustomFetch {
  return async (url, init) => {
    const target = new URL(url);
    const body = init.body;
    const response = await app.inject({
      method: init.method as InjectOptions['method'],
      url: target.pathname + target.search,
      headers: { ...init.headers, host: target.host, 'x-forwarded-proto': target.protocol.replace(':', '') },
      ...(body === undefined || body === null ? {} : { payload: typeof body === 'string' ? body : body.toString() }),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const status = response.statusCode;
    return new Response(status === 204 || status === 304 ? null : response.rawPayload, { status, headers });
  };
}
