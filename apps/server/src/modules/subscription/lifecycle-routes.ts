import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeLogResponseSchema,
  changePlanBodySchema,
  changePlanResponseSchema,
  deleteSubscriptionBodySchema,
  deleteSubscriptionResponseSchema,
  emptyBodySchema,
  identityIdOf,
  planOptionsResponseSchema,
  reactivateSubscriptionBodySchema,
  reactivateSubscriptionResponseSchema,
  retentionOfferResponseSchema,
  subscriptionActionParamsSchema,
  subscriptionResponseSchema,
} from '@minside/domain';
import type { LifecycleService } from './lifecycle-service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/**
 * Cancellation, undo, reactivation, plan change and the change log (issue 4). SPEC §7 names
 * `DELETE deleteSubscription` and `POST reactivateSubscription/`; the others are resources of
 * the subscription they act on. Signed in (the area's scope, index.ts); every call checks
 * ownership: another user's subscription is 404.
 */
export const lifecycleRoutes: FastifyPluginAsyncZod<{ lifecycle: LifecycleService; identityProviderName: string }> = async (app, { lifecycle, identityProviderName }) => {
  app.delete('/api/deleteSubscription', { schema: { tags: ['subscription'], body: deleteSubscriptionBodySchema, response: { 200: deleteSubscriptionResponseSchema, ...errors } } }, async (request) =>
    lifecycle.deleteSubscription(request.user, request.body),
  );

  // SPEC §7 writes the path with a trailing slash; both spellings answer.
  for (const path of ['/api/reactivateSubscription/', '/api/reactivateSubscription']) {
    app.post(path, { schema: { tags: ['subscription'], body: reactivateSubscriptionBodySchema, response: { 200: reactivateSubscriptionResponseSchema, ...errors } } }, async (request) =>
      lifecycle.reactivate(request.user, request.body, identityIdOf(request.body, identityProviderName)),
    );
  }

  app.post(
    '/api/subscription/:accountNo/:titleCode/undo-cancellation',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, body: emptyBodySchema, response: { 200: subscriptionResponseSchema, ...errors } } },
    async (request) => ({ subscription: await lifecycle.undoCancellation(request.user.id, request.params.accountNo, request.params.titleCode) }),
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/retention-offer',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: retentionOfferResponseSchema, ...errors } } },
    async (request) => ({ offer: await lifecycle.retentionOffer(request.user.id, request.params.accountNo, request.params.titleCode) }),
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/plans',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: planOptionsResponseSchema, ...errors } } },
    async (request) => ({ options: await lifecycle.planOptions(request.user, request.params.accountNo, request.params.titleCode) }),
  );

  app.post(
    '/api/subscription/:accountNo/:titleCode/plan',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, body: changePlanBodySchema, response: { 200: changePlanResponseSchema, ...errors } } },
    async (request) => lifecycle.changePlan(request.user, request.params.accountNo, request.params.titleCode, request.body.ariaPlanID),
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/changes',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: changeLogResponseSchema, ...errors } } },
    async (request) => ({ entries: await lifecycle.changeLog(request.user.id, request.params.accountNo, request.params.titleCode) }),
  );
};
