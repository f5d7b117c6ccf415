// The overview area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { homeOverviewRoutes } from './routes.ts';
import { createHomeOverviewService, type HomeOverviewDeps } from './service.ts';

/** GET /api/overview (issue 25.10), signed in: the home page's facts, read through the delivery and billing areas' services. */
export async function registerHomeOverview(app: FastifyInstance, deps: HomeOverviewDeps): Promise<void> {
  await app.register(homeOverviewRoutes, { overview: createHomeOverviewService(deps) });
}
