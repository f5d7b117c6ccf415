/**
 * The answer to a failure the client cannot name otherwise (errorCodes.internal and
 * errorMessages.internal in api-error-rules.ts). In a module of its own, so that the web's start-up
 * code (its http client) takes these two strings and not every code and message (issue 27).
 */
export const internalError = { code: 'INTERNAL_ERROR', message: 'Noe gikk galt hos oss. Prøv igjen om litt.' } as const;
