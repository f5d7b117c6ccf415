// The subscription area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { HomePage } from './pages/home-page.tsx';
import { ChangeSubscriptionPage } from './pages/change-subscription-page.tsx';
import { ChangeSubscriptionReceiptPage } from './pages/change-subscription-receipt-page.tsx';
import { CancelSubscriptionPage } from './pages/cancel-subscription-page.tsx';
import { SubscriptionCancelledPage } from './pages/subscription-cancelled-page.tsx';
import { SubscriptionReactivatedPage } from './pages/subscription-reactivated-page.tsx';
import { UndoCancellationPage } from './pages/undo-cancellation-page.tsx';
import { MyContentPage } from './pages/my-content-page.tsx';

export const routes = {
  home: { Component: HomePage },
  changeSubscription: { Component: ChangeSubscriptionPage },
  changeSubscriptionReceipt: { Component: ChangeSubscriptionReceiptPage },
  cancelSubscription: { Component: CancelSubscriptionPage },
  subscriptionCancelled: { Component: SubscriptionCancelledPage },
  subscriptionReactivated: { Component: SubscriptionReactivatedPage },
  undoCancellation: { Component: UndoCancellationPage },
  myContent: { Component: MyContentPage },
} satisfies AreaRoutes<'subscription'>;
