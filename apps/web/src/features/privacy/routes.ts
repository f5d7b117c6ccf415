// The privacy area's pages, one route module per page. Loaded lazily as one chunk (app/routes.tsx).
import type { AreaRoutes } from '../../app/paths.ts';
import { DataTakeoutPage } from './pages/data-takeout-page.tsx';
import { TermsPage } from './pages/terms-page.tsx';
import { BusinessTermsPage } from './pages/business-terms-page.tsx';
import { MoreTermsPage } from './pages/more-terms-page.tsx';
import { DataPage } from './pages/data-page.tsx';
import { PrivacyPage } from './pages/privacy-page.tsx';
import { CookiePolicyPage } from './pages/cookie-policy-page.tsx';
import { PrivacyDetailsPage } from './pages/privacy-details-page.tsx';
import { PrivacySettingsPage } from './pages/privacy-settings-page.tsx';
import { Consent1Page } from './pages/consent1-page.tsx';
import { Consent2Page } from './pages/consent2-page.tsx';
import { Consent3Page } from './pages/consent3-page.tsx';

export const routes = {
  dataTakeout: { Component: DataTakeoutPage },
  // The area's one page with a checked form loads on its own: zod and the form library (lib/use-zod-form.ts)
  // stay off the terms, privacy and consent pages, which many read without signing in (docs/performance.md).
  accountDeletion: { load: () => import('./pages/account-deletion-page.tsx').then((page) => page.AccountDeletionPage) },
  terms: { Component: TermsPage },
  businessTerms: { Component: BusinessTermsPage },
  moreTerms: { Component: MoreTermsPage },
  data: { Component: DataPage },
  privacy: { Component: PrivacyPage },
  cookiePolicy: { Component: CookiePolicyPage },
  privacyDetails: { Component: PrivacyDetailsPage },
  privacySettings: { Component: PrivacySettingsPage },
  consent1: { Component: Consent1Page },
  consent2: { Component: Consent2Page },
  consent3: { Component: Consent3Page },
} satisfies AreaRoutes<'privacy'>;
