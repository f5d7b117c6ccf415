import type { LoginTokenResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** Which issuer, and whether to log in or to link it to the signed-in user (issue 24). */
export interface LoginTokenOptions {
  issuer?: string;
  purpose?: 'login' | 'link';
}

/**
 * GET /api/loginToken (SPEC §7): a one-time login token bound to this browser by a cookie,
 * and the provider's authorization URL that carries it — or, with several issuers and none
 * chosen, the portal's own login page that lists them.
 */
export function getLoginToken(returnTo: string, titleCode: string | undefined, options: LoginTokenOptions = {}): Promise<LoginTokenResponse> {
  const params = new URLSearchParams({ returnTo });
  if (titleCode) params.set('titleCode', titleCode);
  if (options.issuer) params.set('issuer', options.issuer);
  if (options.purpose) params.set('purpose', options.purpose);
  return http.get<LoginTokenResponse>(`loginToken?${params}`, { skipUnauthenticatedHandler: true });
}

/**
 * GET /api/login/start as a link's address: the same login, started by the server, which sends
 * the browser on to the provider. The header's "Logg inn" carries it so that a click works before
 * the page's scripts have taken over the server's markup (docs/decisions/032).
 */
export function loginStartHref(returnTo: string, titleCode: string | undefined): string {
  const params = new URLSearchParams({ returnTo });
  if (titleCode) params.set('titleCode', titleCode);
  return `/api/login/start?${params}`;
}
