import { useMutation } from '../../../lib/query/index.ts';
import type { BusinessConfirmResponse, BusinessVerifyResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { useIdentity } from '../../auth/index.ts';
import { titleQuery } from './keys.ts';

/** POST /api/business/verification: a code to the work address. */
function requestWorkEmailCode(titleCode: string, email: string): Promise<BusinessVerifyResponse> {
  return http.post<BusinessVerifyResponse>(`business/verification${titleQuery(titleCode)}`, { email });
}

/** POST /api/business/verification/confirm: the code; answers with the session that now has access. */
function confirmWorkEmail(titleCode: string, email: string, code: string): Promise<BusinessConfirmResponse> {
  return http.post<BusinessConfirmResponse>(`business/verification/confirm${titleQuery(titleCode)}`, { email, code });
}

export function useRequestWorkEmailCode(titleCode: string) {
  return useMutation({ mutationFn: (email: string) => requestWorkEmailCode(titleCode, email) });
}

export function useConfirmWorkEmail(titleCode: string) {
  const identity = useIdentity();
  return useMutation({
    mutationFn: ({ email, code }: { email: string; code: string }) => confirmWorkEmail(titleCode, email, code),
    // The guard reads the session: with the new subscription in it, the subscriber pages open at once.
    onSuccess: (session) => identity.remember(session),
  });
}
