// Consent's purposes, browser storage rule and permissions: plain values without zod, so the web's
// start-up code (consent storage) takes no schemas along. Their Norwegian texts are in
// consent-texts.ts, which only the consent dialog and the privacy pages load (issue 27). consent.ts
// re-exports both beside the /api/consent contracts.

export const optionalConsentPurposes = ['analytics', 'marketing', 'personalisation'] as const;
export type OptionalConsentPurpose = (typeof optionalConsentPurposes)[number];
/** Necessary is always on and never asked for; the others are the visitor's choice. */
export type ConsentPurpose = 'necessary' | OptionalConsentPurpose;

export const allGranted: Record<OptionalConsentPurpose, boolean> = { analytics: true, marketing: true, personalisation: true };
export const allDenied: Record<OptionalConsentPurpose, boolean> = { analytics: false, marketing: false, personalisation: false };

/** Where a choice was made: the consent dialog, the privacy settings page, or a consent vendor's dialog. */
export const consentSources = ['dialog', 'settings', 'vendor'] as const;

/** SPEC §5: local storage `CMP:{purpose}`, cookie `_cmp_{purpose}`; "1" means granted. */
export const consentStorageKey = (purpose: OptionalConsentPurpose): string => `CMP:${purpose}`;
export const consentCookieName = (purpose: OptionalConsentPurpose): string => `_cmp_${purpose}`;
export const CONSENT_GRANTED = '1';
export const CONSENT_DENIED = '0';

/**
 * SPEC §5: a purpose counts as granted when local storage says 1, or the cookie says 1.
 * Either is enough: the cookie survives a cleared local storage and the other way round.
 */
export function isConsentGranted(storageValue: string | null | undefined, cookieValue: string | null | undefined): boolean {
  return storageValue === CONSENT_GRANTED || cookieValue === CONSENT_GRANTED;
}

/** Whether two choices (or two absences of one) grant and refuse the same purposes. */
export function sameConsentChoices(a: Record<OptionalConsentPurpose, boolean> | null, b: Record<OptionalConsentPurpose, boolean> | null): boolean {
  if (a === null || b === null) return a === b;
  return optionalConsentPurposes.every((purpose) => a[purpose] === b[purpose]);
}

/** How many history entries GET /api/consent returns (newest first). */
export const CONSENT_HISTORY_LIMIT = 100;

/**
 * Permissions a subscriber gives on the consent pages /samtykke1–3 (issue 9), kept apart from
 * the cookie purposes above: these say how the title may contact and profile a known person,
 * not what runs in this browser. Each page asks about one group; each change is a history entry.
 */
export const consentPermissions = ['marketingEmail', 'marketingSms', 'marketingPhone', 'personalisedContent', 'personalisedNewsletter', 'researchSurveys', 'userPanel'] as const;
export type ConsentPermission = (typeof consentPermissions)[number];
