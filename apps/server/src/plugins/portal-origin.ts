import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authErrorCodes, authErrorMessages } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import type { RedirectPolicy } from '../identity/portal-origins.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The portal origin the request came to (`https://minside.adressa.no`), for links in
     * e-mails and redirects. Throws 400 UNKNOWN_PORTAL_HOST for any other Host header: a
     * link built from an unchecked Host would let anyone send the newspaper's own e-mail
     * pointing at their site.
     */
    portalOrigin(): string;
  }
}

export function registerPortalOrigin(app: FastifyInstance, policy: Pick<RedirectPolicy, 'originAllowed'>): void {
  app.decorateRequest('portalOrigin', function portalOrigin(this: { protocol: string; host: string }) {
    const origin = `${this.protocol}://${this.host}`;
    if (!policy.originAllowed(origin)) throw new AppError(400, authErrorCodes.unknownPortalHost, authErrorMessages.unknownPortalHost, `Not a portal origin: ${origin}`);
    return origin;
  });
}

/**
 * The address the request came to, as the title lookup takes it (`https://minside.adressa.no/`).
 * Unchecked: an unknown host resolves to the fallback title. Links and redirects use
 * `request.portalOrigin()` instead.
 */
export function requestUrlOf(request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  return `${request.protocol}://${request.host}/`;
}
