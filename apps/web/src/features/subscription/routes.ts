// The subscription area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { HomePage } from './pages/home-page.tsx';
import { ChangeSubscriptionReceiptPage } from './pages/change-subscription-receipt-page.tsx';
import { SubscriptionCancelledPage } from './pages/subscription-cancelled-page.tsx';
import { SubscriptionReactivatedPage } from './pages/subscription-reactivated-page.tsx';
import { UndoCancellationPage } from './pages/undo-cancellation-page.tsx';
import { MyContentPage } from './pages/my-content-page.tsx';

export const routes = {
  home: { Component: HomePage },
  // The two form pages load on their own: react-hook-form stays off `/` (docs/performance.md).
  changeSubscription: { load: () => import('./pages/change-subscription-page.tsx').then((page) => page.ChangeSubscriptionPage) },
  changeSubscriptionReceipt: { Component: ChangeSubscriptionReceiptPage },
  cancelSubscription: { load: () => import('./pages/cancel-subscription-page.tsx').then((page) => page.CancelSubscriptionPage) },
  subscriptionCancelled: { Component: SubscriptionCancelledPage },
  subscriptionReactivated: { Component: SubscriptionReactivatedPage },
  undoCancellation: { Component: UndoCancellationPage },
  myContent: { Component: MyContentPage },
} satisfies AreaRoutes<'subscription'>;
