import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { ComplaintOptions } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys, titleQuery } from './keys.ts';

/** GET /api/delivery/complaints/options: days, remedies and what is already reported. 403 without paper. */
function getComplaintOptions(titleCode: string): Promise<ComplaintOptions> {
  return http.get<ComplaintOptions>(`delivery/complaints/options${titleQuery(titleCode)}`);
}

const complaintOptionsQueryOptions = (titleCode: string) => queryOptions({ queryKey: deliveryKeys.complaintOptions(titleCode), queryFn: () => getComplaintOptions(titleCode), staleTime: 0 });

export function useComplaintOptions(titleCode: string) {
  return useQuery(complaintOptionsQueryOptions(titleCode));
}
