import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt } from 'drizzle-orm';
import { authErrorCodes, authErrorMessages } from '@minside/domain';
import type { Db } from '../db/client.ts';
import { appUser, userSession } from '../db/schema.ts';
import { AppError } from '../lib/app-error.ts';

/** A session ends after 30 minutes without a request, and 12 hours after login whatever happens. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

export type SessionUser = typeof appUser.$inferSelect;

export interface ActiveSession {
  idHash: string;
  user: SessionUser;
  idToken: string;
}

export interface CookieNames {
  session: string;
  loginBinding: string;
}

/**
 * Cookie names and flags. With an https PUBLIC_URL the cookies are `Secure` and carry the
 * `__Host-` prefix, which the browser only accepts from a secure origin, on path `/`, without
 * a Domain: no subdomain can plant or overwrite them.
 */
export function cookieSettings(https: boolean) {
  const prefix = https ? '__Host-' : '';
  return {
    names: { session: `${prefix}minside_session`, loginBinding: `${prefix}minside_login` } satisfies CookieNames,
    options: { httpOnly: true, sameSite: 'lax' as const, secure: https, path: '/' },
  };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface SessionStoreOptions {
  db: Db;
  https: boolean;
  now: () => Date;
}

/** Server-side sessions in the database: shared by every instance, gone for good at logout. */
export function createSessionStore({ db, https, now }: SessionStoreOptions) {
  const cookies = cookieSettings(https);

  async function load(request: FastifyRequest): Promise<ActiveSession | null> {
    const token = request.cookies[cookies.names.session];
    if (!token) return null;
    const idHash = hashToken(token);
    const [row] = await db
      .select({ session: userSession, user: appUser })
      .from(userSession)
      .innerJoin(appUser, eq(appUser.id, userSession.userId))
      .where(eq(userSession.idHash, idHash));
    if (!row) return null;
    const at = now().getTime();
    if (at >= row.session.expiresAt.getTime() || at - row.session.lastSeenAt.getTime() >= SESSION_IDLE_MS) {
      await db.delete(userSession).where(eq(userSession.idHash, idHash));
      return null;
    }
    // Every request counts as activity, so the idle limit is exact (one indexed update by key).
    await db.update(userSession).set({ lastSeenAt: new Date(at) }).where(eq(userSession.idHash, idHash));
    return { idHash, user: row.user, idToken: row.session.idToken };
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
    async create(request: FastifyRequest, reply: FastifyReply, input: { userId: string; idToken: string }): Promise<void> {
      const previous = request.cookies[cookies.names.session];
      if (previous) await db.delete(userSession).where(eq(userSession.idHash, hashToken(previous)));
      const token = randomToken();
      const at = now();
      await db.insert(userSession).values({
        idHash: hashToken(token),
        userId: input.userId,
        idToken: input.idToken,
        createdAt: at,
        lastSeenAt: at,
        expiresAt: new Date(at.getTime() + SESSION_ABSOLUTE_MS),
      });
      // Housekeeping: sessions past their absolute end go when someone logs in.
      await db.delete(userSession).where(lt(userSession.expiresAt, at));
      reply.setCookie(cookies.names.session, token, { ...cookies.options, maxAge: SESSION_ABSOLUTE_MS / 1000 });
    },

    async destroy(reply: FastifyReply, session: ActiveSession | null): Promise<void> {
      if (session) await db.delete(userSession).where(and(eq(userSession.idHash, session.idHash), eq(userSession.userId, session.user.id)));
      reply.clearCookie(cookies.names.session, cookies.options);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

const sessionCache = new WeakMap<FastifyRequest, Promise<ActiveSession | null>>();
