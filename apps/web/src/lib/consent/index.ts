// Consent in the browser: the SPEC §5 keys, the store everything that needs consent waits on,
// and the consent vendor adapter.
export { consentStore, createConsentStore } from './consent-store.ts';
export type { ConsentState, ConsentStore } from './consent-store.ts';
export { isPurposeGranted, readStoredChoices, writeStoredChoices, CONSENT_MAX_AGE_SECONDS } from './storage.ts';
export { readCookie, writeCookie } from './cookies.ts';
export { loadSourcepoint, choicesFromVendorConsents, sourcepointWindowConfig } from './sourcepoint.ts';
export type { SourcepointConfig } from './sourcepoint.ts';
