// Consent in the browser: the SPEC §5 keys, the store everything that needs consent waits on,
// and the consent vendor adapter (sourcepoint.ts, imported where it loads: only a title with the vendor needs it).
export { consentStore } from './consent-store.ts';
export type { ConsentStore } from './consent-store.ts';
export { writeCookie } from './cookies.ts';
export { markConsentPending, PENDING_SYNC_KEY } from './pending-sync.ts';
