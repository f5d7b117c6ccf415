// The ordering area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { OrderSubscriptionPage } from './pages/order-subscription-page.tsx';
import { WinbackPage } from './pages/winback-page.tsx';
import { OrderFailedPage } from './pages/order-failed-page.tsx';
import { CompletePurchasePage } from './pages/complete-purchase-page.tsx';
import { CompleteVippsPurchasePage } from './pages/complete-vipps-purchase-page.tsx';
import { PurchaseErrorPage } from './pages/purchase-error-page.tsx';
import { ReceiptPage } from './pages/receipt-page.tsx';
import { CancelOrderPage } from './pages/cancel-order-page.tsx';
import { NoSubscriptionPage } from './pages/no-subscription-page.tsx';
import { ConnectSubscriptionPage } from './pages/connect-subscription-page.tsx';
import { AlreadySubscriberPage } from './pages/already-subscriber-page.tsx';
import { WithdrawalPage } from './pages/withdrawal-page.tsx';

export const routes = {
  orderSubscription: { Component: OrderSubscriptionPage },
  winback: { Component: WinbackPage },
  orderFailed: { Component: OrderFailedPage },
  completePurchase: { Component: CompletePurchasePage },
  completeVippsPurchase: { Component: CompleteVippsPurchasePage },
  purchaseError: { Component: PurchaseErrorPage },
  receipt: { Component: ReceiptPage },
  cancelOrder: { Component: CancelOrderPage },
  noSubscription: { Component: NoSubscriptionPage },
  connectSubscription: { Component: ConnectSubscriptionPage },
  alreadySubscriber: { Component: AlreadySubscriberPage },
  withdrawal: { Component: WithdrawalPage },
} satisfies AreaRoutes<'ordering'>;
