import { z } from 'zod';

/**
 * Every expected failure from /api answers with this body (ARCHITECTURE "Errors are data"):
 * a stable machine `code` and a Norwegian `message` fit to show the user.
 */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** Optional technical detail for operators and logs; never needed to act on the error. */
  detail: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Stable error codes used across areas. Areas add their own next to their schemas. */
export const errorCodes = {
  validation: 'VALIDATION_FAILED',
  notFound: 'NOT_FOUND',
  unknownTitle: 'UNKNOWN_TITLE',
  internal: 'INTERNAL_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
  rateLimited: 'RATE_LIMITED',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  crossSiteRequest: 'CROSS_SITE_REQUEST',
} as const;

export const errorMessages = {
  validation: 'Forespørselen inneholder ugyldige data.',
  notFound: 'Fant ikke det du lette etter.',
  internal: 'Noe gikk galt hos oss. Prøv igjen om litt.',
  unavailable: 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.',
  rateLimited: 'For mange forsøk. Vent litt og prøv igjen.',
  unsupportedMediaType: 'Forespørselen må sendes som JSON.',
  payloadTooLarge: 'Forespørselen er for stor.',
  crossSiteRequest: 'Forespørselen kom fra et annet nettsted og ble avvist.',
} as const;
