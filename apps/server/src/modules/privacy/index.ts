// The privacy area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { collectUserData } from './collect.ts';
export { privacyRoutes } from './routes.ts';
export { createPrivacyService, exportArchiveOf } from './service.ts';
export type { PrivacyService } from './service.ts';
