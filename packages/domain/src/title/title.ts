import { z } from 'zod';

/** SPEC §3 Title: what the portal needs to brand itself and show contact details. */
export const titleSchema = z.object({
  titleCode: z.string(),
  titleDomain: z.string(),
  pageUrl: z.string(),
  name: z.string(),
  customerCenterPhoneNumber: z.string(),
  customerCenterEmail: z.string(),
  organizationNumber: z.string(),
  spidCredential: z.object({ clientId: z.string() }),
  minsideUrl: z.string(),
  /** Not in §3's list but needed by the shell: brand colour, group copyright, language. */
  brandColor: z.string(),
  groupName: z.string(),
  language: z.enum(['nb', 'nn']),
  logoPath: z.string(),
  contactIsPlaceholder: z.boolean(),
  /** Names the identity field and the data-rights gateway routes (SPEC §2, default "spid"). */
  identityProviderName: z.string(),
  /** SPEC §1 play base URL (TV and video), null when the title has none. Optional for older clients' fixtures. */
  playBaseUrl: z.string().nullable().optional(),
});
export type Title = z.infer<typeof titleSchema>;

export const titleParamsSchema = z.object({
  id: z.string().min(1).max(64),
});

/** POST /api/retrieveTitleCode: the my-page URL the browser is on (full href). */
export const retrieveTitleCodeBodySchema = z.object({
  minsideUrl: z.string().min(1).max(2048),
});
export const retrieveTitleCodeResponseSchema = z.object({
  titleCode: z.string(),
});

/**
 * POST /api/maintenanceTitle: which title is in maintenance, and whether it is. The same body as
 * retrieveTitleCode's, named for its own route.
 * @alias
 */
export const maintenanceTitleBodySchema = retrieveTitleCodeBodySchema;
export const maintenanceTitleResponseSchema = z.object({
  titleCode: z.string(),
  name: z.string(),
  maintenance: z.boolean(),
  message: z.string(),
});
export type MaintenanceTitle = z.infer<typeof maintenanceTitleResponseSchema>;

export * from './title-rules.ts';
