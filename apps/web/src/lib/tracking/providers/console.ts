import type { TrackingProvider } from './types.ts';

// The console is this provider's whole purpose: developers read the events there.
// eslint-disable-next-line no-console
const info = (...values: unknown[]) => console.info(...values);

/** Development: what would be sent, in the console instead of a collector. */
export function createConsoleProvider(log: (...values: unknown[]) => void = info): TrackingProvider {
  return {
    name: 'console',
    trackPageView(pageType, update) {
      log('[analytics] page view', pageType, update);
    },
  };
}
