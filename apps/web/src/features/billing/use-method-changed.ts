import { useQueryClient } from '../../lib/query/index.ts';
import { useCallback } from 'react';
import type { PaymentMethodDetails } from '@minside/domain';
import { useSessionSubscription } from '../auth/index.ts';
import { subscriptionQueryOptions, useSubscriptionUpdate } from '../subscription/index.ts';
import { billingKeys } from './api/keys.ts';

/**
 * After the payment method or card has changed: the method, and the subscription that `/`
 * shows it from (cache and session), are fetched again, so every page shows the new method.
 */
export function useMethodChanged(): (details?: PaymentMethodDetails) => Promise<void> {
  const queryClient = useQueryClient();
  const subscription = useSessionSubscription();
  const update = useSubscriptionUpdate();
  return useCallback(
    async (details?: PaymentMethodDetails) => {
      if (!subscription) return;
      const key = billingKeys.paymentMethod(subscription.ariaAccountNo, subscription.titleCode);
      if (details) queryClient.setQueryData(key, details);
      else await queryClient.invalidateQueries({ queryKey: key });
      try {
        const fresh = await queryClient.fetchQuery({ ...subscriptionQueryOptions(subscription), staleTime: 0 });
        update(fresh);
      } catch (error) {
        // The change itself succeeded; the home page fetches the subscription again on its own.
        console.error('Could not refresh the subscription after a payment method change', error);
      }
    },
    [queryClient, subscription, update],
  );
}
