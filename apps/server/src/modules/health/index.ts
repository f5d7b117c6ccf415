// The health area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { healthRoutes } from './routes.ts';

/** `/healthz` and `/readyz` for the load balancer and the orchestrator: public, outside the API's contract. */
export async function registerHealth(app: FastifyInstance, deps: { database: Database; redis?: { ping(): Promise<void> } }): Promise<void> {
  await app.register(healthRoutes, deps);
}
