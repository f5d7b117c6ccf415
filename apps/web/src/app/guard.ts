import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunction } from '../lib/router/index.ts';
import { returnTargetOf, type IdentityClient, type LocationParts, type SignedInSession } from '../features/auth/index.ts';
import { maintenanceQueryOptions } from '../features/titles/index.ts';
import { initTrackingProvider } from '../lib/tracking/index.ts';
import { pages, pathTo, type PageKey } from './paths.ts';

/** What the guard needs from the identity client. */
type GuardIdentity = Pick<IdentityClient, 'checkSession' | 'login'>;

/** What the guard needs from the app. */
export interface GuardContext {
  queryClient: QueryClient;
  identity: GuardIdentity;
  /**
   * The hash of the location being navigated to. Loader requests carry no hash, yet the
   * login's return target includes it (SPEC §8); the router knows it (routes.tsx).
   */
  pendingHash?: (url: URL) => string;
  /** SPEC §4 step 5; the app's tracking provider unless a test gives its own. */
  initTracking?: (session: SignedInSession) => void;
}

export interface GuardTarget {
  key: PageKey;
  /** The full URL navigated to (path, query and hash): the return target for login. */
  url: URL;
}

/**
 * SPEC §4 route guard, run before each navigation (a loader, so no page renders before it
 * has decided). Throws a redirect to send the user elsewhere; while the browser leaves for
 * the identity provider it never settles, so the guarded page is never shown.
 */
export async function runGuard(context: GuardContext, target: GuardTarget): Promise<void> {
  const { queryClient, identity } = context;

  // 1. The maintenance route only loads maintenance data.
  if (target.key === 'maintenance') {
    await queryClient.ensureQueryData(maintenanceQueryOptions());
    return;
  }

  // 2. Any other route: the title configuration is resolved by the root loader (routes.tsx).
  //    While the title is in maintenance, every route goes to /maintenance.
  //    (Consent set-up when a consent flag is set arrives with the privacy issue.)
  const maintenance = await queryClient.fetchQuery(maintenanceQueryOptions());
  if (maintenance?.maintenance) throw redirect(pathTo('maintenance'));

  // The login is being completed there: there is no session to check yet.
  if (target.key === 'callback') return;

  const { meta } = pages[target.key];
  const initTracking = context.initTracking ?? initTrackingProvider;

  if (!meta.requiresAuth) {
    // Public routes never redirect; a cached check only puts "Logg ut" in the header.
    const session = await identity.checkSession('opportunistic').catch((error: unknown) => {
      console.error('The session check failed on a public route', error);
      return null;
    });
    if (session) initTracking(session);
    return;
  }

  // 3. Login required: without a session, start the login back to this very URL.
  const session = await requireSession(identity, returnTargetOf(target.url));

  // 4. Subscription required and the user has none.
  if (meta.requiresSubscription && !session.subscription) throw redirect(pathTo('noSubscription'));

  // 5. After login, the tracking provider (once; the provider itself guards that).
  initTracking(session);
}

async function requireSession(identity: GuardIdentity, returnTo: string): Promise<SignedInSession> {
  const session = await identity.checkSession('required');
  if (session) return session;
  // Settles only when the browser did not leave: the login could not start, and the
  // logged-in check it fell back to decides (SPEC §8).
  const loggedIn = await identity.login(returnTo);
  const afterLogin = loggedIn ? await identity.checkSession('required') : null;
  if (afterLogin) return afterLogin;
  // Neither signed in nor on the way to the provider: the page must not render, and
  // retrying here would only loop. The route's error boundary offers a reload.
  throw new Error('This page needs a login, and the login could not be started');
}

/**
 * The hash of the first location that is the URL being loaded (same path and query), or ''.
 * Candidates, in order: the router's pending navigation, its current location (the first
 * load), the browser's address.
 */
export function hashOfLocation(url: URL, candidates: ReadonlyArray<LocationParts | null | undefined>): string {
  for (const location of candidates) {
    if (location && location.pathname === url.pathname && location.search === url.search) return location.hash;
  }
  return '';
}

/** The loader of one page route: runs the guard for it. */
export function guardLoader(context: GuardContext, key: PageKey): LoaderFunction {
  return async ({ request }) => {
    const url = new URL(request.url);
    url.hash = context.pendingHash?.(url) ?? '';
    await runGuard(context, { key, url });
    return null;
  };
}
