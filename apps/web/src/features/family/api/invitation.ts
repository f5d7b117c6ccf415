import { queryOptions } from '../../../lib/query/index.ts';
import type { FamilyAcceptResponse, FamilyInvitationPreview } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { familyKeys } from './family.ts';

/** GET /api/family/invitation?token=: what the link offers, or the SPEC §4 outcome that stops it. */
function getInvitation(token: string, signal?: AbortSignal): Promise<FamilyInvitationPreview> {
  return http.get<FamilyInvitationPreview>(`family/invitation?${new URLSearchParams({ token })}`, { signal });
}

export function invitationQueryOptions(token: string) {
  // An outcome (expired, withdrawn …) does not change by asking again.
  return queryOptions({ queryKey: familyKeys.invitation(token), queryFn: ({ signal }) => getInvitation(token, signal), retry: false, staleTime: 0 });
}

/** POST /api/family/invitation/accept. */
export function acceptInvitation(token: string): Promise<FamilyAcceptResponse> {
  return http.post<FamilyAcceptResponse>('family/invitation/accept', { token });
}
