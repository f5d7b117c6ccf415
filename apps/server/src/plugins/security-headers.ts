import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every response. The SPA ships no inline script, so the CSP can
 * forbid it; images may come from the titles' own sites (favicons) over https.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const csp = [
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
  app.addHook('onSend', async (request, reply) => {
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (options.https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (request.url.startsWith('/api/') || request.url === '/api') reply.header('cache-control', 'no-store');
  });
}
