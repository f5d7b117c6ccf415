/** Every query key of the subscription area, in one place. */
export interface SubscriptionRef {
  ariaAccountNo: number;
  titleCode: string;
}

const ref = (subscription: SubscriptionRef) => [subscription.ariaAccountNo, subscription.titleCode.toUpperCase()] as const;

export const subscriptionKeys = {
  all: ['subscription'] as const,
  detail: (subscription: SubscriptionRef) => ['subscription', ...ref(subscription), 'detail'] as const,
  changes: (subscription: SubscriptionRef) => ['subscription', ...ref(subscription), 'changes'] as const,
  plans: (subscription: SubscriptionRef) => ['subscription', ...ref(subscription), 'plans'] as const,
  retentionOffer: (subscription: SubscriptionRef) => ['subscription', ...ref(subscription), 'retention-offer'] as const,
  /** The home page's facts (GET /api/overview). */
  overview: (subscription: SubscriptionRef) => ['subscription', ...ref(subscription), 'overview'] as const,
  /** The public price list of a title (/nye-priser). */
  priceList: (titleCode: string) => ['subscription', 'price-list', titleCode.toUpperCase()] as const,
};

export function subscriptionPath(subscription: SubscriptionRef, tail = ''): string {
  return `subscription/${subscription.ariaAccountNo}/${encodeURIComponent(subscription.titleCode)}${tail ? `/${tail}` : ''}`;
}
