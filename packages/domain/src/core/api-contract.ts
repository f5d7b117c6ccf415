import { z } from 'zod';

// Shapes every area's routes share, so the OpenAPI document at /api/docs says what a call
// takes and answers even where that is "nothing" or "a file" (issue 26.6).

/**
 * The body of a write that needs nothing beyond its path, query and session (leave a family,
 * resend an invitation, ask for a data export, run a job): the JSON `{}`. Every write to /api
 * is JSON (the server refuses other content types and an empty JSON body), so "no body" is
 * spelled `{}`, and anything else in it is refused rather than silently ignored.
 */
export const emptyBodySchema = z.strictObject({});

/**
 * A file's bytes (a PDF, a ZIP, an EHF XML, a CSV, a bank file): documented as OpenAPI's binary
 * string. Nothing is checked against it: a route sends a file as a Buffer or as text in its
 * own media type, which Fastify passes on without the JSON serializer, and a route that takes a
 * file reads the bytes its content-type parser gave it (and refuses anything else itself).
 */
export const fileSchema = z.unknown().meta({ type: 'string', format: 'binary' });

/** A route's answer that is a file in `mediaType` (Fastify's per-content-type response form). */
export function fileAnswer<M extends string>(mediaType: M, description: string) {
  return { description, content: { [mediaType]: { schema: fileSchema } } as Record<M, { schema: typeof fileSchema }> };
}
