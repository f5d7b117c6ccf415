// The subscription area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { HomePage } from './pages/home-page.tsx';

// Only the overview is in the area's chunk: it is `/`, the page every visit starts on (issue 27:
// less JavaScript for `/`). The other pages load on their own (`load`, resolved by the route's
// `lazy` before the page renders, so nothing flashes); the two form pages also keep
// react-hook-form off `/` (docs/performance.md).
export const routes = {
  home: { Component: HomePage },
  changeSubscription: { load: () => import('./pages/change-subscription-page.tsx').then((page) => page.ChangeSubscriptionPage) },
  changeSubscriptionReceipt: { load: () => import('./pages/change-subscription-receipt-page.tsx').then((page) => page.ChangeSubscriptionReceiptPage) },
  cancelSubscription: { load: () => import('./pages/cancel-subscription-page.tsx').then((page) => page.CancelSubscriptionPage) },
  subscriptionCancelled: { load: () => import('./pages/subscription-cancelled-page.tsx').then((page) => page.SubscriptionCancelledPage) },
  subscriptionReactivated: { load: () => import('./pages/subscription-reactivated-page.tsx').then((page) => page.SubscriptionReactivatedPage) },
  undoCancellation: { load: () => import('./pages/undo-cancellation-page.tsx').then((page) => page.UndoCancellationPage) },
  myContent: { load: () => import('./pages/my-content-page.tsx').then((page) => page.MyContentPage) },
} satisfies AreaRoutes<'subscription'>;
