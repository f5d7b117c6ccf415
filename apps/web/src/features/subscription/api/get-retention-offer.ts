import { queryOptions } from '../../../lib/query/index.ts';
import type { RetentionOffer, RetentionOfferResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionKeys, subscriptionPath, type SubscriptionRef } from './keys.ts';

/** GET …/retention-offer: the one offer the subscription may still accept instead of cancelling. */
async function getRetentionOffer(subscription: SubscriptionRef, signal?: AbortSignal): Promise<RetentionOffer | null> {
  return (await http.get<RetentionOfferResponse>(subscriptionPath(subscription, 'retention-offer'), { signal })).offer;
}

export function retentionOfferQueryOptions(subscription: SubscriptionRef) {
  return queryOptions({ queryKey: subscriptionKeys.retentionOffer(subscription), queryFn: ({ signal }) => getRetentionOffer(subscription, signal), staleTime: 0 });
}
