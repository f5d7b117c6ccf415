// The subscription area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
import type { FastifyInstance } from 'fastify';
import { lifecycleRoutes } from './lifecycle-routes.ts';
import type { LifecycleService } from './lifecycle-service.ts';
import { planCatalogueRoutes, subscriptionRoutes } from './routes.ts';
import type { AccountService } from './service.ts';

/**
 * Accounts, subscriptions and their lifecycle (SPEC §7, issue 4). SPEC §7's paths share no prefix,
 * so the signed-in calls share one scope with `app.authenticate` on it; /api/plans is public.
 */
export async function registerSubscription(app: FastifyInstance, deps: { accounts: AccountService; lifecycle: LifecycleService; identityProviderName: string }): Promise<void> {
  const { accounts, lifecycle, identityProviderName } = deps;
  await app.register(async (signedIn) => {
    signedIn.addHook('onRequest', app.authenticate);
    await signedIn.register(subscriptionRoutes, { accounts, identityProviderName });
    await signedIn.register(lifecycleRoutes, { lifecycle, identityProviderName });
  });
  await app.register(planCatalogueRoutes, { lifecycle });
}

// What buildApp and the other areas build on: the account service, the lifecycle (privacy ends
// subscriptions through it) and the change confirmations every area sends.
export { createAccountService, toAccountDto, type AccountRow, type AccountService } from './service.ts';
export { createLifecycleService, type LifecycleService } from './lifecycle-service.ts';
export { createChangeMails, type ChangeMails } from './change-mails.ts';

export type { DeliveryChangeEvent } from './change-mails.ts';
export { accessOn, accessWithOwnerOn, grantSubscription, introColumns, lockSubscriptionAt } from './grant.ts';
export { lifecycleView } from './lifecycle-service.ts';
export { findPlan, soldPlans } from './plans.ts';
export { toSubscriptionDto, toUserDto } from './service.ts';
export { endShareRow, endSharesOf, ownFieldsOf, settleShare } from './shares.ts';
