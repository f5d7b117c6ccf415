import { logoutResponseSchema } from '@minside/domain';
import { http } from '../../../lib/http.ts';

export type LogoutResponse = ReturnType<typeof logoutResponseSchema.parse>;

/** POST /api/logout (SPEC §7, empty body): ends the server session; says where the provider's ends. */
export function postLogout(): Promise<LogoutResponse> {
  return http.post('logout', {}, logoutResponseSchema, { skipUnauthenticatedHandler: true });
}
