import { queryOptions } from '../../../lib/query/index.ts';
import type { Subscription } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionKeys, subscriptionPath, type SubscriptionRef } from './keys.ts';

/**
 * GET /api/subscription/{accountNo}/{titleCode} (SPEC §7): the subscription as it is now.
 * @public typed against the OpenAPI document by apps/server/test/openapi-contract.test.ts, whose
 * generated check imports it (knip cannot see that import).
 */
export function getSubscription(subscription: SubscriptionRef, signal?: AbortSignal): Promise<Subscription> {
  return http.get<Subscription>(subscriptionPath(subscription), { signal });
}

export function subscriptionQueryOptions(subscription: SubscriptionRef) {
  return queryOptions({
    queryKey: subscriptionKeys.detail(subscription),
    queryFn: ({ signal }) => getSubscription(subscription, signal),
  });
}
