import type { QueryClient } from '@tanstack/react-query';
import { redirect, type LoaderFunction } from 'react-router';
import { maintenanceQueryOptions } from '../features/titles/index.ts';
import { pathTo, type PageKey } from './paths.ts';

/** What the guard needs from the app. The login issue adds the session and identity client here. */
export interface GuardContext {
  queryClient: QueryClient;
}

export interface GuardTarget {
  key: PageKey;
  /** The full URL navigated to (path, query and hash): the return target for login. */
  url: URL;
}

/**
 * SPEC §4 route guard, run before each navigation (a loader, so no page renders before it
 * has decided). Throws a redirect to send the user elsewhere.
 */
export async function runGuard(context: GuardContext, target: GuardTarget): Promise<void> {
  const { queryClient } = context;

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

  // 3. Login issue: if (meta.requiresAuth) check login; when not logged in, start the
  //    login with `target.url` (path, query and hash) as the return target.
  // 4. Login issue: if (meta.requiresSubscription) and the user has none,
  //    throw redirect(pathTo('noSubscription')).
  // 5. Login issue: after login, initialise the tracking provider once.
  //    (Steps 3–5 read `pages[target.key].meta`.)
}

/** The loader of one page route: runs the guard for it. */
export function guardLoader(context: GuardContext, key: PageKey): LoaderFunction {
  return async ({ request }) => {
    await runGuard(context, { key, url: new URL(request.url) });
    return null;
  };
}
