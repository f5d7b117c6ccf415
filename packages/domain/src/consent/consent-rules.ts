// Consent's purposes, labels, browser storage rule and permission pages: plain values without
// zod, so the web's start-up code (consent storage, the consent dialog) takes no schemas along.
// consent.ts re-exports them beside the /api/consent contracts.

export const optionalConsentPurposes = ['analytics', 'marketing', 'personalisation'] as const;
export type OptionalConsentPurpose = (typeof optionalConsentPurposes)[number];
/** Necessary is always on and never asked for; the others are the visitor's choice. */
export type ConsentPurpose = 'necessary' | OptionalConsentPurpose;

export const consentPurposeLabels: Record<ConsentPurpose, { name: string; description: string }> = {
  necessary: {
    name: 'Nødvendige',
    description: 'Innlogging, sikkerhet og at siden virker. Disse kan ikke slås av.',
  },
  analytics: {
    name: 'Analyse',
    description: 'Statistikk over hvordan Min Side brukes, og feil- og ytelsesmåling, slik at vi kan gjøre tjenesten bedre.',
  },
  marketing: {
    name: 'Markedsføring',
    description: 'Tilbud og annonser som er relevante for deg, også fra samarbeidspartnere.',
  },
  personalisation: {
    name: 'Personlig tilpasning',
    description: 'Innhold og anbefalinger tilpasset det du leser og bruker.',
  },
};

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

/** How many history entries GET /api/consent returns (newest first). */
export const CONSENT_HISTORY_LIMIT = 100;

/**
 * Permissions a subscriber gives on the consent pages /samtykke1–3 (issue 9), kept apart from
 * the cookie purposes above: these say how the title may contact and profile a known person,
 * not what runs in this browser. Each page asks about one group; each change is a history entry.
 */
export const consentPermissions = [
  'marketingEmail',
  'marketingSms',
  'marketingPhone',
  'personalisedContent',
  'personalisedNewsletter',
  'researchSurveys',
  'userPanel',
] as const;
export type ConsentPermission = (typeof consentPermissions)[number];
export const consentPermissionLabels: Record<ConsentPermission, { name: string; description: string }> = {
  marketingEmail: { name: 'Tilbud på e-post', description: 'Vi sender deg tilbud og nyheter om abonnementet og arrangementer på e-post.' },
  marketingSms: { name: 'Tilbud på SMS', description: 'Vi sender deg tilbud og påminnelser på SMS.' },
  marketingPhone: { name: 'Tilbud på telefon', description: 'Vi kan ringe deg med tilbud om abonnement.' },
  personalisedContent: { name: 'Anbefalt innhold', description: 'Forsiden og anbefalingene tilpasses det du leser.' },
  personalisedNewsletter: { name: 'Tilpasset nyhetsbrev', description: 'Nyhetsbrevet ditt settes sammen etter interessene dine.' },
  researchSurveys: { name: 'Spørreundersøkelser', description: 'Vi kan invitere deg til spørreundersøkelser om avisen og lesevanene dine.' },
  userPanel: { name: 'Brukerpanel', description: 'Vi kan invitere deg til å teste nye tjenester før de lanseres.' },
};

/** The three consent pages: which permissions each asks about (SPEC §2 /samtykke1, /samtykke2, /samtykke3). */
export const consentPages = {
  1: { heading: 'Kontakt og tilbud', lead: 'Velg hvordan vi kan kontakte deg med tilbud.', permissions: ['marketingEmail', 'marketingSms', 'marketingPhone'] },
  2: { heading: 'Tilpasset innhold', lead: 'Velg om vi kan tilpasse innholdet til deg.', permissions: ['personalisedContent', 'personalisedNewsletter'] },
  3: { heading: 'Undersøkelser', lead: 'Velg om vi kan invitere deg til undersøkelser og tester.', permissions: ['researchSurveys', 'userPanel'] },
} as const satisfies Record<1 | 2 | 3, { heading: string; lead: string; permissions: readonly ConsentPermission[] }>;
export type ConsentPageNumber = keyof typeof consentPages;
