import { useMutation } from '../../../lib/query/index.ts';
import type { AssignAccountResponse, SearchAccountBody, SearchAccountResponse, verifyConnectResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { useIdentity } from '../../auth/index.ts';

const titleQuery = (titleCode: string) => `?${new URLSearchParams({ titleCode })}`;

/** SPEC §7 POST search-account: a match mails a code to the subscription's contact e-mail. */
export function useSearchAccount(titleCode: string) {
  return useMutation({ mutationFn: (body: SearchAccountBody) => http.post<SearchAccountResponse>(`search-account${titleQuery(titleCode)}`, body) });
}

/** SPEC §7 POST verify/: the code; then PUT account/assign takes the subscription over. */
export function useVerifyAndAssign(titleCode: string) {
  const identity = useIdentity();
  return useMutation({
    mutationFn: async ({ requestId, code }: { requestId: string; code: string }) => {
      await http.post<ResponseOf<typeof verifyConnectResponseSchema>>('verify/', { requestId, code });
      return http.put<AssignAccountResponse>(`account/assign${titleQuery(titleCode)}`, { requestId });
    },
    onSuccess: (result) => identity.remember({ user: result.user, account: result.account, subscription: result.subscription }),
  });
}
