import type { FastifyRequest } from 'fastify';
import { errorCodes, errorMessages } from '@minside/domain';
import { AppError } from '../lib/app-error.ts';
import { routeScope, stateChangingMethods } from './route-scope.ts';

/**
 * Cross-site request forgery defence for the API. SameSite=Lax is not enough on its own:
 * the newspaper's own site (www.adressa.no) is the same *site* as its Min Side and carries
 * third-party scripts. So a state-changing call must
 * - come from the same origin (Sec-Fetch-Site, sent by every current browser, else Origin), and
 * - be JSON, which a cross-origin page cannot send without a CORS preflight we never grant.
 * Which calls are "/api" is the route the router matched (plugins/route-scope.ts), not the
 * spelling of the URL: `POST /%61pi/family/leave` is `POST /api/family/leave`.
 */
export function refuseCrossSiteWrite(request: FastifyRequest): void {
  // Runs in the edge's onRequest (plugins/edge.ts), before the signed-in areas' own: a cross-site write is refused before its session is looked at.
  if (stateChangingMethods.has(request.method) && routeScope(request) === 'api') refuseCrossSiteOrNonJson(request);
}

function refuseCrossSiteOrNonJson(request: FastifyRequest): void {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const crossOrigin =
    (typeof fetchSite === 'string' && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
    (typeof origin === 'string' && origin !== 'null' && URL.canParse(origin) && new URL(origin).host !== request.host) ||
    origin === 'null';
  if (crossOrigin) throw new AppError(403, errorCodes.crossSiteRequest, errorMessages.crossSiteRequest);
  // An operator upload (a bank file): its own onRequest refuses any request without the operator's bearer token.
  if (request.routeOptions.config?.bearerTextBody) return;
  const contentType = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new AppError(415, errorCodes.unsupportedMediaType, errorMessages.unsupportedMediaType);
  }
}
