// The billing area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { ChangePaymentMethodPage } from './pages/change-payment-method-page.tsx';
import { ChangePaymentMethodVerifyPage } from './pages/change-payment-method-verify-page.tsx';
import { AddPaymentCardPage } from './pages/add-payment-card-page.tsx';
import { AddPaymentCardVerifyPage } from './pages/add-payment-card-verify-page.tsx';
import { PaymentPage } from './pages/payment-page.tsx';
import { InvoiceOverviewPage } from './pages/invoice-overview-page.tsx';
import { NewPricesPage } from './pages/new-prices-page.tsx';
import { PayInvoiceRoute } from './pages/pay-invoice-page.tsx';

export const routes = {
  changePaymentMethod: { Component: ChangePaymentMethodPage },
  changePaymentMethodVerify: { Component: ChangePaymentMethodVerifyPage },
  addPaymentCard: { Component: AddPaymentCardPage },
  addPaymentCardVerify: { Component: AddPaymentCardVerifyPage },
  payment: { Component: PaymentPage },
  invoiceOverview: { Component: InvoiceOverviewPage },
  newPrices: { Component: NewPricesPage },
  payInvoice: { Component: PayInvoiceRoute },
} satisfies AreaRoutes<'billing'>;
