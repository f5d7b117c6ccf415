import type { FastifyRequest } from 'fastify';
import { requestUrlOf } from '../../plugins/portal-origin.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
  const titleOf = (request: FastifyRequest, titleCode: string | undefined) => titles.titleFor(titleCode, requestUrlOf(request));

  app.get('/api/order/offers', { schema: { tags: ['ordering'], querystring: orderOffersQuerySchema, response: { 200: orderOffersResponseSchema, ...errors } } }, async (request) => {
    const session = await sessions.find(request);
    return ordering.offers(session?.user ?? null, titleOf(request, request.query.titleCode), request.query);
  });

  app.get('/api/winback', { schema: { tags: ['ordering'], querystring: winbackQuerySchema, response: { 200: winbackResponseSchema, ...errors } } }, async (request) => {
    const session = await sessions.find(request);
    return ordering.winback(session?.user ?? null, titleOf(request, request.query.titleCode), request.query.token);
  });

  app.post(
    '/api/order',
    { schema: { tags: ['ordering'], querystring: sessionQuerySchema, body: createOrderBodySchema, response: { 200: orderSchema, 201: orderSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await sessions.require(request);
      const { order, created } = await ordering.createOrder(user, titleOf(request, request.query.titleCode), request.body);
      return reply.status(created ? 201 : 200).send(order);
    },
  );

  app.get('/api/order/:orderId', { schema: { tags: ['ordering'], params: orderParamsSchema, response: { 200: orderResponseSchema, ...errors } } }, async (request) => {
    const { user } = await sessions.require(request);
    return ordering.getOrder(user, request.params.orderId);
  });

  app.post(
    '/api/order/:orderId/payment',
    { schema: { tags: ['ordering'], params: orderParamsSchema, body: orderPaymentBodySchema, response: { 200: paymentRedirectSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return ordering.startPayment(user, request.params.orderId, request.body.method);
    },
  );

  app.post(
    '/api/order/:orderId/cancel',
    { schema: { tags: ['ordering'], params: orderParamsSchema, body: z.object({}).optional(), response: { 200: orderSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return ordering.cancelOrder(user, request.params.orderId);
    },
  );

  app.post(
    '/api/operator/winback-link',
    { schema: { tags: ['operator'], body: winbackLinkBodySchema, response: { 200: winbackLinkResponseSchema, ...errors } }, onRequest: operatorAuth(operatorToken) },
    async (request) => {
      const titleCode = titles.getTitle(request.body.titleCode).titleCode;
      const { token, expiresAt } = ordering.winbackToken(request.body.ariaAccountNo, titleCode, request.body.validDays);
      return { token, url: `${portalOrigin(titleCode)}/winback?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    '/api/search-account',
    { schema: { tags: ['account'], querystring: sessionQuerySchema, body: searchAccountBodySchema, response: { 200: searchAccountResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return connect.search(user, titleOf(request, request.query.titleCode), request.body, request.ip);
    },
  );

  for (const path of ['/api/verify/', '/api/verify']) {
    app.post(path, { schema: { tags: ['account'], body: verifyConnectBodySchema, response: { 200: verifyConnectResponseSchema, ...errors } } }, async (request) => {
      const { user } = await sessions.require(request);
      return connect.verify(user, request.body.requestId, request.body.code);
    });
  }

  app.put(
    '/api/account/assign',
    { schema: { tags: ['account'], querystring: sessionQuerySchema, body: assignAccountBodySchema, response: { 200: assignAccountResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return connect.assign(user, titleOf(request, request.query.titleCode), request.body.requestId);
    },
  );
};
