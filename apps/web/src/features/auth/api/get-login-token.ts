import type { LoginTokenResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/**
 * GET /api/loginToken (SPEC §7): a one-time login token bound to this browser by a cookie,
 * and the provider's authorization URL that carries it.
 */
export function getLoginToken(returnTo: string, titleCode: string | undefined): Promise<LoginTokenResponse> {
  const params = new URLSearchParams({ returnTo });
  if (titleCode) params.set('titleCode', titleCode);
  return http.get<LoginTokenResponse>(`loginToken?${params}`, { skipUnauthenticatedHandler: true });
}
