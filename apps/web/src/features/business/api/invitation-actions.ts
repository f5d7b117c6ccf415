import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { BusinessInvitationActionResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { businessKeys, titleQuery } from './keys.ts';

/** POST /api/business/invitations/{id}/resend: the invitation e-mail again (at most once in a few minutes). */
function resendInvitation(titleCode: string, id: string): Promise<BusinessInvitationActionResponse> {
  return http.post<BusinessInvitationActionResponse>(`business/invitations/${encodeURIComponent(id)}/resend${titleQuery(titleCode)}`, {});
}

/** DELETE /api/business/invitations/{id}: the invitation is withdrawn, its link and code stop working. */
function withdrawInvitation(titleCode: string, id: string): Promise<BusinessInvitationActionResponse> {
  return http.delete<BusinessInvitationActionResponse>(`business/invitations/${encodeURIComponent(id)}${titleQuery(titleCode)}`, {});
}

/** One pending invitation at a time (issue 25.15): resend or withdraw, and the list as it now is. */
export function useInvitationAction(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id }: { action: 'resend' | 'withdraw'; id: string; email: string }) => (action === 'resend' ? resendInvitation(titleCode, id) : withdrawInvitation(titleCode, id)),
    onSuccess: (result) => queryClient.setQueryData(businessKeys.overview(titleCode), result.overview),
  });
}
