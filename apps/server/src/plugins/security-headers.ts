import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeScope } from './route-scope.ts';

/**
 * Security headers on every response. The SPA ships no inline script but a server-rendered
 * page's loader, allowed by its hash, so the CSP can forbid any other; images may come from the titles' own sites (favicons) over https.
 */
/** Third-party origins configured for consent, analytics and monitoring (config/client-settings.ts, modules/consent/settings.ts); none by default. */
export interface CspSources {
  script: string[];
  connect: string[];
  frame: string[];
}

const noSources: CspSources = { script: [], connect: [], frame: [] };
const withSources = (base: string, extra: string[]) => [base, ...extra].join(' ');

/**
 * The SPA's policy. `styleHashes` and `scriptHashes` allow those inline styles and scripts and no
 * other: a server-rendered page's styles and its script loader (pages/spa-render.ts,
 * pages/script-loader.ts, docs/decisions/032).
 */
export function spaCsp(sources: CspSources, { styleHashes = [], scriptHashes = [] }: { styleHashes?: string[]; scriptHashes?: string[] } = {}): string {
  return [
    "default-src 'self'",
    withSources("script-src 'self'", [...scriptHashes, ...sources.script]),
    withSources("style-src 'self'", styleHashes),
    "img-src 'self' data: https:",
    withSources("connect-src 'self'", sources.connect),
    "font-src 'self'",
    ...(sources.frame.length > 0 ? [withSources('frame-src', sources.frame)] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers every response carries. Pages with their own needs (the identity provider's
 * server-rendered pages) pass their own CSP; everything else stays the same.
 */
export function securityHeaders(options: { https: boolean; csp?: string; sources?: CspSources }): Record<string, string> {
  return {
    'content-security-policy': options.csp ?? spaCsp(options.sources ?? noSources),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    ...(options.https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** Puts the security headers on an answer; the edge's onSend runs it on every one (plugins/edge.ts). */
export function securityHeaderWriter(options: { https: boolean; sources?: CspSources }): (request: FastifyRequest, reply: FastifyReply) => void {
  const { 'content-security-policy': csp, ...others } = securityHeaders(options);
  const headers = Object.entries(others);
  return (request, reply) => {
    // A route that set its own CSP (the provider's pages) keeps it.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    for (const [name, value] of headers) reply.header(name, value);
    // An /api answer is never stored, whatever its route set (the route the router matched, not
    // the URL's spelling: plugins/route-scope.ts). Anything else that did not choose its own
    // caching (the SPA's assets and page do) is not stored either: errors, 404s, health.
    if (!reply.hasHeader('cache-control') || routeScope(request) === 'api') reply.header('cache-control', 'no-store');
  };
}
