import type { logoutResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';

export type LogoutResponse = ResponseOf<typeof logoutResponseSchema>;

/** POST /api/logout (SPEC §7, empty body): ends the server session; says where the provider's ends. */
export function postLogout(): Promise<LogoutResponse> {
  return http.post<LogoutResponse>('logout', {}, { skipUnauthenticatedHandler: true });
}
