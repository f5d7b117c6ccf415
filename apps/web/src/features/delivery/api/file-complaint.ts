import { useMutation, useQueryClient } from '../../../lib/query/index.ts';
import type { ComplaintReceipt } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

export interface ComplaintInput {
  code: string;
  days: string[];
  text: string | null;
  remedy: string;
}

/** POST /api/delivery/complaints: files a complaint and returns the receipt with its case number. */
function fileComplaint(titleCode: string, body: ComplaintInput): Promise<ComplaintReceipt> {
  return http.post<ComplaintReceipt>(`delivery/complaints${titleQuery(titleCode)}`, body);
}

export function useFileComplaint(titleCode: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ComplaintInput) => fileComplaint(titleCode, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveryKeys.complaintOptions(titleCode) }),
  });
}
