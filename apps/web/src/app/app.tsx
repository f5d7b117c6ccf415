import { StrictMode, Suspense, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from '../lib/router/index.ts';
import { IdentityProvider, type IdentityClient } from '../features/auth/index.ts';
import type { createRouter } from './routes.tsx';
import { BootSpinner } from './spinner-overlay.tsx';
import { DEFAULT_SPINNER_MESSAGE } from '../lib/spinner.ts';

export interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createRouter>;
  /** The same client the router's guard uses. */
  identity: IdentityClient;
}

export interface AppProvidersProps {
  queryClient: QueryClient;
  identity: IdentityClient;
  /** The router: the browser's, or the server render's (src/entry-server.tsx). */
  children: ReactNode;
}

/**
 * Everything around the router, the same in the browser and in the server render, so that a
 * server-rendered page and the browser's first render of it are one tree (docs/decisions/032).
 */
export function AppProviders({ queryClient, identity, children }: AppProvidersProps) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <IdentityProvider value={identity}>
          <Suspense fallback={<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />}>{children}</Suspense>
        </IdentityProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

export function App({ queryClient, router, identity }: AppProps) {
  return (
    <AppProviders queryClient={queryClient} identity={identity}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
