import { z } from 'zod';

/**
 * Consent (issue 9): the purposes a visitor chooses, how the choice is kept in the browser
 * (SPEC §5: `CMP:analytics` in local storage or the `_cmp_analytics` cookie, = 1 when
 * granted) and the contract of /api/consent, where a signed-in user's choices are kept with
 * their history.
 */

/** Necessary is always on and never asked for; the others are the visitor's choice. */
export const consentPurposes = ['necessary', 'analytics', 'marketing', 'personalisation'] as const;
export type ConsentPurpose = (typeof consentPurposes)[number];
export const optionalConsentPurposes = ['analytics', 'marketing', 'personalisation'] as const;
export type OptionalConsentPurpose = (typeof optionalConsentPurposes)[number];

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

export const consentChoicesSchema = z.object({
  analytics: z.boolean(),
  marketing: z.boolean(),
  personalisation: z.boolean(),
});
export type ConsentChoices = z.infer<typeof consentChoicesSchema>;

export const allGranted: ConsentChoices = { analytics: true, marketing: true, personalisation: true };
export const allDenied: ConsentChoices = { analytics: false, marketing: false, personalisation: false };

/** Where a choice was made: the consent dialog, the privacy settings page, or a consent vendor's dialog. */
export const consentSources = ['dialog', 'settings', 'vendor'] as const;
export const consentSourceSchema = z.enum(consentSources);
export type ConsentSource = z.infer<typeof consentSourceSchema>;

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

/** PUT /api/consent: the signed-in user's choice, stored as a new history entry. */
export const consentUpdateBodySchema = z.object({
  choices: consentChoicesSchema,
  source: consentSourceSchema,
  /** The title the choice was made on (the history shows it); optional for older clients. */
  titleCode: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,15}$/)
    .optional(),
});
export type ConsentUpdateBody = z.infer<typeof consentUpdateBodySchema>;

export const consentRecordSchema = z.object({
  choices: consentChoicesSchema,
  source: consentSourceSchema,
  titleCode: z.string().nullable(),
  /** ISO timestamp. */
  givenAt: z.string(),
});
export type ConsentRecord = z.infer<typeof consentRecordSchema>;

/** GET/PUT /api/consent: the current choice (null before the first) and every earlier one, newest first. */
export const consentStateSchema = z.object({
  current: consentRecordSchema.nullable(),
  history: z.array(consentRecordSchema),
});
export type ConsentState = z.infer<typeof consentStateSchema>;

/** How many history entries GET /api/consent returns (newest first). */
export const CONSENT_HISTORY_LIMIT = 100;

/**
 * GET /api/client-config?titleCode=…: what the browser needs to set up consent, analytics and
 * monitoring. Everything is optional: unset configuration turns the part off.
 */
export const clientConfigQuerySchema = z.object({
  titleCode: z.string().min(1).max(16).optional(),
});

export const clientConfigSchema = z.object({
  consent: z.object({
    /** Open the consent dialog by itself when no choice has been made yet. */
    promptOnFirstVisit: z.boolean(),
    /** Sourcepoint, when the title has vendor ids and the property and group ids are configured. */
    sourcepoint: z
      .object({
        /** Sourcepoint account and property (configuration). */
        accountId: z.number().int(),
        propertyId: z.number().int(),
        /** The property group's privacy manager (configuration). */
        groupId: z.number().int(),
        /** The title's sourcepointPmId: its own privacy manager. */
        privacyManagerId: z.number().int(),
        /** The title's sourcepointId: the vendor whose grant decides the purposes. */
        vendorId: z.string(),
        scriptUrl: z.string(),
        baseEndpoint: z.string(),
      })
      .nullable(),
  }),
  analytics: z
    .object({
      /** Where the Pulse-style provider beacons events. */
      collectorUrl: z.string(),
      /** The title's pulseProvider; null for AN and VA (SPEC §9: no pulse). */
      providerId: z.string().nullable(),
    })
    .nullable(),
  rum: z
    .object({
      clientToken: z.string(),
      applicationId: z.string(),
      /** The my-page name the RUM service is named after (`{name}-rum`). */
      serviceName: z.string(),
    })
    .nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

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
export const consentPermissionSchema = z.enum(consentPermissions);

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

/** PUT /api/consent/permissions: only the permissions named change; unnamed ones keep their value. */
export const consentPermissionsUpdateSchema = z.object({
  permissions: z.partialRecord(consentPermissionSchema, z.boolean()).refine((value) => Object.keys(value).length > 0, 'Velg minst ett samtykke.'),
  titleCode: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,15}$/)
    .optional(),
});
export type ConsentPermissionsUpdate = z.infer<typeof consentPermissionsUpdateSchema>;

export const consentPermissionRecordSchema = z.object({
  permission: consentPermissionSchema,
  granted: z.boolean(),
  titleCode: z.string().nullable(),
  /** ISO timestamp. */
  givenAt: z.string(),
});
export type ConsentPermissionRecord = z.infer<typeof consentPermissionRecordSchema>;

/** GET/PUT /api/consent/permissions: what holds now (absent = never answered, i.e. not given) and every change, newest first. */
export const consentPermissionsStateSchema = z.object({
  current: z.partialRecord(consentPermissionSchema, consentPermissionRecordSchema),
  history: z.array(consentPermissionRecordSchema),
});
export type ConsentPermissionsState = z.infer<typeof consentPermissionsStateSchema>;
