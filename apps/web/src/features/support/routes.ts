// The support area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { CustomerServicePage } from './pages/customer-service-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';

export const routes = {
  customerService: { Component: CustomerServicePage },
  notFound: { Component: NotFoundPage },
} satisfies AreaRoutes<'support'>;
