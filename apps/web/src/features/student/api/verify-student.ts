import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { ActivateStudentResponse, StudentEmailResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { useIdentity } from '../../auth/index.ts';
import { studentKeys, titleQuery } from './keys.ts';

/** SPEC §7 POST student-email/: a six-digit code to the student address. */
function sendStudentEmail(titleCode: string, email: string): Promise<StudentEmailResponse> {
  return http.post<StudentEmailResponse>(`student-email/${titleQuery(titleCode)}`, { email });
}

/** SPEC §7 POST activate-student-subscription/: the code; answers with the session that now has the student subscription. */
function activateStudentSubscription(titleCode: string, email: string, code: string): Promise<ActivateStudentResponse> {
  return http.post<ActivateStudentResponse>(`activate-student-subscription/${titleQuery(titleCode)}`, { email, code });
}

export function useSendStudentEmail(titleCode: string) {
  return useMutation({ mutationFn: (email: string) => sendStudentEmail(titleCode, email) });
}

export function useActivateStudentSubscription(titleCode: string) {
  const identity = useIdentity();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, code }: { email: string; code: string }) => activateStudentSubscription(titleCode, email, code),
    onSuccess: (result) => {
      // The guard of /student-kvittering reads the session: it must know the new subscription first.
      identity.remember({ user: result.user, account: result.account, subscription: result.subscription });
      queryClient.setQueryData(studentKeys.status(), result.status);
    },
  });
}
