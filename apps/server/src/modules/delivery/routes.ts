import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiErrorSchema,
  carrierFeedQuerySchema,
  toCsv,
  type CarrierFeedRow,
  complaintBodySchema,
  complaintCodeList,
  complaintCodesResponseSchema,
  complaintOptionsSchema,
  complaintReceiptSchema,
  deliveryAddressChangeBodySchema,
  deliveryAddressOverviewSchema,
  deliveryCalendarSchema,
  deliveryChangeBodySchema,
  deliveryChangeCancelResponseSchema,
  deliveryChangeListSchema,
  deliveryChangeParamsSchema,
  deliveryChangeSchema,
  emptyBodySchema,
  fileAnswer,
  postalCodeLookupSchema,
  deliveryNoticeListSchema,
  postalCodeParamsSchema,
  segmentMessageBodySchema,
  segmentMessageResultSchema,
  segmentParamsSchema,
  sessionQuerySchema,
} from '@minside/domain';
import { operatorAuth } from '../../plugins/operator-auth.ts';
import type { DeliveryNotices } from './notices.ts';
import type { DeliveryService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409, 422);

/**
 * Paper delivery (issue 5): SPEC §7 `complaintcodes`, and under /api/delivery the calendar,
 * vacation and delivery changes, the delivery address and complaints. Every call needs a
 * session; all but the code list and the postal-code lookup need a paper subscription on the
 * title (`?titleCode=` as for /api/session, else the host), or answer 403 with SPEC §6's message.
 */
export interface DeliveryRouteOptions {
  delivery: DeliveryService;
  notices: DeliveryNotices;
  /** OPERATOR_TOKEN: the operator endpoints answer 404 while it is unset. */
  operatorToken: string | undefined;
  feed: (titleCode: string, date: string) => Promise<CarrierFeedRow[]>;
}

export const deliveryRoutes: FastifyPluginAsyncZod<DeliveryRouteOptions> = async (app, { delivery, notices, operatorToken, feed }) => {
  // Operators (carrier desk, customer centre): a bearer token, no session.
  await app.register(
    async (operator) => {
      const typed = operator.withTypeProvider<ZodTypeProvider>();
      typed.addHook('onRequest', operatorAuth(operatorToken));
      typed.post(
        '/segment/:id/message',
        {
          schema: {
            tags: ['operator'],
            params: segmentParamsSchema,
            body: segmentMessageBodySchema,
            response: { 200: segmentMessageResultSchema, 201: segmentMessageResultSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 422: apiErrorSchema },
          },
        },
        async (request, reply) => {
          const result = await notices.sendToSegment(request.params.id, request.body);
          return reply.status(result.created ? 201 : 200).send(result);
        },
      );
    },
    { prefix: '/api' },
  );

  await app.register(
    async (operator) => {
      const typed = operator.withTypeProvider<ZodTypeProvider>();
      typed.addHook('onRequest', operatorAuth(operatorToken));
      typed.get(
        '/delivery-feed',
        {
          schema: {
            tags: ['operator'],
            querystring: carrierFeedQuerySchema,
            response: { 200: fileAnswer('text/csv', "The title's delivery changes of the day, one row each."), 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
          },
        },
        async (request, reply) => {
          const csv = toCsv(await feed(request.query.title, request.query.date));
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="leveringsendringer-${request.query.title.toUpperCase()}-${request.query.date}.csv"`)
            .header('cache-control', 'no-store')
            .send(csv);
        },
      );
    },
    { prefix: '/api/operator' },
  );

  app.get('/api/complaintcodes', { onRequest: app.authenticate, schema: { tags: ['delivery'], response: { 200: complaintCodesResponseSchema, 401: apiErrorSchema } } }, async () => complaintCodeList);

  await app.register(
    async (area) => {
      const typed = area.withTypeProvider<ZodTypeProvider>();
      // The whole prefix needs a session: a new route here cannot forget it.
      typed.addHook('onRequest', app.authenticate);
      const context = async (request: Pick<FastifyRequest, 'subscriber'>) => delivery.contextFor(await request.subscriber());

      typed.get('/postal-codes/:postalCode', { schema: { tags: ['delivery'], params: postalCodeParamsSchema, response: { 200: postalCodeLookupSchema, ...errors } } }, async (request) =>
        delivery.lookupPostalCode(request.params.postalCode),
      );

      typed.get('/calendar', { schema: { tags: ['delivery'], querystring: sessionQuerySchema, response: { 200: deliveryCalendarSchema, ...errors } } }, async (request) =>
        delivery.calendar(await context(request)),
      );

      typed.get('/changes', { schema: { tags: ['delivery'], querystring: sessionQuerySchema, response: { 200: deliveryChangeListSchema, ...errors } } }, async (request) => ({
        changes: await delivery.listChanges(await context(request)),
      }));

      typed.post(
        '/changes',
        { schema: { tags: ['delivery'], querystring: sessionQuerySchema, body: deliveryChangeBodySchema, response: { 201: deliveryChangeSchema, ...errors } } },
        async (request, reply) => reply.status(201).send(await delivery.placeChange(await context(request), request.body)),
      );

      typed.put(
        '/changes/:id',
        {
          schema: {
            tags: ['delivery'],
            querystring: sessionQuerySchema,
            params: deliveryChangeParamsSchema,
            body: deliveryChangeBodySchema,
            response: { 200: deliveryChangeSchema, ...errors },
          },
        },
        async (request) => delivery.updateChange(await context(request), request.params.id, request.body),
      );

      typed.delete(
        '/changes/:id',
        {
          schema: {
            tags: ['delivery'],
            querystring: sessionQuerySchema,
            params: deliveryChangeParamsSchema,
            body: emptyBodySchema,
            response: { 200: deliveryChangeCancelResponseSchema, ...errors },
          },
        },
        async (request) => ({ change: await delivery.cancelChange(await context(request), request.params.id) }),
      );

      typed.get('/address', { schema: { tags: ['delivery'], querystring: sessionQuerySchema, response: { 200: deliveryAddressOverviewSchema, ...errors } } }, async (request) =>
        delivery.addressOverview(await context(request)),
      );

      typed.post(
        '/address',
        { schema: { tags: ['delivery'], querystring: sessionQuerySchema, body: deliveryAddressChangeBodySchema, response: { 201: deliveryAddressOverviewSchema, ...errors } } },
        async (request, reply) => {
          const ctx = await context(request);
          await delivery.placeChange(ctx, { type: 'PERMANENT', fromDate: request.body.fromDate, toDate: null, address: request.body.address });
          return reply.status(201).send(await delivery.addressOverview(ctx));
        },
      );

      typed.get('/notices', { schema: { tags: ['delivery'], querystring: sessionQuerySchema, response: { 200: deliveryNoticeListSchema, ...errors } } }, async (request) => {
        const ctx = await context(request);
        return { notices: await notices.noticesFor(ctx.subscription.id, [delivery.today()]) };
      });

      typed.get('/complaints/options', { schema: { tags: ['delivery'], querystring: sessionQuerySchema, response: { 200: complaintOptionsSchema, ...errors } } }, async (request) =>
        delivery.complaintOptions(await context(request)),
      );

      typed.post(
        '/complaints',
        { schema: { tags: ['delivery'], querystring: sessionQuerySchema, body: complaintBodySchema, response: { 201: complaintReceiptSchema, ...errors } } },
        async (request, reply) => reply.status(201).send(await delivery.fileComplaint(await context(request), request.body)),
      );
    },
    { prefix: '/api/delivery' },
  );
};
