// The auth area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './routes.ts';
import { createAuthService, type AuthService, type AuthServiceDeps } from './service.ts';

export { registerSignedIn, type SignedInSubscriber } from './signed-in.ts';
export { issuerDto, type LoginIssuer } from './logins.ts';
export type { AuthService } from './service.ts';

/** SPEC §7's login flow (loginToken, handlecode, logout, session) and the logins of a profile. Returns the service the page bootstrap reads. */
export async function registerAuth(app: FastifyInstance, deps: AuthServiceDeps): Promise<AuthService> {
  const auth = createAuthService(deps);
  await app.register(authRoutes, { auth });
  return auth;
}
