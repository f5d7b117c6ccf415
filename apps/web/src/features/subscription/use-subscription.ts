import { useQuery, useQueryClient } from '../../lib/query/index.ts';
import { useCallback } from 'react';
import { osloToday, type Subscription, systemClock } from '@minside/domain';
import { useIdentity, useSessionAccount, useSessionSubscription, useSessionUser } from '../auth/index.ts';
import { subscriptionKeys } from './api/keys.ts';
import { subscriptionQueryOptions } from './api/get-subscription.ts';

/**
 * The signed-in subscriber's subscription on this title, fresh from the server. The session's
 * copy shows at once (the guard has it); the server's answer replaces it when it arrives.
 * Null only outside the guarded pages.
 */
export function useCurrentSubscription(): Subscription | null {
  const fromSession = useSessionSubscription();
  const ref = fromSession ?? { ariaAccountNo: 0, titleCode: '' };
  const { data } = useQuery({
    ...subscriptionQueryOptions(ref),
    enabled: fromSession !== null,
    initialData: fromSession ?? undefined,
    initialDataUpdatedAt: 0,
  });
  return fromSession ? (data ?? fromSession) : null;
}

/** After a change: the new subscription goes into the cache and the session, and what depends on it is fetched again. */
export function useSubscriptionUpdate(): (subscription: Subscription) => void {
  const queryClient = useQueryClient();
  const identity = useIdentity();
  const user = useSessionUser();
  const account = useSessionAccount();
  return useCallback(
    (subscription: Subscription) => {
      queryClient.setQueryData(subscriptionKeys.detail(subscription), subscription);
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.changes(subscription) });
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.plans(subscription) });
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.retentionOffer(subscription) });
      if (user) identity.remember({ user, account, subscription });
    },
    [queryClient, identity, user, account],
  );
}

/** Today in Europe/Oslo, the calendar the subscription's dates are in. */
export function useToday(): string {
  return osloToday(systemClock());
}
