// The auth area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { CallbackPage } from './pages/callback-page.tsx';
import { LoginPage } from './pages/login-page.tsx';

export const routes = {
  callback: { Component: CallbackPage },
  login: { Component: LoginPage },
} satisfies AreaRoutes<'auth'>;
