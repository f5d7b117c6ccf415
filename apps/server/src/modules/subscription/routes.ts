import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountParamsSchema,
  accountSchema,
  createAccountBodySchema,
  createAccountResponseSchema,
  identityIdOf,
  planCatalogueParamsSchema,
  priceChangesResponseSchema,
  subscriptionParamsSchema,
  subscriptionSchema,
  updateAccountBodySchema,
} from '@minside/domain';
import { toAccountDto, type AccountService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';
import type { LifecycleService } from './lifecycle-service.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/**
 * SPEC §7 account and subscription calls, signed in (the area's scope, index.ts). Every id is checked against the session: another
 * user's account or subscription answers 404, the same as one that does not exist.
 */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ accounts: AccountService; identityProviderName: string }> = async (app, { accounts, identityProviderName }) => {
  app.get('/api/account/:id', { schema: { tags: ['account'], params: accountParamsSchema, response: { 200: accountSchema, ...errors } } }, async (request) =>
    toAccountDto(await accounts.getOwnAccount(request.user.id, request.params.id), request.user, identityProviderName),
  );

  app.post('/api/account', { schema: { tags: ['account'], body: createAccountBodySchema, response: { 201: createAccountResponseSchema, ...errors } } }, async (request, reply) => {
    const { user } = request;
    const ariaAccountNo = await accounts.createAccount(user.id, {
      accountBalance: request.body.accountBalance,
      firstTitleCode: request.body.firstTitleCode,
      identityId: identityIdOf(request.body, identityProviderName),
    });
    return reply.status(201).send({ ariaAccountNo });
  });

  app.put('/api/account', { schema: { tags: ['account'], body: updateAccountBodySchema, response: { 200: accountSchema, ...errors } } }, async (request) =>
    toAccountDto(await accounts.updateAccount(request.user.id, request.body), request.user, identityProviderName),
  );

  app.get('/api/subscription/:accountNo/:titleCode', { schema: { tags: ['subscription'], params: subscriptionParamsSchema, response: { 200: subscriptionSchema, ...errors } } }, async (request) =>
    accounts.getOwnSubscription(request.user.id, request.params.accountNo, request.params.titleCode),
  );
};

/** Public (/nye-priser): the title's plans, with the price changes that have been announced. */
export const planCatalogueRoutes: FastifyPluginAsyncZod<{ lifecycle: Pick<LifecycleService, 'soldPlans'> }> = async (app, { lifecycle }) => {
  app.get('/api/plans/:titleCode', { schema: { tags: ['subscription'], params: planCatalogueParamsSchema, response: { 200: priceChangesResponseSchema, ...errors } } }, async (request) => ({
    plans: await lifecycle.soldPlans(request.params.titleCode),
  }));
};
