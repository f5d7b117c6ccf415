import { QueryClient } from '../lib/query/index.ts';
import { isApiError, OFFLINE, TIMEOUT } from '../lib/http.ts';

/**
 * Client errors (4xx) are answers, not glitches: they are not retried. Nor is a call made
 * offline or one that already waited the client's whole timeout: retrying would only keep the
 * user waiting longer for the message that says so.
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (isApiError(error) && (error.code === OFFLINE || error.code === TIMEOUT)) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The cache never holds a call back while offline (TanStack Query paused it, leaving the page on
      // "Sender …" with no word, unless told networkMode 'always'): the http client fails it at once
      // with OFFLINE, which the page shows with "Prøv igjen" (issue 25.11). Nor does it refetch on focus.
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
