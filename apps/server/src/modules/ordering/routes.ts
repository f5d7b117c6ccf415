import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignAccountBodySchema,
  assignAccountResponseSchema,
  createOrderBodySchema,
  orderOffersQuerySchema,
  orderOffersResponseSchema,
  orderParamsSchema,
  orderPaymentBodySchema,
  orderResponseSchema,
  orderSchema,
  paymentRedirectSchema,
  searchAccountBodySchema,
  searchAccountResponseSchema,
  sessionQuerySchema,
  verifyConnectBodySchema,
  verifyConnectResponseSchema,
  winbackLinkBodySchema,
  winbackLinkResponseSchema,
  winbackQuerySchema,
  winbackResponseSchema,
} from '@minside/domain';
import { operatorAuth } from '../../plugins/operator-auth.ts';
import type { SessionStore } from '../../plugins/session.ts';
import type { TitleService } from '../titles/index.ts';
import type { ConnectService } from './connect.ts';
import type { OrderingService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 410, 429, 503);

export interface OrderingRouteOptions {
  ordering: OrderingService;
  connect: ConnectService;
  sessions: SessionStore;
  titles: TitleService;
  operatorToken: string | undefined;
  /** The portal origin of a title, for the winback links operators hand out. */
  portalOrigin: (titleCode: string) => string;
}

/**
 * Ordering (issue 7): offers, orders and their payment, /winback, and the connect calls of
 * SPEC §7 (`search-account`, `verify/`, `account/assign`). The title is `?titleCode=`, else the host's.
 */
export const orderingRoutes: FastifyPluginAsyncZod<OrderingRouteOptions> = async (app, { ordering, connect, sessions, titles, operatorToken, portalOrigin }) => {
  app.get('/api/order/offers', { schema: { tags: ['ordering'], querystring: orderOffersQuerySchema, response: { 200: orderOffersResponseSchema, ...errors } } }, async (request) => {
    const session = await sessions.find(request);
    return ordering.offers(session?.user ?? null, request.title, request.query);
  });

  app.get('/api/winback', { schema: { tags: ['ordering'], querystring: winbackQuerySchema, response: { 200: winbackResponseSchema, ...errors } } }, async (request) => {
    const session = await sessions.find(request);
    return ordering.winback(session?.user ?? null, request.title, request.query.token);
  });

  app.post(
    '/api/operator/winback-link',
    { schema: { tags: ['operator'], body: winbackLinkBodySchema, response: { 200: winbackLinkResponseSchema, ...errors } }, onRequest: operatorAuth(operatorToken) },
    async (request) => {
      const titleCode = titles.getTitle(request.body.titleCode).titleCode;
      const { token, expiresAt } = ordering.winbackToken(request.body.ariaAccountNo, titleCode, request.body.validDays);
      return { token, url: `${portalOrigin(titleCode)}/winback?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
    },
  );

  // Signed in: orders, and connecting an existing subscription (SPEC §7), for the caller's own.
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', app.authenticate);
    const typed = signedIn.withTypeProvider<ZodTypeProvider>();
    typed.post(
      '/api/order',
      { schema: { tags: ['ordering'], querystring: sessionQuerySchema, body: createOrderBodySchema, response: { 200: orderSchema, 201: orderSchema, ...errors } } },
      async (request, reply) => {
        const { order, created } = await ordering.createOrder(request.user, request.title, request.body);
        return reply.status(created ? 201 : 200).send(order);
      },
    );

    typed.get('/api/order/:orderId', { schema: { tags: ['ordering'], params: orderParamsSchema, response: { 200: orderResponseSchema, ...errors } } }, async (request) =>
      ordering.getOrder(request.user, request.params.orderId),
    );

    typed.post(
      '/api/order/:orderId/payment',
      { schema: { tags: ['ordering'], params: orderParamsSchema, body: orderPaymentBodySchema, response: { 200: paymentRedirectSchema, ...errors } } },
      async (request) => ordering.startPayment(request.user, request.params.orderId, request.body.method),
    );

    typed.post('/api/order/:orderId/cancel', { schema: { tags: ['ordering'], params: orderParamsSchema, body: z.object({}).optional(), response: { 200: orderSchema, ...errors } } }, async (request) =>
      ordering.cancelOrder(request.user, request.params.orderId),
    );

    typed.post(
      '/api/search-account',
      { schema: { tags: ['account'], querystring: sessionQuerySchema, body: searchAccountBodySchema, response: { 200: searchAccountResponseSchema, ...errors } } },
      async (request) => connect.search(request.user, request.title, request.body, request.ip),
    );

    for (const path of ['/api/verify/', '/api/verify']) {
      typed.post(path, { schema: { tags: ['account'], body: verifyConnectBodySchema, response: { 200: verifyConnectResponseSchema, ...errors } } }, async (request) =>
        connect.verify(request.user, request.body.requestId, request.body.code),
      );
    }

    typed.put(
      '/api/account/assign',
      { schema: { tags: ['account'], querystring: sessionQuerySchema, body: assignAccountBodySchema, response: { 200: assignAccountResponseSchema, ...errors } } },
      async (request) => connect.assign(request.user, request.title, request.body.requestId),
    );
  });
};
