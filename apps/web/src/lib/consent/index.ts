// Consent in the browser: the SPEC §5 keys, the store everything that needs consent waits on,
// and the consent vendor adapter.
export { consentStore } from './consent-store.ts';
export type { ConsentStore } from './consent-store.ts';
export { writeCookie } from './cookies.ts';
export { loadSourcepoint } from './sourcepoint.ts';
