// The business area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { businessRoutes } from './routes.ts';
export { createBusinessService } from './service.ts';
