import { queryOptions } from '../../../lib/query/index.ts';
import type { EmailChangeForm, emailChangeResponseSchema, ProfileForm, ProfileResponse, ProfileUpdateResponse } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';

/** Every query key of the profile area. */
export const profileKeys = { profile: ['profile'] as const };

/**
 * GET /api/profile: the signed-in user's profile and family-sharing summary.
 * @public typed against the OpenAPI document by apps/server/test/openapi-contract.test.ts, whose
 * generated check imports it (knip cannot see that import).
 */
export function getProfile(signal?: AbortSignal): Promise<ProfileResponse> {
  return http.get<ProfileResponse>('profile', { signal });
}

export function profileQueryOptions() {
  return queryOptions({ queryKey: profileKeys.profile, queryFn: ({ signal }) => getProfile(signal), staleTime: 0 });
}

/** PUT /api/profile. */
export function updateProfile(form: ProfileForm): Promise<ProfileUpdateResponse> {
  return http.put<ProfileUpdateResponse>('profile', form);
}

/** POST /api/profile/email-change: re-authenticate with the password; a link goes to the new address. */
export function requestEmailChange(form: EmailChangeForm): Promise<{ pendingEmail: string }> {
  return http.post<ResponseOf<typeof emailChangeResponseSchema>>('profile/email-change', form);
}

/** POST /api/profile/email-change/confirm: the token from the link. */
export function confirmEmailChange(token: string): Promise<ProfileUpdateResponse> {
  return http.post<ProfileUpdateResponse>('profile/email-change/confirm', { token });
}
