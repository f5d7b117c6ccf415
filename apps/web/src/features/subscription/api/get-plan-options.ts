import { queryOptions } from '../../../lib/query/index.ts';
import type { PlanOption, PlanOptionsResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionKeys, subscriptionPath, type SubscriptionRef } from './keys.ts';

/** GET …/plans: the plans the title sells, each with what switching to it would mean. */
async function getPlanOptions(subscription: SubscriptionRef, signal?: AbortSignal): Promise<PlanOption[]> {
  return (await http.get<PlanOptionsResponse>(subscriptionPath(subscription, 'plans'), { signal })).options;
}

export function planOptionsQueryOptions(subscription: SubscriptionRef) {
  return queryOptions({ queryKey: subscriptionKeys.plans(subscription), queryFn: ({ signal }) => getPlanOptions(subscription, signal), staleTime: 0 });
}
