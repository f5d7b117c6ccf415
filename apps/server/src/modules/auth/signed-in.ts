import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authErrorCodes, authErrorMessages, type Subscription, type Title } from '@minside/domain';
import { AppError } from '../../lib/app-error.ts';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import type { ActiveSession, SessionStore, SessionUser } from '../../plugins/session.ts';
import type { AccountRow, AccountService } from '../subscription/index.ts';
import type { TitleService } from '../titles/index.ts';

/**
 * Who is calling, for every signed-in area (issue 26.1). An area puts `app.authenticate` on its
 * prefix; under it `request.session` and `request.user` are the caller's, and
 * `request.subscriber()` is the caller on the request's title — the title (`?titleCode=` on a
 * development host, else the host), their account and their subscription there — looked up once
 * per request, on first use: a route that names an account in its path never pays for it.
 *
 * Outside an authenticated prefix the three refuse with 401 instead of answering `undefined`: a
 * route registered in the wrong place fails closed (the authorization matrix test calls every route
 * without a session).
 */
export interface SignedInSubscriber {
  user: SessionUser;
  title: Title;
  account: AccountRow | null;
  /** The user's subscription on the title, their own or a share; null when they have none there. */
  subscription: Subscription | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session: only under a prefix with `app.authenticate`. */
    readonly session: ActiveSession;
    /** The caller: only under a prefix with `app.authenticate`. */
    readonly user: SessionUser;
    /** The title the request is for: `?titleCode=` (as validated) where it names an offered title, else the host's, else POL. */
    readonly title: Title;
    /** The caller on this request's title, resolved once (see modules/auth/signed-in.ts). */
    subscriber(): Promise<SignedInSubscriber>;
  }
  interface FastifyInstance {
    /** The hook an area adds on its prefix (`onRequest`): 401 without a session, else the session on the request. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

const sessionOf = new WeakMap<FastifyRequest, ActiveSession>();
const subscriberOf = new WeakMap<FastifyRequest, Promise<SignedInSubscriber>>();

const notAuthenticated = () => new AppError(401, authErrorCodes.notAuthenticated, authErrorMessages.notAuthenticated);

function signedInSession(request: FastifyRequest): ActiveSession {
  const session = sessionOf.get(request);
  if (!session) throw notAuthenticated();
  return session;
}

/** Registers `app.authenticate` and the request's `session`, `user` and `subscriber()`, once, at the root. */
export function registerSignedIn(app: FastifyInstance, deps: { sessions: SessionStore; accounts: AccountService; titles: TitleService }): void {
  const { sessions, accounts, titles } = deps;
  app.decorate('authenticate', async (request: FastifyRequest) => {
    sessionOf.set(request, await sessions.require(request));
  });
  app.decorateRequest('session', {
    getter(this: FastifyRequest) {
      return signedInSession(this);
    },
  });
  app.decorateRequest('user', {
    getter(this: FastifyRequest) {
      return signedInSession(this).user;
    },
  });
  app.decorateRequest('title', {
    getter(this: FastifyRequest) {
      // The query as validated by the route's schema: read when the handler asks, never in onRequest.
      const titleCode = (this.query as { titleCode?: string | undefined } | undefined)?.titleCode;
      return titles.titleFor(titleCode, requestUrlOf(this));
    },
  });
  app.decorateRequest('subscriber', function (this: FastifyRequest): Promise<SignedInSubscriber> {
    const found = subscriberOf.get(this);
    if (found) return found;
    const { user } = signedInSession(this);
    const title = this.title;
    const resolved = (async () => {
      const account = (await accounts.accountOf(user.id)) ?? null;
      const subscription = account ? await accounts.subscriptionForTitle(account, title.titleCode) : null;
      return { user, title, account, subscription };
    })();
    subscriberOf.set(this, resolved);
    return resolved;
  });
}
