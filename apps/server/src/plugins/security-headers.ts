import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. The SPA ships no inline script, so the CSP can
 * forbid it; images may come from the titles' own sites (favicons) over https.
 */
const spaCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The headers every response carries. Pages with their own needs (the identity provider's
 * server-rendered pages) pass their own CSP; everything else stays the same.
 */
export function securityHeaders(options: { https: boolean; csp?: string }): Record<string, string> {
  return {
    'content-security-policy': options.csp ?? spaCsp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers = securityHeaders(options);
  app.addHook('onSend', async (request, reply) => {
    // A route that set its own CSP (the provider's pages) keeps it.
    for (const [name, value] of Object.entries(headers)) {
      if (name === 'content-security-policy' && reply.hasHeader(name)) continue;
      reply.header(name, value);
    }
    if (request.url.startsWith('/api/') || request.url === '/api') reply.header('cache-control', 'no-store');
  });
}
