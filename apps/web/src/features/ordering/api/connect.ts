import { useMutation } from '@tanstack/react-query';
import { assignAccountResponseSchema, searchAccountResponseSchema, verifyConnectResponseSchema, type SearchAccountBody } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { useIdentity } from '../../auth/index.ts';

const titleQuery = (titleCode: string) => `?${new URLSearchParams({ titleCode })}`;

/** SPEC §7 POST search-account: a match mails a code to the subscription's contact e-mail. */
export function useSearchAccount(titleCode: string) {
  return useMutation({ mutationFn: (body: SearchAccountBody) => http.post(`search-account${titleQuery(titleCode)}`, body, searchAccountResponseSchema) });
}

/** SPEC §7 POST verify/: the code; then PUT account/assign takes the subscription over. */
export function useVerifyAndAssign(titleCode: string) {
  const identity = useIdentity();
  return useMutation({
    mutationFn: async ({ requestId, code }: { requestId: string; code: string }) => {
      await http.post('verify/', { requestId, code }, verifyConnectResponseSchema);
      return http.put(`account/assign${titleQuery(titleCode)}`, { requestId }, assignAccountResponseSchema);
    },
    onSuccess: (result) => identity.remember({ user: result.user, account: result.account, subscription: result.subscription }),
  });
}
