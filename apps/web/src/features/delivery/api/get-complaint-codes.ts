import { queryOptions, useQuery } from '../../../lib/query/index.ts';
import type { complaintCodesResponseSchema } from '@minside/domain';
import { http, type ResponseOf } from '../../../lib/http.ts';
import { deliveryKeys } from './keys.ts';

/** GET /api/complaintcodes (SPEC §7). */
function getComplaintCodes() {
  return http.get<ResponseOf<typeof complaintCodesResponseSchema>>('complaintcodes');
}

const complaintCodesQueryOptions = () => queryOptions({ queryKey: deliveryKeys.complaintCodes(), queryFn: getComplaintCodes, staleTime: Infinity });

export function useComplaintCodes() {
  return useQuery(complaintCodesQueryOptions());
}
