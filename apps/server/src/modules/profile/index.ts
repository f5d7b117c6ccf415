// The profile area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { applyIssuerClaims, declareBirthdate, recordSource, sourcesOf } from './provenance.ts';
export { profileRoutes } from './routes.ts';
export { createProfileService } from './service.ts';
