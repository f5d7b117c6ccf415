import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/**
 * Which edge rules a route is under, decided once per route from the path it was registered
 * with, never from the URL a request spells:
 * - `api`: the JSON API (`/api` and below): CSRF (plugins/csrf.ts), lone surrogates refused
 *   (plugins/input-hygiene.ts), `Cache-Control: no-store` (plugins/security-headers.ts);
 * - `identityForm`: the identity provider's own login and registration pages
 *   (`/idp/interaction/…`): lone surrogates and NUL refused;
 * - `other`: everything else (the SPA, assets, health, the provider's protocol endpoints).
 *
 * The router decodes the path before it matches (`/%61pi/family/leave` is
 * `POST /api/family/leave`), so a rule that tested `request.url` for `/api/` could be
 * stepped around by spelling the path another way. A request that matched no route (the
 * SPA's fallback, 404) has no scope: it runs no handler, so it needs none of these rules.
 */
export type RouteScope = 'api' | 'identityForm' | 'other';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route by registerRouteScopes; read it through routeScope(request). */
    scope?: RouteScope;
    /**
     * An operator upload that takes a raw text body (a bank file) instead of JSON. The CSRF
     * defence skips its JSON rule for it: the route's own operator check wants an
     * `Authorization` bearer token, which a cross-site page cannot send without a CORS preflight
     * we never grant, and no browser holds it.
     */
    bearerTextBody?: boolean;
  }
}

/** The methods that change state: CSRF (csrf.ts) and idempotency (idempotency.ts) guard them on /api, and the API document names their extra answers (openapi.ts). */
export const stateChangingMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The scope of a registered route path (Fastify's pattern, prefix included: `/api/family/leave`, `/idp/interaction/:uid/login`). */
function scopeOfRoutePath(routePath: string): RouteScope {
  if (routePath === '/api' || routePath.startsWith('/api/')) return 'api';
  if (routePath.startsWith('/idp/interaction/')) return 'identityForm';
  return 'other';
}

/** Marks every route with its scope as it is registered. Must run before any route is registered. */
export function registerRouteScopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scope: scopeOfRoutePath(route.url) };
  });
}

/**
 * Runs `withRoute` for every route registered from now on, with its scope: for a rule that is a hook
 * of the routes it guards, added as they are registered (ADR 039), rather than a hook of every
 * request that asks the request for its route's scope. Register after registerRouteScopes.
 */
export function onScopedRoute(app: FastifyInstance, withRoute: (route: RouteOptions, scope: RouteScope) => void): void {
  app.addHook('onRoute', (route) => {
    const scope = route.config?.scope;
    if (scope === undefined) throw new Error(`route ${route.url} has no scope: registerRouteScopes must come first`);
    withRoute(route, scope);
  });
}

/** A route option's hooks as a list (Fastify takes one hook, a list, or none). */
export function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** The scope of the route this request matched; `undefined` when it matched none (404). */
export function routeScope(request: FastifyRequest): RouteScope | undefined {
  return request.routeOptions.config?.scope;
}
