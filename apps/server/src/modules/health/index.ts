import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { healthRoutes } from './routes.ts';

/** `/healthz` and `/readyz` for the load balancer and the orchestrator: public, outside the API's contract. */
export async function registerHealth(app: FastifyInstance, deps: { database: Database; redis?: { ping(): Promise<void> } }): Promise<void> {
  await app.register(healthRoutes, deps);
}
