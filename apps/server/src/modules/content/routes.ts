import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import { apiErrorSchema, contentDocumentSchema, contentParamsSchema, contentQuerySchema } from '@minside/domain';
import type { TitleService } from '../titles/index.ts';
import type { ContentService } from './service.ts';

/** Public: terms, policies and the FAQ are for everyone (SPEC §2: public routes). */
export const contentRoutes: FastifyPluginAsyncZod<{ content: ContentService; titles: TitleService }> = async (app, { content, titles }) => {
  app.get(
    '/api/content/:kind/:page',
    { schema: { tags: ['content'], params: contentParamsSchema, querystring: contentQuerySchema, response: { 200: contentDocumentSchema, 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request, reply) => {
      const title = titles.titleFor(request.query.titleCode, requestUrlOf(request));
      const document = await content.document(request.params.kind, request.params.page, title);
      // Operators edit the files; a minute's staleness is fine and spares the disk.
      reply.header('cache-control', 'public, max-age=60');
      return document;
    },
  );
};
