import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { BusinessRemoveResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { businessKeys, titleQuery } from './keys.ts';

/** POST /api/business/members/remove: many at once; each id answers deleted, failed or notExist. */
function removeMembers(titleCode: string, ids: string[]): Promise<BusinessRemoveResponse> {
  return http.post<BusinessRemoveResponse>(`business/members/remove${titleQuery(titleCode)}`, { ids });
}

export function useRemoveMembers(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => removeMembers(titleCode, ids),
    onSuccess: (result) => queryClient.setQueryData(businessKeys.overview(titleCode), result.overview),
  });
}
