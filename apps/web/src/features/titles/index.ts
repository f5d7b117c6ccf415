// Public API of the titles area. Its pages are in routes.ts (loaded lazily).
export { titleCodeQueryOptions } from './api/retrieve-title-code.ts';
export { titleQueryOptions } from './api/get-title.ts';
export { maintenanceQueryOptions } from './api/get-maintenance-title.ts';
export { resolveTitle } from './resolve-title.ts';
export { useTitle } from './use-title.ts';
