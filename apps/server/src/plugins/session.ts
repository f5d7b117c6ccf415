import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authErrorCodes, authErrorMessages } from '@minside/domain';
import type { Db } from '../db/client.ts';
import type { appUser } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';
import { databaseSessionRecords, SESSION_ABSOLUTE_MS, type SessionRecords } from '../lib/shared-state/sessions.ts';

export { SESSION_ABSOLUTE_MS } from '../lib/shared-state/sessions.ts';

export type SessionUser = typeof appUser.$inferSelect;

export interface ActiveSession {
  idHash: string;
  user: SessionUser;
  idToken: string;
  /** The key of the issuer whose login opened the session; null for sessions from before it was kept. */
  issuer: string | null;
}

interface CookieNames {
  session: string;
  loginBinding: string;
}

/**
 * Cookie names and flags. With an https PUBLIC_URL the cookies are `Secure` and carry the
 * `__Host-` prefix, which the browser only accepts from a secure origin, on path `/`, without
 * a Domain: no subdomain can plant or overwrite them.
 */
function cookieSettings(https: boolean) {
  const prefix = https ? '__Host-' : '';
  return {
    names: { session: `${prefix}minside_session`, loginBinding: `${prefix}minside_login` } satisfies CookieNames,
    options: { httpOnly: true, sameSite: 'lax' as const, secure: https, path: '/' },
  };
}

/** SHA-256, base64url: how a session id, a login token or an invitation is kept. One shot: every signed-in request hashes its cookie. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'base64url');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface SessionStoreOptions {
  db: Db;
  https: boolean;
  now: () => Date;
  /** Where the sessions live (lib/shared-state): the database unless REDIS_URL is set. */
  records?: SessionRecords;
}

/** Server-side sessions, shared by every instance (database or Redis), gone for good at logout. */
export function createSessionStore({ db, https, now, records = databaseSessionRecords(db) }: SessionStoreOptions) {
  const cookies = cookieSettings(https);

  async function load(request: FastifyRequest): Promise<ActiveSession | null> {
    const token = request.cookies[cookies.names.session];
    if (!token) return null;
    const idHash = hashToken(token);
    const found = await records.touch(idHash, now());
    return found ? { idHash, user: found.user, idToken: found.idToken, issuer: found.issuer } : null;
  }

  return {
    cookies,

    /** The signed-in session of this request, or null. Loaded once per request. */
    async find(request: FastifyRequest): Promise<ActiveSession | null> {
      const cached = sessionCache.get(request);
      if (cached) return cached;
      const pending = load(request);
      sessionCache.set(request, pending);
      return pending;
    },

    /** The session, or a 401 that sends the browser to login (SPEC §8). */
    async require(request: FastifyRequest): Promise<ActiveSession> {
      const session = await this.find(request);
      if (!session) throw new AppError(401, authErrorCodes.notAuthenticated, authErrorMessages.notAuthenticated);
      return session;
    },

    /**
     * Starts a session with a new id (never one the browser brought: no fixation). A session
     * the browser already had ends: after a login, an earlier copy of the cookie is worthless.
     */
    async create(request: FastifyRequest, reply: FastifyReply, input: { userId: string; idToken: string; issuer: string; subject: string }): Promise<void> {
      const previous = request.cookies[cookies.names.session];
      const token = randomToken();
      const at = now();
      await records.create(
        hashToken(token),
        { userId: input.userId, idToken: input.idToken, issuer: input.issuer, subject: input.subject, createdAt: at, expiresAt: new Date(at.getTime() + SESSION_ABSOLUTE_MS) },
        previous ? hashToken(previous) : undefined,
      );
      reply.setCookie(cookies.names.session, token, { ...cookies.options, maxAge: SESSION_ABSOLUTE_MS / 1000 });
    },

    async destroy(reply: FastifyReply, session: ActiveSession | null): Promise<void> {
      if (session) await records.remove(session.idHash, session.user.id);
      reply.clearCookie(cookies.names.session, cookies.options);
    },

    /** Ends every session of a user at once, on every instance (account erasure). */
    async endAllOf(userId: string): Promise<void> {
      await records.removeAllOf(userId);
    },

    /**
     * Ends, on every instance, the user's sessions that one login opened (it was unlinked),
     * all but `except`: the session the person unlinked it from stays (ADR 028).
     */
    async endOpenedBy(userId: string, login: { issuer: string; subject: string }, except?: ActiveSession): Promise<void> {
      await records.removeOpenedBy(userId, login.issuer, login.subject, except?.idHash);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

const sessionCache = new WeakMap<FastifyRequest, Promise<ActiveSession | null>>();
