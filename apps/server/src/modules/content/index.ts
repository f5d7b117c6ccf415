// The content area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { contentRoutes } from './routes.ts';
import { createContentService, type ContentDeps } from './service.ts';

/** Terms, policies and the FAQ (Markdown pages), public. */
export async function registerContent(app: FastifyInstance, deps: ContentDeps): Promise<void> {
  await app.register(contentRoutes, { content: createContentService(deps) });
}
