import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import { apiErrorSchema, clientConfigQuerySchema, clientConfigSchema, consentStateSchema, consentUpdateBodySchema, type ClientConfig } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { SessionStore } from '../../plugins/session.ts';
import type { TitleService } from '../titles/index.ts';
import type { ConsentService } from './service.ts';
import { clientConfigOf, type ClientSettings } from './settings.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403);

export interface ConsentRouteDeps {
  consent: ConsentService;
  sessions: SessionStore;
  titles: TitleService;
  catalogue: Catalogue;
  settings: ClientSettings;
}

/** The signed-in user's own consent (no id to pass), and the browser's consent/analytics/monitoring set-up. */
export const consentRoutes: FastifyPluginAsyncZod<ConsentRouteDeps> = async (app, { consent, sessions, titles, catalogue, settings }) => {
  app.get('/api/consent', { schema: { tags: ['consent'], response: { 200: consentStateSchema, ...errors } } }, async (request) => {
    const { user } = await sessions.require(request);
    return consent.getConsent(user.id);
  });

  app.put(
    '/api/consent',
    { schema: { tags: ['consent'], body: consentUpdateBodySchema, response: { 200: consentStateSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return consent.recordConsent(user.id, request.body);
    },
  );

  // Public: the consent dialog and analytics run before anyone signs in.
  app.get(
    '/api/client-config',
    { schema: { tags: ['consent'], querystring: clientConfigQuerySchema, response: { 200: clientConfigSchema, 400: apiErrorSchema } } },
    async (request): Promise<ClientConfig> => {
      const title = titles.titleFor(request.query.titleCode, requestUrlOf(request));
      return clientConfigOf(settings, catalogue.byTitleCode(title.titleCode));
    },
  );
};
