import { queryOptions, useQuery } from '@tanstack/react-query';
import { complaintCodesResponseSchema } from '@minside/domain';
import { http } from '../../../lib/http.ts';
import { deliveryKeys } from './keys.ts';

/** GET /api/complaintcodes (SPEC §7). */
export function getComplaintCodes() {
  return http.get('complaintcodes', complaintCodesResponseSchema);
}

export const complaintCodesQueryOptions = () => queryOptions({ queryKey: deliveryKeys.complaintCodes(), queryFn: getComplaintCodes, staleTime: Infinity });

export function useComplaintCodes() {
  return useQuery(complaintCodesQueryOptions());
}
