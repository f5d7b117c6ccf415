import { queryOptions } from '../../../lib/query/index.ts';
import type { HomeOverview } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionKeys, type SubscriptionRef } from './keys.ts';

/**
 * GET /api/overview: delivery, money and invitations for the home page, in one round trip (issue 25.10).
 * @public typed against the OpenAPI document by apps/server/test/openapi-contract.test.ts, whose
 * generated check imports it (knip cannot see that import).
 */
export async function getHomeOverview(subscription: SubscriptionRef, signal?: AbortSignal): Promise<HomeOverview> {
  return http.get<HomeOverview>(`overview?titleCode=${encodeURIComponent(subscription.titleCode)}`, { signal });
}

export function homeOverviewQueryOptions(subscription: SubscriptionRef) {
  return queryOptions({ queryKey: subscriptionKeys.overview(subscription), queryFn: ({ signal }) => getHomeOverview(subscription, signal) });
}
