import type { ChangePlanResponse, DeleteSubscriptionBody, DeleteSubscriptionResponse, ReactivateSubscriptionResponse, Subscription, SubscriptionResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { subscriptionPath, type SubscriptionRef } from './keys.ts';

// The calls that change a subscription. Each answers with the subscription as it now is;
// use-subscription-update.ts puts that into the cache and the session.

/** DELETE /api/deleteSubscription (SPEC §7): CANCELLATION, or REPLACEMENT-ANN with the retention offer. */
export function deleteSubscription(body: DeleteSubscriptionBody): Promise<DeleteSubscriptionResponse> {
  return http.delete<DeleteSubscriptionResponse>('deleteSubscription', body);
}

/** POST …/undo-cancellation (/angre-oppsigelse). */
export async function undoCancellation(subscription: SubscriptionRef): Promise<Subscription> {
  return (await http.post<SubscriptionResponse>(subscriptionPath(subscription, 'undo-cancellation'), {})).subscription;
}

/** POST /api/reactivateSubscription/ (SPEC §7): an expired subscription starts again. */
export function reactivateSubscription(subscription: SubscriptionRef, email: string): Promise<ReactivateSubscriptionResponse> {
  return http.post<ReactivateSubscriptionResponse>('reactivateSubscription/', { ariaAccountNo: subscription.ariaAccountNo, titleCode: subscription.titleCode, email });
}

/** POST …/plan: switch plan (upgrade now, downgrade from the period end). */
export function changePlan(subscription: SubscriptionRef, ariaPlanID: string): Promise<ChangePlanResponse> {
  return http.post<ChangePlanResponse>(subscriptionPath(subscription, 'plan'), { ariaPlanID });
}
