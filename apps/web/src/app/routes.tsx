import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, redirect, type RouteObject } from '../lib/router/index.ts';
import { resolveTitle } from '../features/titles/index.ts';
import { RootErrorBoundary, RouteErrorBoundary } from './error-pages.tsx';
import { guardLoader, hashOfLocation, type GuardContext } from './guard.ts';
import { Layout, ShellFallback } from './layout.tsx';
import { pages, redirects, resolvePattern, unknownPathTarget, type Area, type PageKey, type RouteMeta, type RouteModule } from './paths.ts';

export interface RouterContext extends GuardContext {
  queryClient: QueryClient;
  /** The identity provider's name; the two gateway paths are named after it (SPEC §2). */
  identityProviderName: string;
}

/** What every page route carries in `handle`: the table's key, area and meta. */
export interface PageHandle {
  key: PageKey;
  area: Area;
  meta: RouteMeta;
}

type AreaModule = { routes: Partial<Record<PageKey, RouteModule>> };

/** One dynamic import per area: each area's pages build into one lazily loaded chunk. */
const areaModules: Record<Area, () => Promise<AreaModule>> = {
  titles: () => import('../features/titles/routes.ts'),
  auth: () => import('../features/auth/routes.ts'),
  subscription: () => import('../features/subscription/routes.ts'),
  profile: () => import('../features/profile/routes.ts'),
  delivery: () => import('../features/delivery/routes.ts'),
  billing: () => import('../features/billing/routes.ts'),
  ordering: () => import('../features/ordering/routes.ts'),
  family: () => import('../features/family/routes.ts'),
  business: () => import('../features/business/routes.ts'),
  student: () => import('../features/student/routes.ts'),
  privacy: () => import('../features/privacy/routes.ts'),
  support: () => import('../features/support/routes.ts'),
};

async function loadRouteModule(key: PageKey): Promise<{ Component: ComponentType }> {
  const { area } = pages[key];
  const { routes } = await areaModules[area]();
  const module = routes[key];
  if (!module) throw new Error(`The ${area} area has no route module for "${key}"`);
  return { Component: 'load' in module ? await module.load() : module.Component };
}

/** Redirects keep the query string and hash of the original URL. */
function redirectTo(target: PageKey): RouteObject['loader'] {
  return ({ request }) => {
    const url = new URL(request.url);
    return redirect(pages[target].pattern + url.search + url.hash);
  };
}

/** The router's route objects, built from the route table in paths.ts. */
export function createRoutes(context: RouterContext): RouteObject[] {
  const pageRoutes = (Object.keys(pages) as PageKey[]).map((key): RouteObject => ({
    id: key,
    path: resolvePattern(pages[key].pattern, context.identityProviderName),
    handle: { key, area: pages[key].area, meta: pages[key].meta } satisfies PageHandle,
    loader: guardLoader(context, key),
    lazy: () => loadRouteModule(key),
    ErrorBoundary: RouteErrorBoundary,
  }));

  const redirectRoutes = Object.values(redirects).map((route): RouteObject => ({ path: route.pattern, loader: redirectTo(route.to) }));

  return [
    {
      id: 'root',
      // SPEC §4 step 2: resolve the title configuration (cached after the first time).
      loader: async () => {
        await resolveTitle(context.queryClient);
        return null;
      },
      Component: Layout,
      HydrateFallback: ShellFallback,
      ErrorBoundary: RootErrorBoundary,
      children: [...pageRoutes, ...redirectRoutes, { path: '*', loader: () => redirect(pages[unknownPathTarget].pattern) }],
    },
  ];
}

export function createRouter(context: RouterContext) {
  // The first loaders may run while createBrowserRouter is still returning: the browser's
  // address stands in until the router exists.
  const created: { router?: ReturnType<typeof createBrowserRouter> } = {};
  const pendingHash = (url: URL) => hashOfLocation(url, [created.router?.state.navigation.location, created.router?.state.location, window.location]);
  created.router = createBrowserRouter(createRoutes({ ...context, pendingHash }));
  return created.router;
}
