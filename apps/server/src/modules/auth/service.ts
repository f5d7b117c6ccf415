import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import {
  authErrorCodes,
  authErrorMessages,
  type HandleCodeBody,
  type HandleCodeResponse,
  type LoginTokenResponse,
  type SessionResponse,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { appUser } from '../../db/schema.ts';
import type { RelyingParty, VerifiedLogin } from '../../identity/relying-party.ts';
import { AppError } from '../../lib/app-error.ts';
import { databaseLoginAttempts, type LoginAttempts } from '../../lib/shared-state/login-attempts.ts';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import { hashToken, randomToken, type SessionStore } from '../../plugins/session.ts';
import { applyIssuerClaims } from '../profile/provenance.ts';
import type { AccountService } from '../subscription/service.ts';
import { toAccountDto, toUserDto } from '../subscription/service.ts';
import type { TitleService } from '../titles/service.ts';

/**
 * A login token is good for 30 minutes, as long as the provider's login interaction: a slow
 * typist is never told the login expired after the provider accepted the password.
 */
export const LOGIN_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Where the provider sends the browser after ending its session (a public page). */
export const AFTER_LOGOUT_PATH = '/kundeservice';

export interface AuthServiceDeps {
  db: Db;
  relyingParty: RelyingParty;
  sessions: SessionStore;
  accounts: AccountService;
  titles: TitleService;
  identityProviderName: string;
  /** The issuer as the profile names the fields it gave: "fra Vipps" (issue 24). */
  issuerLabel: string;
  now: () => Date;
  /** Where login attempts live (lib/shared-state): the database unless REDIS_URL is set. */
  loginAttempts?: LoginAttempts;
}

function loginInvalid(): AppError {
  return new AppError(400, authErrorCodes.loginStateInvalid, authErrorMessages.loginStateInvalid);
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, relyingParty, sessions, accounts, titles, identityProviderName, issuerLabel, now } = deps;
  const attempts = deps.loginAttempts ?? databaseLoginAttempts(db);

  async function sessionView(userRow: typeof appUser.$inferSelect, titleCode: string) {
    const accountRow = await accounts.accountOf(userRow.id);
    return {
      user: toUserDto(userRow, identityProviderName),
      account: accountRow ? toAccountDto(accountRow, userRow, identityProviderName) : null,
      subscription: accountRow ? await accounts.subscriptionForTitle(accountRow, titleCode) : null,
    };
  }

  /**
   * The portal's user for a verified identity: found by its `sub`, created at first login, and
   * brought up to date with what the issuer says at every login (modules/profile/provenance.ts).
   */
  async function userFor(login: VerifiedLogin) {
    await db
      .insert(appUser)
      .values({ id: randomUUID(), identitySub: login.subject, email: login.email })
      .onConflictDoNothing({ target: appUser.identitySub });
    const [row] = await db.select().from(appUser).where(eq(appUser.identitySub, login.subject));
    if (!row) throw new Error('user row missing right after insert');
    return applyIssuerClaims(db, row, login, issuerLabel, now());
  }

  return {
    /**
     * GET /api/loginToken: a one-time token that is the OIDC `state`, bound to this browser by
     * an HttpOnly cookie, with a fresh PKCE verifier and nonce kept on the server.
     */
    async startLogin(
      request: FastifyRequest,
      reply: FastifyReply,
      input: { returnTo?: string | undefined; titleCode?: string | undefined },
    ): Promise<LoginTokenResponse> {
      const origin = request.portalOrigin();
      const title = titles.titleFor(input.titleCode, `${origin}/`);
      const loginToken = randomToken();
      const binding = request.cookies[sessions.cookies.names.loginBinding] ?? randomToken();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const redirectUri = `${origin}/callback`;
      const at = now();
      let authorizationUrl: string;
      try {
        authorizationUrl = await relyingParty.authorizationUrl({ redirectUri, state: loginToken, nonce, codeVerifier });
      } catch (error) {
        request.log.error({ err: error }, 'identity provider unreachable (discovery failed)');
        throw new AppError(503, authErrorCodes.providerUnavailable, authErrorMessages.providerUnavailable);
      }
      await attempts.save(
        hashToken(loginToken),
        {
          browserBindingHash: hashToken(binding),
          codeVerifier,
          nonce,
          redirectUri,
          returnTo: input.returnTo ?? '/',
          titleCode: title.titleCode,
          expiresAt: new Date(at.getTime() + LOGIN_TOKEN_TTL_MS),
        },
        at,
      );
      reply.setCookie(sessions.cookies.names.loginBinding, binding, { ...sessions.cookies.options, maxAge: LOGIN_TOKEN_TTL_MS / 1000 });
      return { loginToken, authorizationUrl };
    },

    /**
     * POST /api/handlecode: the state must be a login token this browser started, unused and
     * unexpired; then the code is exchanged and the ID token validated. Any failure refuses
     * with 4xx and creates no session.
     */
    async completeLogin(request: FastifyRequest, reply: FastifyReply, body: HandleCodeBody, log: FastifyBaseLogger): Promise<HandleCodeResponse> {
      const at = now();
      const binding = request.cookies[sessions.cookies.names.loginBinding];
      if (!binding) throw loginInvalid();
      // Claimed atomically, and only by the browser that started it: a replayed state finds it
      // used even when both arrive at once, and another browser's post leaves it untouched.
      const attempt = await attempts.claim(hashToken(body.state), hashToken(binding), at);
      if (!attempt) throw loginInvalid();
      if (at.getTime() > attempt.expiresAt.getTime()) {
        throw new AppError(400, authErrorCodes.loginExpired, authErrorMessages.loginExpired);
      }

      const callbackUrl = new URL(attempt.redirectUri);
      callbackUrl.searchParams.set('code', body.code);
      callbackUrl.searchParams.set('state', body.state);
      if (body.iss !== undefined) callbackUrl.searchParams.set('iss', body.iss);
      let login: VerifiedLogin;
      try {
        login = await relyingParty.exchangeCode({ callbackUrl, expectedState: body.state, expectedNonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
      } catch (error) {
        log.warn({ err: error }, 'login refused: code exchange or ID token validation failed');
        throw new AppError(400, authErrorCodes.loginFailed, authErrorMessages.loginFailed);
      }
      if (body.identityId !== undefined && body.identityId !== login.subject) {
        throw new AppError(400, authErrorCodes.identityMismatch, authErrorMessages.identityMismatch);
      }

      const userRow = await userFor(login);
      await sessions.create(request, reply, { userId: userRow.id, idToken: login.idToken });
      reply.clearCookie(sessions.cookies.names.loginBinding, sessions.cookies.options);
      return { ...(await sessionView(userRow, attempt.titleCode)), returnTo: attempt.returnTo };
    },

    /** GET /api/session: who is signed in, on which title; 401 when nobody is. */
    async session(request: FastifyRequest, titleCode: string | undefined): Promise<SessionResponse> {
      const { user } = await sessions.require(request);
      const title = titles.titleFor(titleCode, requestUrlOf(request));
      return { ...(await sessionView(user, title.titleCode)), title };
    },

    /**
     * POST /api/logout: the session ends here at once; the browser is then sent to the
     * provider to end its session there too. Without a session it still succeeds (idempotent).
     */
    async logout(request: FastifyRequest, reply: FastifyReply, log: FastifyBaseLogger): Promise<{ endSessionUrl: string | null }> {
      const session = await sessions.find(request);
      await sessions.destroy(reply, session);
      if (!session) return { endSessionUrl: null };
      try {
        return {
          endSessionUrl: await relyingParty.endSessionUrl({ idToken: session.idToken, postLogoutRedirectUri: `${request.portalOrigin()}${AFTER_LOGOUT_PATH}` }),
        };
      } catch (error) {
        // The portal session is gone either way; the provider's will expire on its own.
        log.warn({ err: error }, 'could not build the provider logout URL');
        return { endSessionUrl: null };
      }
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
