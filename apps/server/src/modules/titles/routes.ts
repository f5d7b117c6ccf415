import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  maintenanceTitleBodySchema,
  maintenanceTitleResponseSchema,
  retrieveTitleCodeBodySchema,
  retrieveTitleCodeResponseSchema,
  titleParamsSchema,
  titleSchema,
} from '@minside/domain';
import { sendApiNotFound } from '../../plugins/errors.ts';
import type { TitleService } from './service.ts';
import { renderWordmark } from './logo.ts';

/** SPEC §7 title calls. Public: the shell needs them before anyone signs in. */
export const titleRoutes: FastifyPluginAsyncZod<{ titles: TitleService }> = async (app, { titles }) => {
  app.get('/api/title/:id', { schema: { tags: ['titles'], params: titleParamsSchema, response: { 200: titleSchema, 400: apiErrorSchema, 404: apiErrorSchema } } }, async (request) =>
    titles.getTitle(request.params.id),
  );

  app.post(
    '/api/retrieveTitleCode',
    { schema: { tags: ['titles'], body: retrieveTitleCodeBodySchema, response: { 200: retrieveTitleCodeResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema } } },
    async (request) => ({ titleCode: titles.retrieveTitleCode(request.body.minsideUrl) }),
  );

  app.post('/api/maintenanceTitle', { schema: { tags: ['titles'], body: maintenanceTitleBodySchema, response: { 200: maintenanceTitleResponseSchema, 400: apiErrorSchema } } }, async (request) =>
    titles.maintenanceTitle(request.body.minsideUrl),
  );

  app.get('/logos/:file', { schema: { hide: true, params: z.object({ file: z.string().max(128) }) } }, async (request, reply) => {
    const match = /^(.+)\.svg$/.exec(request.params.file);
    const entry = match?.[1] ? titles.findByTitleDomain(match[1]) : undefined;
    if (!entry) return sendApiNotFound(reply);
    return reply.type('image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=86400').send(renderWordmark(entry));
  });
};
