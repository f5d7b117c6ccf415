import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeLogResponseSchema,
  changePlanBodySchema,
  changePlanResponseSchema,
  deleteSubscriptionBodySchema,
  deleteSubscriptionResponseSchema,
  emptyBodySchema,
  identityIdOf,
  planCatalogueParamsSchema,
  planOptionsResponseSchema,
  priceChangesResponseSchema,
  reactivateSubscriptionBodySchema,
  reactivateSubscriptionResponseSchema,
  retentionOfferResponseSchema,
  subscriptionActionParamsSchema,
  subscriptionResponseSchema,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import type { SessionStore } from '../../plugins/session.ts';
import type { LifecycleService } from './lifecycle-service.ts';
import { soldPlans } from './plans.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/**
 * Cancellation, undo, reactivation, plan change and the change log (issue 4). SPEC §7 names
 * `DELETE deleteSubscription` and `POST reactivateSubscription/`; the others are resources of
 * the subscription they act on. Every call checks ownership: another user's subscription is 404.
 */
export const lifecycleRoutes: FastifyPluginAsyncZod<{ lifecycle: LifecycleService; sessions: SessionStore; db: Db; identityProviderName: string }> = async (
  app,
  { lifecycle, sessions, db, identityProviderName },
) => {
  app.delete(
    '/api/deleteSubscription',
    { schema: { tags: ['subscription'], body: deleteSubscriptionBodySchema, response: { 200: deleteSubscriptionResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return lifecycle.deleteSubscription(user, request.body);
    },
  );

  // SPEC §7 writes the path with a trailing slash; both spellings answer.
  for (const path of ['/api/reactivateSubscription/', '/api/reactivateSubscription']) {
    app.post(
      path,
      { schema: { tags: ['subscription'], body: reactivateSubscriptionBodySchema, response: { 200: reactivateSubscriptionResponseSchema, ...errors } } },
      async (request) => {
        const { user } = await sessions.require(request);
        return lifecycle.reactivate(user, request.body, identityIdOf(request.body, identityProviderName));
      },
    );
  }

  app.post(
    '/api/subscription/:accountNo/:titleCode/undo-cancellation',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, body: emptyBodySchema, response: { 200: subscriptionResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return { subscription: await lifecycle.undoCancellation(user.id, request.params.accountNo, request.params.titleCode) };
    },
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/retention-offer',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: retentionOfferResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return { offer: await lifecycle.retentionOffer(user.id, request.params.accountNo, request.params.titleCode) };
    },
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/plans',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: planOptionsResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return { options: await lifecycle.planOptions(user, request.params.accountNo, request.params.titleCode) };
    },
  );

  app.post(
    '/api/subscription/:accountNo/:titleCode/plan',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, body: changePlanBodySchema, response: { 200: changePlanResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return lifecycle.changePlan(user, request.params.accountNo, request.params.titleCode, request.body.ariaPlanID);
    },
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode/changes',
    { schema: { tags: ['subscription'], params: subscriptionActionParamsSchema, response: { 200: changeLogResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return { entries: await lifecycle.changeLog(user.id, request.params.accountNo, request.params.titleCode) };
    },
  );

  // Public (/nye-priser): the title's plans, with the price changes that have been announced.
  app.get(
    '/api/plans/:titleCode',
    { schema: { tags: ['subscription'], params: planCatalogueParamsSchema, response: { 200: priceChangesResponseSchema, ...errors } } },
    async (request) => ({ plans: await soldPlans(db, request.params.titleCode) }),
  );
};
