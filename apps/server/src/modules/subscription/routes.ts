import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountParamsSchema,
  accountSchema,
  createAccountBodySchema,
  createAccountResponseSchema,
  identityIdOf,
  subscriptionParamsSchema,
  subscriptionSchema,
  updateAccountBodySchema,
} from '@minside/domain';
import type { SessionStore } from '../../plugins/session.ts';
import { toAccountDto, type AccountService } from './service.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/**
 * SPEC §7 account and subscription calls. Every id is checked against the session: another
 * user's account or subscription answers 404, the same as one that does not exist.
 */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ accounts: AccountService; sessions: SessionStore; identityProviderName: string }> = async (
  app,
  { accounts, sessions, identityProviderName },
) => {
  app.get(
    '/api/account/:id',
    { schema: { tags: ['account'], params: accountParamsSchema, response: { 200: accountSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return toAccountDto(await accounts.getOwnAccount(user.id, request.params.id), user, identityProviderName);
    },
  );

  app.post(
    '/api/account',
    { schema: { tags: ['account'], body: createAccountBodySchema, response: { 201: createAccountResponseSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await sessions.require(request);
      const ariaAccountNo = await accounts.createAccount(user.id, {
        accountBalance: request.body.accountBalance,
        firstTitleCode: request.body.firstTitleCode,
        identityId: identityIdOf(request.body, identityProviderName),
      });
      return reply.status(201).send({ ariaAccountNo });
    },
  );

  app.put(
    '/api/account',
    { schema: { tags: ['account'], body: updateAccountBodySchema, response: { 200: accountSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return toAccountDto(await accounts.updateAccount(user.id, request.body), user, identityProviderName);
    },
  );

  app.get(
    '/api/subscription/:accountNo/:titleCode',
    { schema: { tags: ['subscription'], params: subscriptionParamsSchema, response: { 200: subscriptionSchema, ...errors } } },
    async (request) => {
      const { user } = await sessions.require(request);
      return accounts.getOwnSubscription(user.id, request.params.accountNo, request.params.titleCode);
    },
  );
};
