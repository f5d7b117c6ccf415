// The titles area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '@minside/titles';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { titleRoutes } from './routes.ts';
import { createTitleService, type TitleService } from './service.ts';

export type { TitleService } from './service.ts';

/** SPEC §1's title look-ups and maintenance, public. Returns the service every title-aware area reads. */
export async function registerTitles(app: FastifyInstance, deps: { catalogue: Catalogue; config: Config; db: Db }): Promise<TitleService> {
  const titles = createTitleService(deps);
  await app.register(titleRoutes, { titles });
  return titles;
}

export { wordmarkAt } from './logo.ts';
export { latestCatalogueVersion, loadActiveCatalogue, loadCatalogueFile } from './catalogue-source.ts';
export type { CatalogueSource } from './catalogue-source.ts';
