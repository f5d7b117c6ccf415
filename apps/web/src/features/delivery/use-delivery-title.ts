import { isPaperSubscription } from '@minside/domain';
import { useSessionSubscription } from '../auth/index.ts';

/**
 * The title the delivery pages are about: the session's subscription (on the group fallback
 * title that is the account's own newspaper), and whether it is a paper subscription.
 */
export function useDeliveryTitle(): { titleCode: string; isPaper: boolean } {
  const subscription = useSessionSubscription();
  return { titleCode: subscription?.titleCode ?? '', isPaper: subscription ? isPaperSubscription(subscription) : false };
}
