// Error codes and their messages, free of zod so the web's start-up code can use them (the
// schema stays in api-error.ts).

import { internalError } from './internal-error.ts';

export { internalError };

/** Stable error codes used across areas. Areas add their own next to their schemas. */
export const errorCodes = {
  validation: 'VALIDATION_FAILED',
  notFound: 'NOT_FOUND',
  unknownTitle: 'UNKNOWN_TITLE',
  internal: internalError.code,
  unavailable: 'SERVICE_UNAVAILABLE',
  rateLimited: 'RATE_LIMITED',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  crossSiteRequest: 'CROSS_SITE_REQUEST',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  urlTooLong: 'URL_TOO_LONG',
  headersTooLarge: 'HEADERS_TOO_LARGE',
  requestTimeout: 'REQUEST_TIMEOUT',
  /** An `Idempotency-Key` (or a body's idempotency key) already used for another request. */
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  /** The request with this `Idempotency-Key` is still being answered (a double submit). */
  idempotentRequestInProgress: 'IDEMPOTENT_REQUEST_IN_PROGRESS',
} as const;

export const errorMessages = {
  validation: 'Forespørselen inneholder ugyldige data.',
  notFound: 'Fant ikke det du lette etter.',
  internal: internalError.message,
  unavailable: 'Tjenesten er midlertidig utilgjengelig. Prøv igjen om litt.',
  rateLimited: 'For mange forsøk. Vent litt og prøv igjen.',
  unsupportedMediaType: 'Forespørselen må sendes som JSON.',
  payloadTooLarge: 'Forespørselen er for stor.',
  crossSiteRequest: 'Forespørselen kom fra et annet nettsted og ble avvist.',
  methodNotAllowed: 'Denne handlingen er ikke tillatt her.',
  urlTooLong: 'Adressen er for lang.',
  headersTooLarge: 'Forespørselen har for store hoder.',
  requestTimeout: 'Forespørselen tok for lang tid. Prøv igjen.',
  idempotencyKeyReused: 'Forespørselen er allerede brukt til noe annet. Last siden på nytt og prøv igjen.',
  idempotentRequestInProgress: 'Vi holder allerede på med dette. Vent litt, så ser du resultatet.',
} as const;
