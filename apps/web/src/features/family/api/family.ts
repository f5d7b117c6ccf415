import { queryOptions, useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { FamilyInviteResponse, FamilyLeaveResponse, FamilyOverview, FamilyRemovalResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** Every query key of the family area; mutations invalidate by these. */
export const familyKeys = {
  all: ['family'] as const,
  overview: (titleCode: string) => ['family', titleCode, 'overview'] as const,
  invitation: (token: string) => ['family', 'invitation', token] as const,
};

const titleQuery = (titleCode: string) => (titleCode ? `?${new URLSearchParams({ titleCode })}` : '');

/**
 * GET /api/family: the owner's invitations and places, a member's owner, or why there is no sharing.
 * @public typed against the OpenAPI document by apps/server/test/openapi-contract.test.ts, whose
 * generated check imports it (knip cannot see that import).
 */
export function getFamily(titleCode: string, signal?: AbortSignal): Promise<FamilyOverview> {
  return http.get<FamilyOverview>(`family${titleQuery(titleCode)}`, { signal });
}

export function familyQueryOptions(titleCode: string) {
  return queryOptions({ queryKey: familyKeys.overview(titleCode), queryFn: ({ signal }) => getFamily(titleCode, signal), staleTime: 0 });
}

/** The answers carry the new overview: it goes straight into the cache. */
function useFamilyMutation<TInput, TResult extends { overview: FamilyOverview }>(titleCode: string, call: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => queryClient.setQueryData(familyKeys.overview(titleCode), result.overview),
    onError: () => queryClient.invalidateQueries({ queryKey: familyKeys.overview(titleCode) }),
  });
}

/** POST /api/family/invitations: SPEC §4 invite results (emailSent, resent; the rest are errors). */
export function useInvite(titleCode: string) {
  return useFamilyMutation(titleCode, (email: string): Promise<FamilyInviteResponse> => http.post<FamilyInviteResponse>(`family/invitations${titleQuery(titleCode)}`, { email }));
}

/** POST /api/family/invitations/{id}/resend. */
export function useResend(titleCode: string) {
  return useFamilyMutation(titleCode, (id: string): Promise<FamilyInviteResponse> =>
    http.post<FamilyInviteResponse>(`family/invitations/${encodeURIComponent(id)}/resend${titleQuery(titleCode)}`, {}),
  );
}

/** DELETE /api/family/invitations/{id}: withdraw an invitation or remove a member (SPEC §4 removal results). */
export function useRemove(titleCode: string) {
  return useFamilyMutation(titleCode, (id: string): Promise<FamilyRemovalResponse> => http.delete<FamilyRemovalResponse>(`family/invitations/${encodeURIComponent(id)}${titleQuery(titleCode)}`, {}));
}

/** POST /api/family/leave: a member stops sharing. */
export function leaveFamily(titleCode: string): Promise<FamilyLeaveResponse> {
  return http.post<FamilyLeaveResponse>(`family/leave${titleQuery(titleCode)}`, {});
}
