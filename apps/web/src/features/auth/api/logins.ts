import { queryOptions } from '../../../lib/query/index.ts';
import type { chooseLoginIssuerResponseSchema, loginIssuersResponseSchema, ProfileLogins } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';

/** GET /api/login/issuers: the ways to log in, the main one first. */
export function loginIssuersQueryOptions() {
  return queryOptions({
    queryKey: ['login-issuers'] as const,
    queryFn: ({ signal }) => http.get<ResponseOf<typeof loginIssuersResponseSchema>>('login/issuers', { signal, skipUnauthenticatedHandler: true }),
    staleTime: Infinity,
  });
}

/** POST /api/login/choose: the issuer picked on /logg-inn; answers where to send the browser. */
export function chooseLoginIssuer(loginToken: string, issuer: string): Promise<ResponseOf<typeof chooseLoginIssuerResponseSchema>> {
  return http.post('login/choose', { loginToken, issuer }, { skipUnauthenticatedHandler: true });
}

export const profileLoginsKey = ['profile', 'logins'] as const;

/** GET /api/profile/logins: the ways the signed-in user logs in. */
export function profileLoginsQueryOptions() {
  return queryOptions({ queryKey: profileLoginsKey, queryFn: ({ signal }) => http.get<ProfileLogins>('profile/logins', { signal }), staleTime: 0 });
}

/** DELETE /api/profile/logins/{issuer}: "Koble fra". */
export function unlinkLogin(issuer: string): Promise<ProfileLogins> {
  return http.delete<ProfileLogins>(`profile/logins/${encodeURIComponent(issuer)}`, {});
}
