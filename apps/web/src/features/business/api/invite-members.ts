import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { BusinessInviteResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { businessKeys, titleQuery } from './keys.ts';

/** POST /api/business/invitations: the pasted text as it is; the server splits and checks it. */
function inviteMembers(titleCode: string, emails: string): Promise<BusinessInviteResponse> {
  return http.post<BusinessInviteResponse>(`business/invitations${titleQuery(titleCode)}`, { emails });
}

export function useInviteMembers(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emails: string) => inviteMembers(titleCode, emails),
    onSuccess: (result) => queryClient.setQueryData(businessKeys.overview(titleCode), result.overview),
  });
}
