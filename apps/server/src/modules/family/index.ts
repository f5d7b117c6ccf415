// The family area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { familyRoutes } from './routes.ts';
export { createFamilyService } from './service.ts';
