// The titles area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { latestCatalogueVersion, loadActiveCatalogue, loadCatalogueFile } from './catalogue-source.ts';
export type { CatalogueSource } from './catalogue-source.ts';
export { titleRoutes } from './routes.ts';
export { createTitleService } from './service.ts';
export type { TitleService } from './service.ts';
