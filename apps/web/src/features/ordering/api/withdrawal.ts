import { queryOptions } from '../../../lib/query/index.ts';
import type { WithdrawalResponse } from '@minside/domain';
import { http } from '../../../lib/http.ts';

/** The subscription a withdrawal is about. */
export interface WithdrawalRef {
  ariaAccountNo: number;
  titleCode: string;
}

const withdrawalPath = ({ ariaAccountNo, titleCode }: WithdrawalRef) => `subscription/${ariaAccountNo}/${encodeURIComponent(titleCode)}/withdrawal`;

export const withdrawalKeys = {
  status: ({ ariaAccountNo, titleCode }: WithdrawalRef) => ['ordering', 'withdrawal', ariaAccountNo, titleCode] as const,
};

/** GET …/withdrawal: whether the purchase may still be withdrawn (angrerett), until when, and what comes back. */
export const withdrawalQueryOptions = (ref: WithdrawalRef) =>
  queryOptions({
    queryKey: withdrawalKeys.status(ref),
    queryFn: ({ signal }) => http.get<WithdrawalResponse>(withdrawalPath(ref), { signal }),
    staleTime: 0,
  });

/** POST …/withdrawal: the buyer withdraws; the same call again answers the same withdrawal. */
export function withdraw(ref: WithdrawalRef): Promise<WithdrawalResponse> {
  return http.post<WithdrawalResponse>(withdrawalPath(ref), {});
}
