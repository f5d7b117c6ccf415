import { useQuery, useQueryClient } from '../../lib/query/index.ts';
import { useCallback } from 'react';
import { osloToday, type Subscription, systemClock } from '@minside/domain';
import { sessionStore, useIdentity, useSessionAccount, useSessionSubscription, useSessionUser } from '../auth/index.ts';
import { useStore } from '../../lib/create-store.ts';
import { subscriptionKeys } from './api/keys.ts';
import { subscriptionQueryOptions } from './api/get-subscription.ts';

/**
 * The signed-in subscriber's subscription on this title, fresh from the server. The session's
 * copy shows at once (the guard has it); it is the server's answer of when the session was
 * checked (the same shape as `GET /api/subscription`), so it is asked for again only once it is
 * older than the cache keeps an answer. A page the server has just rendered, whose session came
 * with it, does not ask again while it hydrates (issue 27); a session the SPEC §9 cache has kept
 * for minutes does. Null only outside the guarded pages.
 */
export function useCurrentSubscription(): Subscription | null {
  const fromSession = useSessionSubscription();
  const checkedAt = useStore(sessionStore, (state) => state.checkedAt);
  const ref = fromSession ?? { ariaAccountNo: 0, titleCode: '' };
  const { data } = useQuery({
    ...subscriptionQueryOptions(ref),
    enabled: fromSession !== null,
    initialData: fromSession ?? undefined,
    initialDataUpdatedAt: checkedAt ?? 0,
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
