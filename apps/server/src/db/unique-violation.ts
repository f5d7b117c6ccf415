/**
 * The unique index a failed write ran into (PostgreSQL 23505), or null for any other error.
 * Drizzle wraps the driver's error (pg and PGlite both carry `code` and `constraint`), so the
 * causes are followed a few levels. A service turns a known index into its 409 with a
 * Norwegian message; any other error is rethrown.
 */
export function uniqueViolationOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
