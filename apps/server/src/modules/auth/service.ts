import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { authErrorCodes, authErrorMessages, type HandleCodeBody, type HandleCodeResponse, type LoginTokenResponse, type ProfileLogins, type SessionResponse } from '@minside/domain';
import type { Db } from '../../db/client.ts';
import type { appUser } from '../../db/schema.ts';
import type { VerifiedLogin } from '../../identity/relying-party.ts';
import { AppError } from '../../lib/app-error.ts';
import { databaseLoginAttempts, type LoginAttempts } from '../../lib/shared-state/login-attempts.ts';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import { hashToken, randomToken, type ActiveSession, type SessionStore, type SessionUser } from '../../plugins/session.ts';
import { createUserLogins, issuerDto, type LoginIssuer } from './logins.ts';
import { toAccountDto, toUserDto, type AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';

/**
 * A login token is good for 30 minutes, as long as the provider's login interaction: a slow
 * typist is never told the login expired after the provider accepted the password.
 */
const LOGIN_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Where the provider sends the browser after ending its session (a public page). */
const AFTER_LOGOUT_PATH = '/kundeservice';

export interface AuthServiceDeps {
  db: Db;
  /** The issuers a person can log in with, the main one (OIDC_*) first (issue 24). */
  issuers: readonly LoginIssuer[];
  sessions: SessionStore;
  accounts: AccountService;
  titles: TitleService;
  identityProviderName: string;
  now: () => Date;
  /** Where login attempts live (lib/shared-state): the database unless REDIS_URL is set. */
  loginAttempts?: LoginAttempts;
}

function loginInvalid(): AppError {
  return new AppError(400, authErrorCodes.loginStateInvalid, authErrorMessages.loginStateInvalid);
}

function unknownIssuer(): AppError {
  return new AppError(400, authErrorCodes.unknownIssuer, authErrorMessages.unknownIssuer);
}

/** The portal's own login page: lists the issuers when there is more than one (apps/web `/logg-inn`). */
const LOGIN_CHOOSER_PATH = '/logg-inn';

export function createAuthService(deps: AuthServiceDeps) {
  const { db, issuers, sessions, accounts, titles, identityProviderName, now } = deps;
  const attempts = deps.loginAttempts ?? databaseLoginAttempts(db);
  const logins = createUserLogins(db, issuers, now);

  async function sessionView(userRow: typeof appUser.$inferSelect, titleCode: string) {
    const accountRow = await accounts.accountOf(userRow.id);
    return {
      user: toUserDto(userRow, identityProviderName),
      account: accountRow ? toAccountDto(accountRow, userRow, identityProviderName) : null,
      subscription: accountRow ? await accounts.subscriptionForTitle(accountRow, titleCode) : null,
    };
  }

  async function authorizationUrlFor(issuer: LoginIssuer, attempt: { redirectUri: string; codeVerifier: string; nonce: string }, loginToken: string, log: FastifyBaseLogger): Promise<string> {
    try {
      return await issuer.relyingParty.authorizationUrl({ redirectUri: attempt.redirectUri, state: loginToken, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
    } catch (error) {
      log.error({ err: error, issuer: issuer.key }, 'identity provider unreachable (discovery failed)');
      throw new AppError(503, authErrorCodes.providerUnavailable, authErrorMessages.providerUnavailable);
    }
  }

  return {
    /**
     * GET /api/loginToken: a one-time token that is the OIDC `state`, bound to this browser by
     * an HttpOnly cookie, with a fresh PKCE verifier and nonce kept on the server.
     */
    async startLogin(
      request: FastifyRequest,
      reply: FastifyReply,
      input: { returnTo?: string | undefined; titleCode?: string | undefined; issuer?: string | undefined; purpose?: 'login' | 'link' | undefined },
    ): Promise<LoginTokenResponse> {
      const origin = request.portalOrigin();
      const title = titles.titleFor(input.titleCode, `${origin}/`);
      const chosen = input.issuer === undefined ? (issuers.length === 1 ? issuers[0] : undefined) : logins.issuer(input.issuer);
      if (input.issuer !== undefined && !chosen) throw unknownIssuer();
      // Linking adds a login to the user signed in here, so it needs both.
      const linkUserId = input.purpose === 'link' ? (await sessions.require(request)).user.id : null;
      if (linkUserId !== null && !chosen) throw unknownIssuer();
      const loginToken = randomToken();
      const binding = request.cookies[sessions.cookies.names.loginBinding] ?? randomToken();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const redirectUri = `${origin}/callback`;
      const at = now();
      // With several issuers and none chosen, the person picks one on the portal's login page first.
      const authorizationUrl = chosen
        ? await authorizationUrlFor(chosen, { redirectUri, codeVerifier, nonce }, loginToken, request.log)
        : `${origin}${LOGIN_CHOOSER_PATH}?${new URLSearchParams({ login: loginToken })}`;
      await attempts.save(
        hashToken(loginToken),
        {
          browserBindingHash: hashToken(binding),
          codeVerifier,
          nonce,
          redirectUri,
          returnTo: input.returnTo ?? '/',
          titleCode: title.titleCode,
          issuer: chosen?.key ?? null,
          purpose: linkUserId === null ? 'LOGIN' : 'LINK',
          linkUserId,
          expiresAt: new Date(at.getTime() + LOGIN_TOKEN_TTL_MS),
        },
        at,
      );
      reply.setCookie(sessions.cookies.names.loginBinding, binding, { ...sessions.cookies.options, maxAge: LOGIN_TOKEN_TTL_MS / 1000 });
      return { loginToken, authorizationUrl };
    },

    /** GET /api/login/issuers: what the portal's login page offers. */
    loginIssuers() {
      return { issuers: issuers.map(issuerDto) };
    },

    /**
     * POST /api/login/choose: the person picked an issuer on the portal's login page. The login
     * token stays the OIDC state; the issuer is fixed for it once, by the browser that started it.
     */
    async chooseIssuer(request: FastifyRequest, body: { loginToken: string; issuer: string }): Promise<{ authorizationUrl: string }> {
      const issuer = logins.issuer(body.issuer);
      if (!issuer) throw unknownIssuer();
      const binding = request.cookies[sessions.cookies.names.loginBinding];
      if (!binding) throw loginInvalid();
      const attempt = await attempts.chooseIssuer(hashToken(body.loginToken), hashToken(binding), issuer.key);
      if (!attempt) throw loginInvalid();
      if (now().getTime() > attempt.expiresAt.getTime()) throw new AppError(400, authErrorCodes.loginExpired, authErrorMessages.loginExpired);
      return { authorizationUrl: await authorizationUrlFor(issuer, attempt, body.loginToken, request.log) };
    },

    /**
     * GET /api/login/return: where a login this browser started returns to, for /callback when the
     * person cancelled at the provider or the login failed ("Avbryt", "Prøv igjen"). A login the
     * header's link started (docs/decisions/032) left no target in the tab; the server has it.
     */
    async returnTarget(request: FastifyRequest, state: string): Promise<{ returnTo: string }> {
      const binding = request.cookies[sessions.cookies.names.loginBinding];
      if (!binding) throw loginInvalid();
      const returnTo = await attempts.returnToOf(hashToken(state), hashToken(binding));
      if (returnTo === null) throw loginInvalid();
      return { returnTo };
    },

    /** GET /api/profile/logins: the ways this user logs in. */
    async loginsOf(user: SessionUser): Promise<ProfileLogins> {
      return logins.loginsOf(user.id);
    },

    /**
     * DELETE /api/profile/logins/{issuer}: "Koble fra". The sessions that login opened end with
     * it, on every device, but not the one the person unlinks it from (ADR 028): they stay signed in.
     */
    async unlink(session: ActiveSession, issuerKey: string): Promise<ProfileLogins> {
      // Its sessions end before the link goes: a session store that fails here leaves the login linked,
      // and "Koble fra" is simply pressed again — never a login gone with its sessions still open. Once
      // more after, for a login completed in between.
      await sessions.endOpenedBy(session.user.id, await logins.unlinkable(session.user.id, issuerKey), session);
      const unlinked = await logins.unlink(session.user.id, issuerKey);
      await sessions.endOpenedBy(session.user.id, unlinked, session);
      return logins.loginsOf(session.user.id);
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
      const issuer = logins.issuer(attempt.issuer);
      // No issuer: the login page was skipped (a forged or replayed state); one no longer configured: start again.
      if (!issuer) throw loginInvalid();
      // A link completes only in the session of the user who started it.
      const linking = attempt.purpose === 'LINK' ? await sessions.find(request) : null;
      if (attempt.purpose === 'LINK' && linking?.user.id !== attempt.linkUserId) throw loginInvalid();
      let login: VerifiedLogin;
      try {
        login = await issuer.relyingParty.exchangeCode({ callbackUrl, expectedState: body.state, expectedNonce: attempt.nonce, codeVerifier: attempt.codeVerifier });
      } catch (error) {
        log.warn({ err: error, issuer: issuer.key }, 'login refused: code exchange or ID token validation failed');
        throw new AppError(400, authErrorCodes.loginFailed, authErrorMessages.loginFailed);
      }
      if (linking) {
        const userRow = await logins.linkTo(linking.user, issuer, login);
        reply.clearCookie(sessions.cookies.names.loginBinding, sessions.cookies.options);
        return { ...(await sessionView(userRow, attempt.titleCode)), returnTo: attempt.returnTo };
      }
      // The identity id is the main issuer's subject: only a login with it can be checked against one.
      if (body.identityId !== undefined && issuer === issuers[0] && body.identityId !== login.subject) {
        throw new AppError(400, authErrorCodes.identityMismatch, authErrorMessages.identityMismatch);
      }
      const userRow = await logins.userFor(issuer, login);
      await sessions.create(request, reply, { userId: userRow.id, idToken: login.idToken, issuer: issuer.key, subject: login.subject });
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
        // The session ends at the issuer it was opened with: the one it recorded, or for a session
        // from before that was kept, the one whose `iss` the ID token carries.
        let issuer = logins.issuer(session.issuer);
        for (const candidate of issuers) if (!issuer && (await candidate.relyingParty.issued(session.idToken))) issuer = candidate;
        if (!issuer) return { endSessionUrl: null };
        return {
          endSessionUrl: await issuer.relyingParty.endSessionUrl({ idToken: session.idToken, postLogoutRedirectUri: `${request.portalOrigin()}${AFTER_LOGOUT_PATH}` }),
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
