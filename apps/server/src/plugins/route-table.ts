import type { FastifyInstance, FastifySchema, HTTPMethods } from 'fastify';

/** One registered route, as the router has it: the security suites enumerate these. */
export interface RouteEntry {
  method: HTTPMethods;
  url: string;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app (HEAD twins included), in registration order. */
    routeTable(): readonly RouteEntry[];
  }
}

/**
 * Collects the route table at build time. Must run before any route is registered: the
 * authorization matrix and the fuzz suites read it so a new route cannot escape them.
 */
export function registerRouteTable(app: FastifyInstance): void {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      routes.push({ method: method as HTTPMethods, url: route.url, schema: route.schema });
    }
  });
  app.decorate('routeTable', () => routes);
}
