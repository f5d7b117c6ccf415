// The profile area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { profileRoutes } from './routes.ts';
import { createProfileService, type ProfileDeps } from './service.ts';

/** The signed-in user's own profile (SPEC §3) under /api/profile (`app.authenticate` on the prefix). */
export async function registerProfile(app: FastifyInstance, deps: ProfileDeps): Promise<void> {
  await app.register(profileRoutes, { profile: createProfileService(deps) });
}

export { applyIssuerClaims, declareBirthdate, recordSource, sourcesOf } from './provenance.ts';
