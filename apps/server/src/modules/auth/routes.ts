import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  chooseLoginIssuerBodySchema,
  chooseLoginIssuerResponseSchema,
  emptyBodySchema,
  loginIssuerKeySchema,
  loginIssuersResponseSchema,
  profileLoginsResponseSchema,
  handleCodeBodySchema,
  handleCodeResponseSchema,
  LOGIN_NOT_STARTED_ERROR,
  loginReturnQuerySchema,
  loginReturnResponseSchema,
  loginTokenQuerySchema,
  loginTokenResponseSchema,
  logoutResponseSchema,
  sessionQuerySchema,
  sessionResponseSchema,
} from '@minside/domain';
import type { AuthService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';
import { AppError } from '../../lib/app-error.ts';

const errors = apiErrors(400, 401, 409, 503);
const loginStartQuerySchema = loginTokenQuerySchema.pick({ returnTo: true, titleCode: true });

/** SPEC §7 login-flow calls: loginToken, handlecode, handleLoginToken, logout; plus the session check. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.get('/api/loginToken', { schema: { tags: ['auth'], querystring: loginTokenQuerySchema, response: { 200: loginTokenResponseSchema, ...errors } } }, async (request, reply) =>
    auth.startLogin(request, reply, request.query),
  );

  // The header's "Logg inn" as a plain link (docs/decisions/032): a click before the page's
  // scripts have taken over the server's markup, or without scripts at all, starts the same
  // login and goes straight on to the provider. A login that cannot start ends on /callback,
  // which says so and offers "Prøv igjen", instead of an API error in the browser's window.
  // No HEAD twin: a link checker's HEAD would record a login for nothing.
  app.get(
    '/api/login/start',
    {
      exposeHeadRoute: false,
      schema: {
        tags: ['auth'],
        querystring: loginStartQuerySchema,
        response: {
          303: z.never().describe(`On to the provider’s login page (Location), or to /callback?error=${LOGIN_NOT_STARTED_ERROR}&returnTo=… when the login cannot start`),
          400: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        const { authorizationUrl } = await auth.startLogin(request, reply, request.query);
        return reply.redirect(authorizationUrl, 303);
      } catch (error) {
        // A request the portal refuses (a host it does not serve) gets its API answer, as at loginToken.
        if (error instanceof AppError && error.statusCode < 500) throw error;
        request.log.error({ err: error }, 'The login could not be started');
        // With where it was to return: "Prøv igjen" there starts the login for the same page.
        return reply.redirect(`/callback?${new URLSearchParams({ error: LOGIN_NOT_STARTED_ERROR, returnTo: request.query.returnTo ?? '/' })}`, 303);
      }
    },
  );

  app.get('/api/login/return', { schema: { tags: ['auth'], querystring: loginReturnQuerySchema, response: { 200: loginReturnResponseSchema, 400: apiErrorSchema } } }, async (request) =>
    auth.returnTarget(request, request.query.state),
  );

  // Both names of SPEC §7 do the same: the full-page redirect and the popup return the same way.
  for (const path of ['/api/handlecode', '/api/handleLoginToken']) {
    app.post(path, { schema: { tags: ['auth'], body: handleCodeBodySchema, response: { 200: handleCodeResponseSchema, ...errors } } }, async (request, reply) =>
      auth.completeLogin(request, reply, request.body, request.log),
    );
  }

  // Issue 24: the portal's login page lists the issuers; the person's pick sends them on.
  app.get('/api/login/issuers', { schema: { tags: ['auth'], response: { 200: loginIssuersResponseSchema } } }, async () => auth.loginIssuers());
  app.post('/api/login/choose', { schema: { tags: ['auth'], body: chooseLoginIssuerBodySchema, response: { 200: chooseLoginIssuerResponseSchema, ...errors } } }, async (request) =>
    auth.chooseIssuer(request, request.body),
  );
  app.get('/api/profile/logins', { onRequest: app.authenticate, schema: { tags: ['auth'], response: { 200: profileLoginsResponseSchema, ...errors } } }, async (request) =>
    auth.loginsOf(request.user),
  );
  app.delete(
    '/api/profile/logins/:issuer',
    {
      onRequest: app.authenticate,
      schema: { tags: ['auth'], params: z.object({ issuer: loginIssuerKeySchema }), body: emptyBodySchema, response: { 200: profileLoginsResponseSchema, 404: apiErrorSchema, ...errors } },
    },
    async (request) => auth.unlink(request.session, request.params.issuer),
  );

  app.get('/api/session', { schema: { tags: ['auth'], querystring: sessionQuerySchema, response: { 200: sessionResponseSchema, ...errors } } }, async (request) =>
    auth.session(request, request.query.titleCode),
  );

  app.post(
    '/api/logout',
    // SPEC §7: an empty body, sent as the JSON `{}` (every state-changing call is JSON: plugins/csrf.ts).
    { schema: { tags: ['auth'], body: emptyBodySchema, response: { 200: logoutResponseSchema, 400: apiErrorSchema } } },
    async (request, reply) => auth.logout(request, reply, request.log),
  );
};
