import { createRoot } from 'react-dom/client';
import { maintenanceQueryOptions, resolveTitle } from './features/titles/index.ts';
import { App } from './app/app.tsx';
import { StartupError } from './app/error-pages.tsx';
import { createQueryClient } from './app/query-client.ts';
import { createRouter } from './app/routes.tsx';
import { BootSpinner } from './app/spinner-overlay.tsx';
import { DEFAULT_SPINNER_MESSAGE } from './lib/spinner.ts';
import './app/tokens.css';
import './app/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
root.render(<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />);

/**
 * Bootstrap: resolve the title (retrieveTitleCode with location.href, POL on any failure),
 * fetch it, and fetch the maintenance status in parallel; then create the router, whose
 * gateway routes are named after the identity provider the title names.
 */
async function bootstrap() {
  const queryClient = createQueryClient();
  const [title] = await Promise.all([resolveTitle(queryClient), queryClient.prefetchQuery(maintenanceQueryOptions())]);
  const router = createRouter({ queryClient, identityProviderName: title.identityProviderName });
  return { queryClient, router };
}

bootstrap().then(
  ({ queryClient, router }) => root.render(<App queryClient={queryClient} router={router} />),
  (error: unknown) => {
    console.error('Min Side could not start', error);
    root.render(<StartupError />);
  },
);
