import type { FastifyInstance } from 'fastify';
import { contentRoutes } from './routes.ts';
import { createContentService, type ContentDeps } from './service.ts';

/** Terms, policies and the FAQ (Markdown pages), public. */
export async function registerContent(app: FastifyInstance, deps: ContentDeps): Promise<void> {
  await app.register(contentRoutes, { content: createContentService(deps) });
}
