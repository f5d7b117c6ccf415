// The family area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { FamilySharingPage } from './pages/family-sharing-page.tsx';
import { VerifyFamilyMemberPage } from './pages/verify-family-member-page.tsx';
import { FamilyShareAcceptedPage } from './pages/family-share-accepted-page.tsx';

export const routes = {
  familySharing: { Component: FamilySharingPage },
  verifyFamilyMember: { Component: VerifyFamilyMemberPage },
  familyShareAccepted: { Component: FamilyShareAcceptedPage },
} satisfies AreaRoutes<'family'>;
