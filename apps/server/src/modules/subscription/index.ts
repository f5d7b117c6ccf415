// The subscription area as the rest of the server sees it: other areas, app.ts, bin/, jobs/, admin/ and
// plugins/ import it only from here (eslint.config.js, areaZones); its other files may change freely.
export { createChangeMails } from './change-mails.ts';
export type { ChangeMails, DeliveryChangeEvent } from './change-mails.ts';
export { accessOn, accessWithOwnerOn, grantSubscription, introColumns, lockSubscriptionAt } from './grant.ts';
export { lifecycleRoutes } from './lifecycle-routes.ts';
export { createLifecycleService, lifecycleView } from './lifecycle-service.ts';
export type { LifecycleService } from './lifecycle-service.ts';
export { findPlan, soldPlans } from './plans.ts';
export { subscriptionRoutes } from './routes.ts';
export { createAccountService, toAccountDto, toSubscriptionDto, toUserDto } from './service.ts';
export type { AccountService } from './service.ts';
export { endShareRow, endSharesOf, ownFieldsOf, settleShare } from './shares.ts';
