import { CONSENT_DENIED, CONSENT_GRANTED, consentCookieName, consentStorageKey, isConsentGranted, optionalConsentPurposes, type ConsentChoices, type OptionalConsentPurpose } from '@minside/domain';
import { pageCookies } from '../page-scope.ts';
import { readCookie, writeCookie } from './cookies.ts';

/** A choice holds for a year; then the visitor is asked again. */
const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be switched off (privacy modes); the cookie still answers.
    return null;
  }
}

/** SPEC §5: granted when `CMP:{purpose}` in local storage or the `_cmp_{purpose}` cookie is 1. */
export function isPurposeGranted(purpose: OptionalConsentPurpose): boolean {
  return isConsentGranted(readStorage(consentStorageKey(purpose)), readCookie(consentCookieName(purpose)));
}

/** The choice kept in this browser, or null when the visitor has not chosen yet. */
export function readStoredChoices(): ConsentChoices | null {
  const cookies = pageCookies();
  // Each key and cookie read once.
  const kept = optionalConsentPurposes.map((purpose) => [purpose, readStorage(consentStorageKey(purpose)), readCookie(consentCookieName(purpose), cookies)] as const);
  if (kept.every(([, stored, cookie]) => stored === null && cookie === null)) return null;
  // One entry per purpose of ConsentChoices.
  return Object.fromEntries(kept.map(([purpose, stored, cookie]) => [purpose, isConsentGranted(stored, cookie)])) as ConsentChoices;
}

/**
 * The choice as the cookies alone tell it, or null when they hold none: all the server knows of
 * it, so what a server-rendered page shows (the first-visit bar or not), and what the browser's
 * first render must show too (docs/decisions/032).
 */
export function readCookieChoices(cookies: string = pageCookies()): ConsentChoices | null {
  const [analytics, marketing, personalisation] = optionalConsentPurposes.map((purpose) => readCookie(consentCookieName(purpose), cookies));
  if (analytics === null && marketing === null && personalisation === null) return null;
  return { analytics: isConsentGranted(null, analytics), marketing: isConsentGranted(null, marketing), personalisation: isConsentGranted(null, personalisation) };
}

/** Writes the choice both ways SPEC §5 reads it: local storage and a cookie, 1 or 0 per purpose. */
export function writeStoredChoices(choices: ConsentChoices): void {
  for (const purpose of optionalConsentPurposes) {
    const value = choices[purpose] ? CONSENT_GRANTED : CONSENT_DENIED;
    try {
      window.localStorage.setItem(consentStorageKey(purpose), value);
    } catch {
      // The cookie below is enough for SPEC §5.
    }
    writeCookie(consentCookieName(purpose), value, { maxAgeSeconds: CONSENT_MAX_AGE_SECONDS });
  }
}
