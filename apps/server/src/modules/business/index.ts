// The business area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { businessRoutes } from './routes.ts';
import { createBusinessService, type BusinessDeps } from './service.ts';

/** Business subscriptions (SPEC §6) under /api/business, every call signed in (`app.authenticate` on the prefix). */
export async function registerBusiness(app: FastifyInstance, deps: BusinessDeps): Promise<void> {
  await app.register(businessRoutes, { business: createBusinessService(deps) });
}
