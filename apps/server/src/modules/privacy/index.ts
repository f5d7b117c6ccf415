// The privacy area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { privacyRoutes } from './routes.ts';
import { createPrivacyService, type PrivacyDeps, type PrivacyService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Data rights, for the operator commands (`admin gdpr export|erase`). */
    privacy: PrivacyService;
  }
}

/**
 * Data rights (SPEC §8) under /api/privacy, signed in (`app.authenticate` on the prefix), and the
 * operator's job triggers. The service is `app.privacy` for the admin CLI and the nightly jobs.
 */
export async function registerPrivacy(app: FastifyInstance, deps: PrivacyDeps & { operatorToken: string | undefined }): Promise<PrivacyService> {
  const { operatorToken, ...serviceDeps } = deps;
  const privacy = createPrivacyService(serviceDeps);
  await app.register(privacyRoutes, { privacy, operatorToken });
  app.decorate('privacy', privacy);
  return privacy;
}

export { collectUserData } from './collect.ts';
export { exportArchiveOf } from './service.ts';
export type { PrivacyService } from './service.ts';
