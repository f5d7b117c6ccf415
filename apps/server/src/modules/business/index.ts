import type { FastifyInstance } from 'fastify';
import { businessRoutes } from './routes.ts';
import { createBusinessService, type BusinessDeps } from './service.ts';

/** Business subscriptions (SPEC §6) under /api/business, every call signed in (`app.authenticate` on the prefix). */
export async function registerBusiness(app: FastifyInstance, deps: BusinessDeps): Promise<void> {
  await app.register(businessRoutes, { business: createBusinessService(deps) });
}
