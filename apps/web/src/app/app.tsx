import { StrictMode, Suspense } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
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

export function App({ queryClient, router, identity }: AppProps) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <IdentityProvider value={identity}>
          <Suspense fallback={<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />}>
            <RouterProvider router={router} />
          </Suspense>
        </IdentityProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
