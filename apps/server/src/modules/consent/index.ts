// The consent area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { consentPermissionRoutes, createConsentPermissionService } from './permissions.ts';
export { consentRoutes } from './routes.ts';
export { createConsentService } from './service.ts';
export { clientConfigOf, parseClientSettings, thirdPartySources } from './settings.ts';
export type { ClientSettings } from './settings.ts';
