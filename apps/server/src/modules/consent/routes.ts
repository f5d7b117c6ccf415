import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema, clientConfigQuerySchema, clientConfigSchema, consentStateSchema, consentUpdateBodySchema, type ClientConfig } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { ConsentService } from './service.ts';
import { consentPermissionRoutes, type ConsentPermissionService } from './permissions.ts';
import type { ClientSettings } from '../../config/client-settings.ts';
import { clientConfigOf } from './settings.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403);

export interface ConsentRouteDeps {
  consent: ConsentService;
  permissions: ConsentPermissionService;
  catalogue: Catalogue;
  settings: ClientSettings;
}

/**
 * Under /api/consent, signed in: the user's own consent and permissions (no id to pass). Public:
 * the browser's consent/analytics/monitoring set-up, which runs before anyone signs in.
 */
export const consentRoutes: FastifyPluginAsyncZod<ConsentRouteDeps> = async (app, { consent, permissions, catalogue, settings }) => {
  await app.register(
    async (area) => {
      area.addHook('onRequest', app.authenticate);
      const typed = area.withTypeProvider<ZodTypeProvider>();
      typed.get('', { schema: { tags: ['consent'], response: { 200: consentStateSchema, ...errors } } }, async (request) => consent.getConsent(request.user.id));
      typed.put('', { schema: { tags: ['consent'], body: consentUpdateBodySchema, response: { 200: consentStateSchema, ...errors } } }, async (request) =>
        consent.recordConsent(request.user.id, request.body),
      );
      await typed.register(consentPermissionRoutes, { permissions });
    },
    { prefix: '/api/consent' },
  );

  app.get(
    '/api/client-config',
    { schema: { tags: ['consent'], querystring: clientConfigQuerySchema, response: { 200: clientConfigSchema, 400: apiErrorSchema } } },
    async (request): Promise<ClientConfig> => clientConfigOf(settings, catalogue.byTitleCode(request.title.titleCode)),
  );
};
