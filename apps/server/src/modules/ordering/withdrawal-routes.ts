import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptyBodySchema, subscriptionActionParamsSchema, withdrawalResponseSchema } from '@minside/domain';
import type { WithdrawalService } from './withdrawal.ts';
import { apiErrors } from '../../lib/api-errors.ts';

const errors = apiErrors(400, 401, 403, 404, 409);

/**
 * The right of withdrawal (angrerett, ADR 030) on the subscription it concerns: GET tells the
 * buyer whether and until when, POST withdraws (409 WITHDRAWAL_PERIOD_EXPIRED after the deadline,
 * WITHDRAWAL_NOT_AVAILABLE for a subscription not bought here). Another user's subscription is 404.
 */
export const withdrawalRoutes: FastifyPluginAsyncZod<{ withdrawals: WithdrawalService }> = async (app, { withdrawals }) => {
  // Signed in: the caller's own subscription (404 for another's).
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', app.authenticate);
    const typed = signedIn.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/api/subscription/:accountNo/:titleCode/withdrawal',
      { schema: { tags: ['ordering'], params: subscriptionActionParamsSchema, response: { 200: withdrawalResponseSchema, ...errors } } },
      async (request) => withdrawals.status(request.user, request.params.accountNo, request.params.titleCode),
    );

    typed.post(
      '/api/subscription/:accountNo/:titleCode/withdrawal',
      { schema: { tags: ['ordering'], params: subscriptionActionParamsSchema, body: emptyBodySchema, response: { 200: withdrawalResponseSchema, ...errors } } },
      async (request) => withdrawals.withdraw(request.user, request.params.accountNo, request.params.titleCode),
    );
  });
};
