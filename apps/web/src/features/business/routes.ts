// The business area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { BusinessPage } from './pages/business-page.tsx';
import { BusinessAdminPage } from './pages/business-admin-page.tsx';

export const routes = {
  business: { Component: BusinessPage },
  businessAdmin: { Component: BusinessAdminPage },
} satisfies AreaRoutes<'business'>;
