/**
 * What a failed database call was, read from the error and its causes: Drizzle wraps the
 * driver's error (pg and PGlite both carry PostgreSQL's `code`, and `constraint` on a unique
 * violation), sometimes twice, so the causes are followed a few levels. The one place that knows
 * PostgreSQL's error codes (issue 26.2).
 */

/** The error and its causes, innermost last (at most five levels: a cycle cannot hang us). */
function* causes(error: unknown): Generator<{ code?: unknown; constraint?: unknown; message?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    yield current as { code?: unknown; constraint?: unknown; message?: unknown };
    current = (current as { cause?: unknown }).cause;
  }
}

/**
 * The unique index a failed write ran into (PostgreSQL 23505), '' when the driver did not name
 * it, or null for any other error. A service turns a known index into its 409 with a Norwegian
 * message; any other error is rethrown.
 */
export function uniqueViolationOf(error: unknown): string | null {
  for (const { code, constraint } of causes(error)) {
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/** Connection-level failures that mean "the database is not there right now", not a bug. */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
const unavailableMessage = /database is closed|Connection terminated|PGlite is closed|Cannot use a pool after calling end|Query read timeout|timeout exceeded when trying to connect|is not queryable/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const { code, message } of causes(error)) {
    if (typeof code === 'string' && unavailableCodes.has(code)) return true;
    if (typeof message === 'string' && unavailableMessage.test(message)) return true;
  }
  return false;
}

/**
 * PostgreSQL refusing a value the caller sent (a NUL byte, bytes that are not UTF-8, text longer
 * than its column): the input is wrong, not the server, and nothing was stored.
 */
const invalidInputCodes = new Set(['22021', '22P05', '22001']);

export function isInvalidInput(error: unknown): boolean {
  for (const { code } of causes(error)) {
    if (typeof code === 'string' && invalidInputCodes.has(code)) return true;
  }
  return false;
}

/** The innermost cause's first line: Drizzle's "Failed query: rollback" is around "Connection terminated". */
export function rootMessage(error: unknown): string {
  let innermost: { message?: unknown } | undefined;
  for (const cause of causes(error)) innermost = cause;
  return typeof innermost?.message === 'string' ? (innermost.message.split('\n')[0] ?? '') : String(error);
}
