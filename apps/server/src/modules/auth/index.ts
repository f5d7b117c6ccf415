// The auth area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { issuerDto } from './logins.ts';
export type { LoginIssuer } from './logins.ts';
export { authRoutes } from './routes.ts';
export { createAuthService } from './service.ts';
export type { AuthService } from './service.ts';
