// The profile area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { ContactPage } from './pages/contact-page.tsx';
import { EditProfilePage } from './pages/edit-profile-page.tsx';

export const routes = {
  contact: { Component: ContactPage },
  editProfile: { Component: EditProfilePage },
} satisfies AreaRoutes<'profile'>;
