// Public API of the subscription area. Its pages are in routes.ts (loaded lazily).
export { priceListQueryOptions } from './api/get-price-list.ts';
export { subscriptionQueryOptions } from './api/get-subscription.ts';
export { useCurrentSubscription, useSubscriptionUpdate } from './use-subscription.ts';
export { formatKroner, formatLongDate, periodLabel } from './labels.ts';
