// The delivery area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { DeliveryAddressPage } from './pages/delivery-address-page.tsx';
import { DeliveryComplaintPage } from './pages/delivery-complaint-page.tsx';
import { DeliveryChangePage } from './pages/delivery-change-page.tsx';

export const routes = {
  deliveryAddress: { Component: DeliveryAddressPage },
  deliveryComplaint: { Component: DeliveryComplaintPage },
  deliveryChange: { Component: DeliveryChangePage },
} satisfies AreaRoutes<'delivery'>;
