import type { QueryClient } from '@tanstack/react-query';
import type { Title } from '@minside/domain';
import { createRoot } from 'react-dom/client';
import { identity, returnTargetOf } from './features/auth/index.ts';
import { maintenanceQueryOptions, resolveTitle, titleCodeQueryOptions, titleQueryOptions } from './features/titles/index.ts';
import { App } from './app/app.tsx';
import { startFromBootstrap } from './app/bootstrap.ts';
import { StartupError } from './app/error-pages.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createRouter } from './app/routes.tsx';
import { BootSpinner } from './app/spinner-overlay.tsx';
import { http } from './lib/http.ts';
// Before anything renders: React Aria's keyboard handling on Preact needs it (docs/decisions/021).
import './lib/preact-events.ts';
// Before anything renders: React Aria's pressable style from our stylesheet, not an inline <style> the CSP refuses.
import './lib/react-aria-styles.ts';
import { DEFAULT_SPINNER_MESSAGE } from './lib/spinner.ts';
import './app/tokens.css';
import './app/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
root.render(<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />);

/** The identity client gets the title code it logs in for, and clears the title on logout (SPEC §4). */
function initIdentity(queryClient: QueryClient, title: Title): void {
  const titleCodeKey = titleCodeQueryOptions().queryKey;
  const titleCode = () => queryClient.getQueryData(titleCodeKey) ?? title.titleCode;
  identity.init({
    titleCode,
    onSignedOut: () => {
      queryClient.removeQueries({ queryKey: titleQueryOptions(titleCode()).queryKey, exact: true });
      queryClient.removeQueries({ queryKey: titleCodeKey, exact: true });
    },
  });
  // SPEC §8: any call answering 401 or 406 sends the user to the login, back to where they are.
  http.setUnauthenticatedHandler(() => identity.handleUnauthenticated(returnTargetOf(window.location)));
}

/**
 * Bootstrap: seed the caches from the page's bootstrap block when it has one; resolve the
 * title (retrieveTitleCode with location.href, POL on any failure), fetch it, and fetch the
 * maintenance status in parallel (cache hits after seeding); then create the router, whose
 * gateway routes are named after the identity provider the title names.
 */
async function bootstrap() {
  const queryClient = createQueryClient();
  // The answers the server put into the page (docs/decisions/022) make the calls below cache hits.
  startFromBootstrap(queryClient, identity);
  const [title] = await Promise.all([resolveTitle(queryClient), queryClient.prefetchQuery(maintenanceQueryOptions())]);
  initIdentity(queryClient, title);
  const router = createRouter({ queryClient, identity, identityProviderName: title.identityProviderName });
  return { queryClient, router };
}

bootstrap().then(
  ({ queryClient, router }) => root.render(<App queryClient={queryClient} router={router} identity={identity} />),
  (error: unknown) => {
    console.error('Min Side could not start', error);
    root.render(<StartupError />);
  },
);
