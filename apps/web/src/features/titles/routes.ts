// The titles area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { MaintenancePage } from './pages/maintenance-page.tsx';

export const routes = {
  maintenance: { Component: MaintenancePage },
} satisfies AreaRoutes<'titles'>;
