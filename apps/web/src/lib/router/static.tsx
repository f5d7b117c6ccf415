import { RouterProvider } from './components.tsx';
import { flattenRoutes, matchRoutes, type RouteMatch } from './match.ts';
import { createLocation, createPath, notFound, redirect, settle } from './router.ts';
import type { Location, RouteObject, Router, RouterState } from './types.ts';

/** What a request routed to: its location, matches and the errors of their loaders. */
export interface StaticHandlerContext {
  location: Location;
  matches: RouteMatch[];
  errors: Record<string, unknown> | null;
}

/** Routes a server request as the browser's router would route its first load (the server render, docs/decisions/032). */
export function createStaticHandler(routes: RouteObject[]) {
  const branches = flattenRoutes(routes);
  return {
    dataRoutes: routes,
    /** A redirect Response where a loader redirects; else what to render. */
    async query(request: Request): Promise<Response | StaticHandlerContext> {
      const url = new URL(request.url);
      const location: Location = { pathname: url.pathname, search: url.search, hash: '', state: null, key: 'default' };
      const matches = matchRoutes(branches, url.pathname);
      if (matches.length === 0) return { location, ...notFound(routes) };
      const { redirect: target, errors } = await settle(matches, request);
      return target === null ? { location, matches, errors } : redirect(target);
    },
  };
}

/** A router that stays on the context's location: rendered once, on the server. */
export function createStaticRouter(routes: RouteObject[], context: StaticHandlerContext): Router {
  const state: RouterState = { initialized: true, historyAction: 'POP', location: context.location, matches: context.matches, navigation: { state: 'idle' }, errors: context.errors };
  return {
    routes,
    state,
    subscribe: () => () => {},
    navigate: () => Promise.reject(new Error('A server render does not navigate')),
    createHref: (to) => createPath(createLocation(to, state.location)),
  };
}

/** React Router's name for rendering a static router; the markup is the same as the browser's (nothing to hydrate with but the app's own data). */
export function StaticRouterProvider({ router }: { router: Router; context?: StaticHandlerContext; hydrate?: boolean }) {
  return <RouterProvider router={router} />;
}
