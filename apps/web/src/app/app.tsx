import { StrictMode, Suspense } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import type { createRouter } from './routes.tsx';
import { BootSpinner } from './spinner-overlay.tsx';
import { DEFAULT_SPINNER_MESSAGE } from '../lib/spinner.ts';

export interface AppProps {
  queryClient: QueryClient;
  router: ReturnType<typeof createRouter>;
}

export function App({ queryClient, router }: AppProps) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={<BootSpinner message={DEFAULT_SPINNER_MESSAGE} />}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </StrictMode>
  );
}
