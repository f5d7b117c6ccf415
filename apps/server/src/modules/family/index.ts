// The family area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { familyRoutes } from './routes.ts';
import { createFamilyService, type FamilyDeps } from './service.ts';

/** Family sharing (SPEC §2) under /api/family, every call signed in (`app.authenticate` on the prefix). */
export async function registerFamily(app: FastifyInstance, deps: FamilyDeps): Promise<void> {
  await app.register(familyRoutes, { family: createFamilyService(deps) });
}
