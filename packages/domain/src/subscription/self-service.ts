import { decideTransition, type LifecycleSubscription } from './lifecycle.ts';
import { hasAccess, isBusinessAdmin, isBusinessSubscription, isPaperSubscription, isPaying, userFacingState, type ClassifiableSubscription } from './subscription-rules.ts';
import type { FeatureSet } from './subscription.ts';

/**
 * The self-service tasks that apply to a subscriber (issue 4 home page): address and
 * vacation only for paper, family sharing only when eligible, business admin only for
 * admins, and the plan and cancellation tasks only where the transitions allow them.
 */
export const selfServiceTasks = [
  'reactivate',
  'undoCancellation',
  'changePlan',
  'myContent',
  'deliveryAddress',
  'deliveryChange',
  'deliveryComplaint',
  'familySharing',
  'businessAdmin',
  'invoices',
  'paymentMethod',
  'contact',
  'profile',
  'privacy',
  'cancel',
] as const;
export type SelfServiceTask = (typeof selfServiceTasks)[number];

export interface SelfServiceSubscription extends ClassifiableSubscription, LifecycleSubscription {
  features: FeatureSet;
  currentPeriodEnd: string;
  pendingChange: { on: string } | null;
}

export function tasksFor(subscription: SelfServiceSubscription, today: string): SelfServiceTask[] {
  const allowed = (event: Parameters<typeof decideTransition>[1]) => decideTransition(subscription, event, today).allowed;
  const state = userFacingState(subscription, today);
  const access = state !== 'expired' && hasAccess(subscription);
  const shared = Boolean(subscription.sharedFrom);
  const business = isBusinessSubscription(subscription);
  const paper = isPaperSubscription(subscription) && subscription.features.paper;
  const tasks: Record<SelfServiceTask, boolean> = {
    reactivate: allowed('reactivate'),
    undoCancellation: allowed('undoCancellation'),
    changePlan: allowed('changePlan'),
    myContent: access,
    deliveryAddress: access && paper,
    deliveryChange: access && paper,
    deliveryComplaint: access && paper,
    familySharing: access && subscription.eligibleForSharing && subscription.features.familySharing && !business && !shared,
    businessAdmin: access && isBusinessAdmin(subscription),
    invoices: !shared && (isPaying(subscription) || business),
    paymentMethod: !shared && !business && access && isPaying(subscription),
    contact: true,
    profile: true,
    privacy: true,
    cancel: allowed('cancel'),
  };
  return selfServiceTasks.filter((task) => tasks[task]);
}
