// Public API of the titles area. Its pages are in routes.ts (loaded lazily).
export { titleKeys } from './api/keys.ts';
export { retrieveTitleCode, titleCodeQueryOptions } from './api/retrieve-title-code.ts';
export { getTitle, titleQueryOptions } from './api/get-title.ts';
export { getMaintenanceTitle, maintenanceQueryOptions, useMaintenanceTitle } from './api/get-maintenance-title.ts';
export { resolveTitle } from './resolve-title.ts';
export { useTitle } from './use-title.ts';
