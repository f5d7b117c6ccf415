import type { SessionResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/**
 * GET /api/session: who is signed in on this title. Rejects with a 401 ApiError when nobody
 * is, which is an answer here, so the 401/406 login redirect is left out.
 */
export function getSession(titleCode: string | undefined): Promise<SessionResponse> {
  const query = titleCode ? `?${new URLSearchParams({ titleCode })}` : '';
  return http.get<SessionResponse>(`session${query}`, { skipUnauthenticatedHandler: true });
}
