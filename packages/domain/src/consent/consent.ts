import { z } from 'zod';
import { consentPermissions, consentSources } from './consent-rules.ts';

/**
 * Consent (issue 9): the purposes a visitor chooses, how the choice is kept in the browser
 * (SPEC §5: `CMP:analytics` in local storage or the `_cmp_analytics` cookie, = 1 when
 * granted) and the contract of /api/consent, where a signed-in user's choices are kept with
 * their history.
 */

const consentChoicesSchema = z.object({
  analytics: z.boolean(),
  marketing: z.boolean(),
  personalisation: z.boolean(),
});
export type ConsentChoices = z.infer<typeof consentChoicesSchema>;

export const consentSourceSchema = z.enum(consentSources);
export type ConsentSource = z.infer<typeof consentSourceSchema>;

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

const consentRecordSchema = z.object({
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

export const consentPermissionSchema = z.enum(consentPermissions);

/** PUT /api/consent/permissions: only the permissions named change; unnamed ones keep their value. */
export const consentPermissionsUpdateSchema = z.object({
  permissions: z.partialRecord(consentPermissionSchema, z.boolean()).refine((value) => Object.keys(value).length > 0, 'Velg minst ett samtykke.'),
  titleCode: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,15}$/)
    .optional(),
});
export type ConsentPermissionsUpdate = z.infer<typeof consentPermissionsUpdateSchema>;

const consentPermissionRecordSchema = z.object({
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

export * from './consent-rules.ts';
export * from './consent-texts.ts';
