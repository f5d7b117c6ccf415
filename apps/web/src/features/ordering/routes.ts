// The ordering area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { WinbackPage } from './pages/winback-page.tsx';
import { OrderFailedPage } from './pages/order-failed-page.tsx';
import { CompletePurchasePage } from './pages/complete-purchase-page.tsx';
import { CompleteVippsPurchasePage } from './pages/complete-vipps-purchase-page.tsx';
import { PurchaseErrorPage } from './pages/purchase-error-page.tsx';
import { ReceiptPage } from './pages/receipt-page.tsx';
import { CancelOrderPage } from './pages/cancel-order-page.tsx';
import { NoSubscriptionPage } from './pages/no-subscription-page.tsx';
import { AlreadySubscriberPage } from './pages/already-subscriber-page.tsx';
import { WithdrawalPage } from './pages/withdrawal-page.tsx';

export const routes = {
  // The area's two pages with checked forms load on their own: zod and the form library (lib/use-zod-form.ts)
  // stay off the receipt, /ingen-abonnement and the other pages of the area (docs/performance.md).
  orderSubscription: { load: () => import('./pages/order-subscription-page.tsx').then((page) => page.OrderSubscriptionPage) },
  winback: { Component: WinbackPage },
  orderFailed: { Component: OrderFailedPage },
  completePurchase: { Component: CompletePurchasePage },
  completeVippsPurchase: { Component: CompleteVippsPurchasePage },
  purchaseError: { Component: PurchaseErrorPage },
  receipt: { Component: ReceiptPage },
  cancelOrder: { Component: CancelOrderPage },
  noSubscription: { Component: NoSubscriptionPage },
  connectSubscription: { load: () => import('./pages/connect-subscription-page.tsx').then((page) => page.ConnectSubscriptionPage) },
  alreadySubscriber: { Component: AlreadySubscriberPage },
  withdrawal: { Component: WithdrawalPage },
} satisfies AreaRoutes<'ordering'>;
